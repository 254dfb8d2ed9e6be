"""Session 26: the ``memlane`` process's edges.

A Ctrl-C landing while the interpreter exits, after the command has ended (an import's
input closed and the Ctrl-C arriving about then), printed a ``KeyboardInterrupt`` traceback
from threading's shutdown. The console script (``[project.scripts]``, ``python -m memlane``)
now ignores SIGINT once main() has returned; main() itself, which ``make demo`` and tests
run in their own process, leaves every signal handler as it found it (``serve`` and
``worker`` left theirs installed, and ``serve`` sse-starlette's process-wide "should exit"
flag set, which ended every event stream served later in the process).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest
from sse_starlette.sse import AppStatus

from memlane.serve import cli as cli_module
from memlane.testing import memory

ROOT = Path(__file__).resolve().parents[2]

# The process starts a thread that waits for the main thread to end (threading's shutdown,
# where the interpreter waits for its threads), then sends the process a SIGINT while that
# wait goes on: the Ctrl-C landing during the exit, every time.
LATE_CTRL_C = """\
import os, runpy, signal, sys, threading, time
def late():
    threading.main_thread().join()
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(1)
threading.Thread(target=late).start()
sys.argv = ["memlane", *sys.argv[2:]]
runpy.run_module(MODULE, run_name="__main__")
"""


@pytest.mark.parametrize("module", ["memlane", "memlane.serve.cli"])
@pytest.mark.parametrize("args,status", [(["add", "--scope", "s", "hello there"], 0),
                                         (["add", "--scope", "s", "--role", "nobody", "hi"], 2)])
def test_a_ctrl_c_while_the_command_exits_prints_no_traceback(tmp_path: Path, module: str,
                                                              args: list[str], status: int) -> None:
    db = tmp_path / "c.db"
    script = LATE_CTRL_C.replace("MODULE", repr(module))
    out = subprocess.run([sys.executable, "-c", script, "-", "--db", str(db), *args],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing"})
    assert "Traceback" not in out.stderr and "KeyboardInterrupt" not in out.stderr, out.stderr
    assert out.returncode == status, out.stderr
    if status == 0:
        assert out.stdout.startswith("message 1 added")
        with memory(db) as mem:
            assert mem.stats()["messages"] == 1


def test_the_console_script_is_the_entry_point_that_ignores_a_late_ctrl_c() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["memlane"] == "memlane.serve.cli:console_main"


def _sentinel(*_: Any) -> None:
    """A caller's own handler (the demo's or a test runner's)."""


def _main(*args: str) -> int:
    """main() in this process, as ``make demo`` runs each command."""
    sys.argv = ["memlane", *args]
    try:
        cli_module.main()
    except SystemExit as e:
        return int(e.code or 0)
    return 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _signal_when(ready: Any, sig: int) -> threading.Thread:
    """Send this process ``sig`` once ``ready()`` (polled for at most 60 s)."""
    def run() -> None:
        for _ in range(600):
            if ready():
                break
            time.sleep(0.1)
        os.kill(os.getpid(), sig)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def test_main_in_process_leaves_the_signal_handlers_as_it_found_them(tmp_path: Path, monkeypatch,
                                                                      capsys) -> None:
    monkeypatch.setenv("MEMLANE_EMBEDDING_BACKEND", "hashing")
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    db = str(tmp_path / "p.db")
    lines = tmp_path / "in.jsonl"
    lines.write_text('{"scope": "s", "role": "user", "text": "hello", "at": "2024-01-01T00:00:00Z"}\n')
    found = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        for sig in found:
            signal.signal(sig, _sentinel)
        assert _main("--db", db, "add", "--scope", "s", "hi there") == 0
        assert _main("--db", db, "import", str(lines)) == 0
        assert _main("--db", db, "index") == 0
        assert _main("--db", db, "search", "hello") == 0
        # worker and serve run until a SIGTERM, sent once they have their own handler / answer
        t = _signal_when(lambda: signal.getsignal(signal.SIGTERM) is not _sentinel, signal.SIGTERM)
        assert _main("--db", db, "worker", "--poll", "0.1") == 0
        t.join(timeout=60)
        port = _free_port()
        t = _signal_when(lambda: _answers(f"http://127.0.0.1:{port}/healthz"), signal.SIGTERM)
        assert _main("--db", db, "serve", "--port", str(port), "--no-worker") == 0
        t.join(timeout=60)
        assert {sig: signal.getsignal(sig) for sig in found} == dict.fromkeys(found, _sentinel)
        # nor sse-starlette's flag that its stop set: every event stream served later in this
        # process (another test's live stream, /mcp's answers) ended at once
        assert AppStatus.should_exit is False
    finally:
        for sig, handler in found.items():
            signal.signal(sig, handler)
    capsys.readouterr()
