"""Where references are not counted, or not exactly, a retired connection is never closed
under a cursor being read (session 39, rev39). rev38 closes a retired connection when
``sys.getrefcount`` says nothing but its list holds it, against a count measured once
(``db._references_alone``). PyPy has no ``sys.getrefcount``: none is closed before
``Database.close``, as before session 38. A Python whose count does not rise with a use
(a count that is not exact) closed every retired connection, the one under a cursor being
read too; such a count is now taken as none. Both are made here by replacing
``sys.getrefcount`` for the test (the Python, not memlane, is what differs)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from memlane.store.sqlite import db as sqlite_db
from memlane.testing import memory
from tests.read_only_kit import fill, lock, replace_locked


@pytest.fixture
def measured_again() -> Iterator[None]:
    """``_references_alone`` measured again in the test, and again after it."""
    sqlite_db._references_alone.cache_clear()
    try:
        yield
    finally:
        sqlite_db._references_alone.cache_clear()


@pytest.mark.parametrize("python", ["no count", "count that never rises"])
def test_a_cursor_being_read_reads_on(python: str, tmp_path: Path, measured_again: None,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "filled").mkdir()
    filled = fill(tmp_path / "filled" / "m.db")
    db = tmp_path / "live" / "m.db"
    db.parent.mkdir()
    shutil.copy(filled, db)
    undo = [lock(db)]
    try:
        if python == "no count":
            monkeypatch.delattr(sys, "getrefcount")
        else:
            monkeypatch.setattr(sys, "getrefcount", lambda _: 1)
        with memory(db) as reader:
            assert reader.store.db._immutable
            cursor = reader.store.db.execute(
                "SELECT id FROM messages ORDER BY id")
            assert cursor.fetchone() is not None
            for _ in range(3):
                replace_locked(filled, db, undo)
                assert reader.stats()["messages"] == 2
            assert len(cursor.fetchall()) == 1  # its file's second row, read on
            assert sqlite_db._references_alone() is None
    finally:
        subprocess.run(undo[0], check=True)
