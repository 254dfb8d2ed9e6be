"""A single statement outside a transaction, on a SQLite file open for writing and then
made read-only (session 39, rev39): fix38 judged the file again before each write
transaction (``Database.atomic``) alone, so a write sent as one statement in autocommit
(``Database.execute``, ``executemany``, a caller's own use of ``Database.conn``) was still
taken into the file's ``-wal``, which stayed writable. Now such a statement asks the
judgment too, and once the file is judged read-only every thread's connection refuses
writes from its next statement (SQLite's ``query_only``): the write is refused as
``StoreError.read_only`` and nothing is stored; reads, and a statement that writes
nothing (``CREATE TABLE IF NOT EXISTS`` of a table that is there), go on; once the file
may be written again the statement is taken."""

from __future__ import annotations

import sqlite3
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from memlane.errors import StoreError
from memlane.store.sqlite.db import Database
from memlane.testing import memory
from tests.read_only_kit import filled_unlocked, lock

filled = pytest.fixture(filled_unlocked, name="filled")


WRITES: dict[str, Callable[[Database, str], object]] = {
    "insert": lambda db, k: db.execute("INSERT INTO meta VALUES (?, 'v')", (k,)),
    "commented": lambda db, k: db.execute("-- a note\n/* and another */ REPLACE INTO meta"
                                          " VALUES (?, 'v')", (k,)),
    "with": lambda db, k: db.execute("WITH x(k) AS (SELECT ?) INSERT INTO meta SELECT k, 'v'"
                                     " FROM x", (k,)),
    "many": lambda db, k: db.executemany("INSERT INTO meta VALUES (?, 'v')", [(k,)]),
}


def _keys(db: Path) -> set[str]:
    """The ``meta`` keys of ``db`` read by a reader of its own (``?mode=ro``)."""
    with memory(f"sqlite:///{db}?mode=ro") as reader:
        return {r[0] for r in reader.store.db.execute("SELECT key FROM meta")}


@pytest.mark.parametrize("how", sorted(WRITES))
def test_a_single_statement_after_the_file_was_made_read_only_is_refused(
        filled: Path, how: str) -> None:
    write = WRITES[how]
    with memory(filled) as mem:
        db: Database = mem.store.db
        write(db, "before")
        undo = lock(filled)
        with pytest.raises(StoreError) as refused:
            write(db, "refused")
        assert refused.value.read_only, str(refused.value)
        assert str(filled) in str(refused.value)
        assert mem.store.read_only
        assert int(mem.stats()["messages"]) == 2  # reads go on
        db.check_schema()  # CREATE TABLE IF NOT EXISTS schema_migrations writes nothing
        assert _keys(filled) >= {"before"} and "refused" not in _keys(filled)
        subprocess.run(undo, check=True)
        write(db, "after")  # judged again: taken
        assert not mem.store.read_only
    keys = _keys(filled)
    assert {"before", "after"} <= keys and "refused" not in keys


def test_every_thread_refuses_writes_once_the_file_is_judged_read_only(filled: Path) -> None:
    """A thread whose connection was opened for writing before the file was locked, and a
    caller's own statement on ``Database.conn``: refused at their next statement."""
    with memory(filled) as mem:
        db: Database = mem.store.db
        got: dict[str, object] = {}
        opened, locked, done = threading.Event(), threading.Event(), threading.Event()

        def other() -> None:
            db.execute("SELECT 1").fetchall()  # its connection, opened for writing
            opened.set()
            locked.wait(60)
            try:
                db.conn.execute("INSERT INTO meta VALUES ('other', 'v')")
                got["other"] = "taken"
            except sqlite3.Error as e:
                got["other"] = getattr(e, "sqlite_errorcode", None)
            got["read"] = db.execute("SELECT count(*) FROM messages").fetchone()[0]
            done.set()

        thread = threading.Thread(target=other)
        thread.start()
        assert opened.wait(60)
        undo = lock(filled)
        try:
            assert mem.store.read_only  # judged read-only here, in this thread
            with pytest.raises(sqlite3.OperationalError):
                db.conn.execute("INSERT INTO meta VALUES ('mine', 'v')")
            locked.set()
            assert done.wait(60)
            thread.join(60)
        finally:
            locked.set()  # (the thread ends, whatever failed)
            subprocess.run(undo, check=True)
        assert got == {"other": 8, "read": 2}  # SQLITE_READONLY, and reads answered
    assert not {"other", "mine"} & _keys(filled)
