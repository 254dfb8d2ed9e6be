"""A reader that opened a SQLite file ``immutable`` sees what is written after (session 37,
rev37). Session 36 (fix36b) opens a settled file no process may write (``chmod 444``; for
root, ``chattr +i``) ``?mode=ro&immutable=1``, decided once when the ``Memory`` opened. A
file then made writable and written by another process, or replaced by another database,
was read as it was by a long-lived reader (``memlane serve``, ``memlane mcp``, a library
``Memory``): SQLite reads an immutable file without a lock and without its ``-wal``, so the
writer's messages were missing while it ran (and a checkpoint could rewrite pages under the
reader), and a file renamed over it was never seen. The reader now checks, before each
statement, that the file is as it was (its inode, mode, size and times, no ``-shm`` nor
``-wal`` beside it) and otherwise opens it again as the file then is."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.memory import Memory
from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving
from tests.read_only_kit import fill, lock


def _unlock(undo: list[str]) -> None:
    subprocess.run(undo, check=True)


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    db = fill(tmp_path / "m.db")
    undo = lock(db)
    state = [undo]
    try:
        yield db, state
    finally:
        for path in (db, *db.parent.iterdir()):
            if os.geteuid() == 0:
                subprocess.run(["chattr", "-i", str(path)], capture_output=True)
            else:
                path.chmod(0o644)


def _count(mem: Memory) -> int:
    return int(mem.stats()["messages"])


def _write(db: Path, n: int, start: int) -> Memory:
    """A writer (another ``Memory``, as another process's) storing ``n`` messages, left open:
    its writes stay in the ``-wal`` until it closes."""
    writer = memory(db)
    for i in range(start, start + n):
        writer.add_message("s", "user", f"note {i} about Porto", at=f"2024-04-01T10:{i % 60:02d}:00Z")
    return writer


def test_a_reader_sees_what_a_writer_writes_after_the_file_was_made_writable(
        locked: tuple[Path, list[str]]) -> None:
    db, state = locked
    reader = memory(f"sqlite:///{db}?mode=ro")
    try:
        assert _count(reader) == 2
        _unlock(state[0])
        writer = _write(db, 5, 0)
        try:
            assert _count(writer) == 7
            assert _count(reader) == 7  # the writer still open: its messages in the -wal
        finally:
            writer.close()
        assert _count(reader) == 7
        assert [s.message_count for s in reader.sessions("s", limit=10)]
    finally:
        reader.close()


def test_a_reader_sees_a_database_renamed_over_its_file(locked: tuple[Path, list[str]],
                                                       tmp_path: Path) -> None:
    db, state = locked
    other = tmp_path / "other" / "m.db"
    other.parent.mkdir()
    with memory(other) as mem:
        mem.add_message("s", "user", "the restored copy", at="2024-01-01T10:00:00Z")
    reader = memory(db)
    try:
        assert _count(reader) == 2
        _unlock(state[0])
        os.replace(other, db)  # a restore from a backup: the file is another one now
        state[0] = lock(db)
        assert _count(reader) == 1
    finally:
        reader.close()


def test_the_service_over_an_immutable_file_serves_what_was_written(
        locked: tuple[Path, list[str]]) -> None:
    db, state = locked
    key = (db.parent / "key").read_text()
    with memory(db) as mem, serving(create_app(mem, worker=False)) as served, httpx.Client(
            base_url=served, timeout=30.0, headers={"Authorization": f"Bearer {key}"}) as http:
        def listed() -> int:
            got = http.get("/v1/sessions", params={"scope": "s"})
            assert got.status_code == 200, got.text
            return sum(s["message_count"] for s in got.json()["sessions"])

        assert listed() == 2
        _unlock(state[0])
        writer = _write(db, 3, 0)
        try:
            assert listed() == 5
        finally:
            writer.close()


_STEPS = st.lists(st.sampled_from(["write", "close", "lock", "read"]), min_size=1, max_size=8)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=_STEPS)
def test_a_read_only_reader_always_counts_what_is_stored(tmp_path_factory: pytest.TempPathFactory,
                                                          steps: list[str]) -> None:
    """Any order of writing (the file made writable first, the writer left open), closing
    the writer (a checkpoint), making the file read-only again (the writer closed first) and
    reading: the reader opened on the locked file counts every message stored."""
    db = fill(tmp_path_factory.mktemp("steps") / "m.db")
    undo: list[str] | None = lock(db)
    writer: Memory | None = None
    stored = 2
    reader = memory(f"sqlite:///{db}?mode=ro")
    try:
        for step in steps:
            if step == "write":
                if undo is not None:
                    _unlock(undo)
                    undo = None
                writer = writer or memory(db)
                writer.add_message("s", "user", f"note {stored}", at=f"2024-04-01T10:{stored:02d}:00Z")
                stored += 1
            elif step in ("close", "lock") and writer is not None:
                writer.close()
                writer = None
            if step == "lock" and undo is None:
                undo = lock(db)
            assert _count(reader) == stored, (steps, step)
    finally:
        reader.close()
        if writer is not None:
            writer.close()
        if undo is not None:
            _unlock(undo)
        shutil.rmtree(db.parent, ignore_errors=True)


_CRASH = """
import os, sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA journal_mode = DELETE")
con.execute("PRAGMA cache_size = 2")
con.execute("BEGIN")
con.execute("DELETE FROM messages")
con.executemany("INSERT INTO kv_probe VALUES (?)", [("x" * 900,)] * 3000)
os._exit(9)  # killed in the middle of the transaction: its pages to restore in -journal
"""


@pytest.mark.parametrize("locked_part", ["file", "folder"])
def test_a_file_with_a_hot_journal_is_not_read_as_it_is(tmp_path: Path, locked_part: str) -> None:
    """A memlane file taken out of WAL mode (``PRAGMA journal_mode = DELETE``) whose writer
    died in a transaction: its ``-journal`` holds the pages the transaction overwrote; the
    file, or its folder, then made read-only. Read
    ``immutable`` it gave the half-written transaction's messages (none) without an error;
    now it is read as SQLite reads a file with a hot journal (this process may not roll it
    back: an error), never the torn rows."""
    import sqlite3
    import sys

    from memlane.errors import StoreError

    db = fill(tmp_path / "m.db")
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE kv_probe (v TEXT)")
    con.commit()
    con.close()
    subprocess.run([sys.executable, "-c", _CRASH, str(db)], check=False)
    journal = Path(f"{db}-journal")
    assert journal.stat().st_size > 0
    undo = lock(db if locked_part == "file" else db.parent)  # (a folder: session 29's case)
    try:
        try:
            with memory(db) as reader:
                count = _count(reader)
        except StoreError as e:  # refused: a process that may write rolls the journal back
            assert "m.db-journal" in str(e) and "nothing was read" in str(e), str(e)
            return
        assert count == 2
    finally:
        _unlock(undo)


def test_a_thread_first_reading_after_the_change_sees_it(locked: tuple[Path, list[str]]) -> None:
    """The change comes before a thread's first statement (a service's new worker thread):
    that thread's connection is checked against the file as it was when ``immutable`` was
    judged, not as the thread found it (then it read immutable a file being written)."""
    from concurrent.futures import ThreadPoolExecutor

    db, state = locked
    reader = memory(db)
    try:
        assert _count(reader) == 2
        _unlock(state[0])
        writer = _write(db, 4, 0)
        try:
            with ThreadPoolExecutor(1) as pool:
                assert pool.submit(_count, reader).result() == 6
        finally:
            writer.close()
    finally:
        reader.close()


OTHER_USER = """
import os, sys, tempfile
from memlane.testing import memory
db = sys.argv[1]
with tempfile.TemporaryDirectory() as scratch, memory(os.path.join(scratch, "w.db")) as m:
    m.add_message("s", "user", "warm", at="2024-01-01T10:00:00Z")
    m.stats()  # every module a read needs, imported (read after the uid changes)
