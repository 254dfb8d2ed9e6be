"""A SQLite file open for writing whose ``-wal`` alone is then made unwritable (session 40,
rev40). Session 39's ``write_stamp`` leaves the ``-wal``'s change time out (every write
moves it), so ``chattr +i`` or an ACL on the ``-wal`` alone was not seen: each write
failed on SQLite's "disk I/O error" and the database stayed writable for ``read_only``
(the writes a read makes were tried and failed with it). Now a read or write error on a
file open for writing asks the judgment again whatever the stamp says: the write is
refused as ``StoreError.read_only`` naming the file, nothing of it is stored, reads go on,
and once the ``-wal`` may be written the next write is taken.

For root the lock is ``chattr +i`` (what the stamp does not see: these failed before);
for another user ``chmod 444``, which moves the ``-wal``'s mode (passes before too)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from memlane.errors import StoreError
from memlane.memory import Memory
from memlane.testing import memory
from tests.read_only_kit import filled_unlocked, locked

filled = pytest.fixture(filled_unlocked, name="filled")

WRITES: dict[str, Callable[[Memory, str], object]] = {
    "statement": lambda mem, k: mem.store.db.execute("INSERT INTO meta VALUES (?, 'v')", (k,)),
    "many": lambda mem, k: mem.store.db.executemany("INSERT INTO meta VALUES (?, 'v')", [(k,)]),
    "transaction": lambda mem, k: mem.add_message("s", "user", k),
}


def _stored(db: Path) -> set[str]:
    """The ``meta`` keys and message texts of ``db``, read by a connection of its own."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return ({r[0] for r in conn.execute("SELECT key FROM meta")}
                | {r[0] for r in conn.execute("SELECT text FROM messages")})
    finally:
        conn.close()


@pytest.mark.parametrize("how", sorted(WRITES))
def test_a_wal_locked_alone_refuses_writes_as_read_only(filled: Path, how: str) -> None:
    write = WRITES[how]
    with memory(filled) as mem:
        write(mem, "before")
        assert mem.store.read_only is False  # (judged: the stamp is the file's now)
        with locked(Path(f"{filled}-wal")):
            with pytest.raises(StoreError) as refused:
                write(mem, "refused")
            assert refused.value.read_only, str(refused.value)
            assert str(filled) in str(refused.value)
            assert mem.store.read_only is True
            assert int(mem.stats()["messages"]) >= 2  # reads go on
            with pytest.raises(StoreError) as again:
                write(mem, "refused again")
            assert again.value.read_only
        write(mem, "after")  # judged again: taken
        assert mem.store.read_only is False
    stored = _stored(filled)
    assert {"before", "after"} <= stored and not {"refused", "refused again"} & stored
