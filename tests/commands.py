"""``memlane`` (or any Python program) run by a test as a real process, in a process group
of its own, so that a run that hangs fails only its own test, with every process's stacks
in the message, and leaves nothing running (session 28).

A command started with ``subprocess.Popen`` alone was killed alone on a timeout: the
processes it had started (``indexing.jobs``' summarizing processes, multiprocessing's
resource tracker) lived on holding the test's pipes, so the test's ``communicate`` after
the kill timed out too, and the ``Popen`` left behind failed the next test to collect
garbage with its ``ResourceWarning``. Here the command leads a new session
(``start_new_session``); a timeout asks the whole group for its stacks (SIGUSR1, which
``tests/stacks/sitecustomize.py`` makes print them), kills the whole group and reaps it."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["end", "finish", "group_left", "memlane", "start", "succeeds", "wait_group_gone"]

STACKS = Path(__file__).resolve().with_name("stacks")
"""The folder whose ``sitecustomize`` prints a process's stacks on SIGUSR1."""


def start(args: Sequence[str], *, env: Mapping[str, str] | None = None,
          **popen: Any) -> subprocess.Popen[str]:
    """``args`` started in a new session (its own process group), with this test run's
    ``sys.path`` and the stacks' hook on its ``PYTHONPATH``; text pipes for stdout and
    stderr unless ``popen`` says otherwise."""
    env = dict(os.environ if env is None else env)
    path = env.get("PYTHONPATH") or os.pathsep.join(sys.path)
    env["PYTHONPATH"] = os.pathsep.join([str(STACKS), path])
    popen.setdefault("stdout", subprocess.PIPE)
    popen.setdefault("stderr", subprocess.PIPE)
    popen.setdefault("text", True)
    return subprocess.Popen(list(args), env=env, start_new_session=True, **popen)


def memlane(*args: str, env: Mapping[str, str] | None = None,
            **popen: Any) -> subprocess.Popen[str]:
    """``python -m memlane *args`` started as ``start`` starts a program."""
    return start([sys.executable, "-m", "memlane", *args], env=env, **popen)


def group_left(proc: subprocess.Popen[Any]) -> bool:
    """Whether any process of ``proc``'s group is still there (``proc`` itself until it is
    reaped, or a process it started)."""
    try:
        os.killpg(proc.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of the group this user may not signal: still there
        return True
    return True


def wait_group_gone(proc: subprocess.Popen[Any], timeout: float) -> bool:
    """Wait (at most ``timeout`` seconds) until no process of ``proc``'s group is left;
    ``proc`` must have been reaped (``communicate`` or ``wait``)."""
    deadline = time.monotonic() + timeout
    while group_left(proc):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _kill_group(proc: subprocess.Popen[Any]) -> tuple[Any, Any]:
    """Every process of the group prints its stacks, then is killed; ``proc`` is reaped and
    what it wrote returned (the stacks at the end of stderr)."""
    for sig in (signal.SIGUSR1, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        if sig == signal.SIGUSR1:
            time.sleep(1.0)  # bounded: the processes write their stacks
    try:
        return proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:  # a process of another group holds the pipes
        proc.kill()
        proc.wait(30)
        return "", "(its pipes were still held by a process outside its group)"


def finish(proc: subprocess.Popen[Any], timeout: float) -> tuple[Any, Any]:
    """``proc``'s output once it and every process holding its pipes have ended; after
    ``timeout`` seconds, the whole group's stacks are printed, the group killed and
    reaped, and an ``AssertionError`` says so with the output and stacks."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        pass
    running = proc.poll() is None
    out, err = _kill_group(proc)
    what = ("did not end" if running else
            "ended, but a process it started still held its output")
    raise AssertionError(f"{proc.args!r} {what} within {timeout} s; its group was killed. "
                         f"stdout:\n{out}\nstderr (the stacks at the end):\n{err}")


def end(proc: subprocess.Popen[Any]) -> None:
    """In a test's ``finally``: nothing of ``proc``'s group is left running (killed and
    reaped if it is), and its pipes are closed."""
    if proc.returncode is None or group_left(proc):
        _kill_group(proc)
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()


def succeeds(args: Sequence[str], env: Mapping[str, str], *, tty: bool) -> tuple[str, str]:
    """``args`` run to its end (it must exit 0): its (stdout, stderr), stderr on a
    pseudo-terminal when ``tty`` (what a person at a terminal sees: progress, notes)."""
    if not tty:
        done = subprocess.run(list(args), env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout, done.stderr
    master, slave = pty.openpty()
    proc = subprocess.Popen(list(args), env=env, stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal's other side closed: the process ended
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, seen
    return out, seen.decode("utf-8", "replace")
