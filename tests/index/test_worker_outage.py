"""``memlane worker`` after its database could not be written: it runs again as soon as the
database takes writes, not at the end of its back-off (session 25).

SQLite: another process holding the file's write lock longer than the busy timeout failed the
worker's run, and the worker's probe (a read, which WAL answers under a writer's lock)
answered throughout, so the worker slept out its whole back-off (up to
``worker_max_backoff_seconds``) after the lock ended. PostgreSQL stopped and started again:
the probe fails while the server is down and the worker runs within a probe of its return.
Real processes and a real server stop; the back-off is set far beyond every wait, so a
worker that waited it out fails the bounded wait."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from memlane.testing import memory

BACKOFF = {"MEMLANE_INDEXING_WORKER_MAX_BACKOFF_SECONDS": "3600"}


def _worker(url: str, poll: str) -> tuple[subprocess.Popen[str], list[str]]:
    """``memlane worker`` on ``url``, and the lines of its stderr as they come."""
    env = {**os.environ, **BACKOFF, "PYTHONPATH": os.pathsep.join(sys.path),
           "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    proc = subprocess.Popen([sys.executable, "-m", "memlane", "--db", url, "worker", "--poll",
                             poll], env=env, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []

    def read() -> None:
        assert proc.stderr is not None
        with proc.stderr:
            lines.extend(proc.stderr)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return proc, lines


def _until(cond, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.05)
    return bool(cond())


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(60)


HOLD = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()  # held until the test closes our stdin
conn.execute("ROLLBACK")
"""


def test_a_sqlite_file_locked_by_another_process(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    with memory(db) as mem:
        mem.add_message("s", "user", "the spare key is with Ada")
        session = mem.close_session("s")
        assert session is not None
    holder = subprocess.Popen([sys.executable, "-c", HOLD, db], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    # a poll of 30 s: the back-off after the first failure is a minute
    proc, lines = _worker(db, "30")
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        # the run waits out SQLite's busy timeout (30 s), then fails
        assert _until(lambda: any("index run failed" in line for line in lines), 120), lines
        assert holder.stdin is not None
        holder.stdin.close()  # the lock ends
        holder.wait(60)
        with memory(db) as mem:
            assert _until(lambda: mem.session(session.id).indexed, 40), (
                "the worker waited out its back-off", lines)
        assert any("the database answers again" in line for line in lines), lines
    finally:
        _stop(proc)
        if holder.poll() is None:
            holder.kill()
            holder.wait(60)
        for pipe in (holder.stdin, holder.stdout):
            if pipe is not None and not pipe.closed:
                pipe.close()


def test_postgresql_stopped_and_started_again(tmp_path: Path) -> None:
    pytest.importorskip("psycopg")
    from memlane.testing.postgres import postgres_server, server_stopped

    with postgres_server() as url:
        with memory(url) as mem:
            mem.add_message("before", "user", "the spare key is with Ada")
        proc, lines = _worker(url, "0.5")
        try:
            assert _until(lambda: any("indexed 0 session" in line or "polling" in line
                                      for line in lines), 120), lines
            with server_stopped(url):
                assert _until(lambda: sum("index run failed" in line for line in lines) >= 4,
                              120), lines
                # the back-off after the fourth failure in a row: 8 s, doubling to an hour
            with memory(url) as mem:
                mem.add_message("after", "user", "she is back on Friday")
                session = mem.close_session("after")
                assert session is not None
                assert _until(lambda: mem.session(session.id).indexed, 30), lines
            assert any("the database answers again" in line for line in lines), lines
        finally:
            _stop(proc)
