"""A reader that opens its file again keeps no connection nothing uses (session 38, rev38).
Session 37 (rev37) made a connection reading a file ``immutable`` open it again when the
file changed, and kept the old connection open until ``Database.close`` (a cursor of it
might still be read). A long-lived reader (``memlane serve``, ``mcp``, a ``Memory``) of a
read-only file replaced now and then (a snapshot renamed over it, as a restore or a
replica's refresh does; or written again and again by root, whom its ``444`` does not
stop) held one more descriptor for each change and each thread: the replaced files'
space was never freed, and the process ran out of descriptors. A retired connection
nothing refers to is now closed at the next change; one whose cursor is still being read
stays open until that cursor is done."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.testing import memory
from tests.read_only_kit import fill, lock, replace_locked

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(),
                                reason="counts this process's descriptors in /proc/self/fd")


def _descriptors(folder: Path) -> int:
    """How many descriptors this process holds on files of ``folder`` (deleted ones too)."""
    held = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        held += target.startswith(f"{folder}/")
    return held


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fill(tmp_path_factory.mktemp("filled") / "m.db")


@pytest.fixture
def live(filled: Path, tmp_path: Path) -> Iterator[tuple[Path, list[list[str]]]]:
    """A copy of ``filled`` no process may write, in its own folder; the undo of its lock."""
    db = tmp_path / "live" / "m.db"
    db.parent.mkdir()
    shutil.copy(filled, db)
    undo = [lock(db)]
    try:
        yield db, undo
    finally:
        subprocess.run(undo[0], check=True)


@settings(max_examples=8, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.integers(min_value=2, max_value=12), threads=st.integers(min_value=1, max_value=3))
def test_a_reader_of_a_file_replaced_again_and_again_holds_no_more_descriptors(
        filled: Path, tmp_path_factory: pytest.TempPathFactory, changes: int,
        threads: int) -> None:
    db = tmp_path_factory.mktemp("case") / "m.db"
    shutil.copy(filled, db)
    undo = [lock(db)]
    try:
        with memory(db) as reader:
            def read() -> None:
                assert reader.stats()["messages"] == 2

            def read_in_threads() -> None:
                workers = [threading.Thread(target=read) for _ in range(threads - 1)]
                for w in workers:
                    w.start()
                read()
                for w in workers:
                    w.join()

            assert reader.store.db._immutable  # (the case: read immutable, checked each statement)
            read_in_threads()
            for _ in range(changes):
                replace_locked(filled, db, undo)
                read_in_threads()
            # the main thread's connection: the retired ones closed, the threads' with them
            assert _descriptors(db.parent) == 1, (changes, threads)
        assert _descriptors(db.parent) == 0
    finally:
        subprocess.run(undo[0], check=True)


def test_a_cursor_being_read_across_changes_reads_on(
        filled: Path, live: tuple[Path, list[list[str]]]) -> None:
    """A connection retired under a cursor stays open through later changes while the
    cursor is read, and is closed at the first change after it is done."""
    db, undo = live
    with memory(db) as reader:
        cursor = reader.store.db.execute("SELECT id FROM messages ORDER BY id")
        assert cursor.fetchone() is not None
        for _ in range(3):
            replace_locked(filled, db, undo)
            assert reader.stats()["messages"] == 2
        assert len(cursor.fetchall()) == 1  # its file's second row, read on
        assert _descriptors(db.parent) == 2  # the cursor's file (deleted) and the current one
        del cursor
        replace_locked(filled, db, undo)
        assert reader.stats()["messages"] == 2
        assert _descriptors(db.parent) == 1