import importlib.readers, encodings.idna  # noqa: E401,F401
os.setgid(65534)
os.setuid(65534)
reader = memory(db)
print(reader.stats()["messages"], flush=True)
sys.stdin.readline()  # the owner writes meanwhile
print(reader.stats()["messages"], flush=True)
reader.close()
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="drops to another user (uid 65534) as root")
def test_a_reader_in_a_folder_it_may_not_write_sees_the_owners_writes() -> None:
    """Session 29's case: another user's file in a folder this user may not write is read
    ``immutable`` (SQLite could not make the ``-shm``); its owner then writes it. The reader
    read it as it was (1 message of 4 while the owner's writer was open); now it reads
    through the ``-wal`` and ``-shm`` the owner made."""
    import sys
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="rev37-"))
    folder.chmod(0o755)  # the reader may enter, not make files
    db = folder / "m.db"
    try:
        with memory(db) as mem:
            mem.add_message("s", "user", "one", at="2024-03-02T10:00:00Z")
        child = subprocess.Popen([sys.executable, "-c", OTHER_USER, str(db)], text=True,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE,
                                 env={**os.environ, "MEMLANE_INDEXING_JOBS": "0"})
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().strip() == "1"
        writer = _write(db, 3, 0)
        try:
            child.stdin.write("go\n")
            child.stdin.flush()
            assert child.stdout.readline().strip() == "4", child.stderr.read() if child.stderr else ""
        finally:
            writer.close()
            _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_cursor_being_read_when_the_file_changes_reads_on(locked: tuple[Path, list[str]]) -> None:
    """The connection opened again does not close the old one under a cursor being read
    (a loop over rows that runs statements of its own); ``close`` closes both."""
    import sqlite3

    db, state = locked
    reader = memory(db)
    try:
        database = reader.store.db
        cursor = database.execute("SELECT id FROM messages ORDER BY id")
        assert cursor.fetchone() is not None
        old = database.conn
        _unlock(state[0])
        writer = _write(db, 2, 0)
        try:
            assert _count(reader) == 4  # (a statement: opened again)
            assert database.conn is not old
            assert len(cursor.fetchall()) == 1  # the old snapshot's second row, read on
        finally:
            writer.close()
    finally:
        reader.close()
    with pytest.raises(sqlite3.ProgrammingError):
        old.execute("SELECT 1")
