"""Imported as every Python process that ``tests/commands.py`` starts begins (this folder
is put first on its ``PYTHONPATH``, which a spawned child inherits): SIGUSR1 prints each
thread's stack to stderr, so a command that hangs shows where each of its processes waits."""

import faulthandler
import signal

faulthandler.register(signal.SIGUSR1, all_threads=True)
