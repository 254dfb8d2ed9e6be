"""A SQLite file with a ``-shm`` and no ``-wal`` beside it, in a folder this process may not
write (session 38, fix38): it could not be read at all (``opening …: unable to open
database file``, through ``memlane search``, ``stats``, a library ``Memory``), as SQLite
reading through the ``-shm`` must make the ``-wal``. With no ``-wal`` the ``-shm`` indexes
nothing and the file holds all of itself (``settled``): it is read ``immutable``, and a
file another process is writing (its ``-wal`` there) is still read through the ``-wal``."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.errors import MemlaneError, StoreError
from memlane.testing import memory
from tests.commands import end, finish, memlane, start
from tests.read_only_kit import digest, fill, lock

# A writer in another process: stores one message, says so, and holds the file open (its
# ``-wal`` not checkpointed) until its stdin closes.
WRITER = """
import sys
from memlane.testing import memory
with memory(sys.argv[1]) as mem:
    mem.add_message("s", "user", "the tram was late again", at="2024-05-02T10:00:00Z")
    print("written", flush=True)
    sys.stdin.read()
"""


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fill(tmp_path_factory.mktemp("filled") / "m.db")


@pytest.fixture
def locks(tmp_path: Path) -> Iterator[list[list[str]]]:
    """The commands that undo the test's locks, run (last first) when it ends."""
    undo: list[list[str]] = []
    try:
        yield undo
    finally:
        for command in reversed(undo):
            subprocess.run(command, check=True)


def _shm_alone(filled: Path, tmp_path: Path, shm: bytes) -> Path:
    db = tmp_path / "data" / "m.db"
    db.parent.mkdir()
    shutil.copy(filled, db)
    Path(f"{db}-shm").write_bytes(shm)
    return db


@contextmanager
def _writer(db: Path) -> Iterator[None]:
    proc = start([sys.executable, "-c", WRITER, str(db)], stdin=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "written\n"
        yield
        _, err = finish(proc, timeout=60)  # (its stdin closed: it closes the file)
        assert proc.returncode == 0, err
    finally:
        end(proc)


SHMS = {"empty": b"", "zeros": b"\0" * 32768}


@pytest.mark.parametrize("locked", ["file and folder", "folder"])
@pytest.mark.parametrize("shm", list(SHMS))
def test_the_library_reads_it(filled: Path, tmp_path: Path, locks: list[list[str]],
                              locked: str, shm: str) -> None:
    db = _shm_alone(filled, tmp_path, SHMS[shm])
    locks += [lock(db)] if locked == "file and folder" else []
    locks.append(lock(db.parent))
    before = digest(db.parent)
    with memory(db) as mem:
        assert mem.store.read_only
        assert int(mem.stats()["messages"]) == 2
        assert mem.search("Lisbon", scope="s")
        with pytest.raises(StoreError) as refused:
            mem.add_message("s", "user", "refused", at="2024-04-01T10:00:00Z")
        assert refused.value.read_only, str(refused.value)
    assert digest(db.parent) == before


@pytest.mark.parametrize("args", [("search", "Lisbon"), ("stats", "--json")], ids=" ".join)
def test_the_cli_reads_it(filled: Path, tmp_path: Path, locks: list[list[str]],
                          args: tuple[str, ...]) -> None:
    db = _shm_alone(filled, tmp_path, b"")
    locks += [lock(db), lock(db.parent)]
    proc = memlane("--db", str(db), *args, env={**os.environ, "MEMLANE_INDEXING_JOBS": "0"},
                   stdin=subprocess.DEVNULL)
    out, err = finish(proc, timeout=120)
    assert proc.returncode == 0, err
    assert ("Lisbon" in out) if args[0] == "search" else ('"messages": 2' in out), out


def test_a_file_being_written_is_read_through_its_wal(filled: Path, tmp_path: Path,
                                                        locks: list[list[str]]) -> None:
    """Another process holds the file open with a write in its ``-wal``; the folder is then
    made read-only: a reader asked read-only reads the write through the ``-wal``."""
    db = tmp_path / "data" / "m.db"
    db.parent.mkdir()
    shutil.copy(filled, db)
    with _writer(db):
        locks.append(lock(db.parent))
        assert Path(f"{db}-wal").stat().st_size > 0
        with memory(f"sqlite:///{db}?mode=ro") as reader:
            assert int(reader.stats()["messages"]) == 3


def test_a_reader_of_the_shm_alone_sees_a_writer_that_came_after(
        filled: Path, tmp_path: Path, locks: list[list[str]]) -> None:
    """Read ``immutable`` while the folder was locked; the folder made writable, another
    process writes and holds its ``-wal``: the reader's next statement reads through it."""
    db = _shm_alone(filled, tmp_path, b"")
    locks.append(lock(db.parent))
    with memory(f"sqlite:///{db}?mode=ro") as reader:
        assert int(reader.stats()["messages"]) == 2
        subprocess.run(locks.pop(), check=True)
        with _writer(db):
            assert Path(f"{db}-wal").stat().st_size > 0
            assert int(reader.stats()["messages"]) == 3


@pytest.fixture(scope="module")
def sides(filled: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a file (2 messages) as ``db``, and the ``-wal`` (a third) and
    ``-shm`` a writer held beside it as ``wal`` and ``shm``, copied while another
    connection kept them (not checkpointed)."""
    live = tmp_path_factory.mktemp("live") / "m.db"
    shutil.copy(filled, live)
    holder = sqlite3.connect(live)
    try:
        holder.execute("PRAGMA wal_autocheckpoint = 0")
        holder.execute("SELECT count(*) FROM sqlite_master").fetchone()
        with memory(live) as mem:
            mem.add_message("s", "user", "the tram was late again", at="2024-05-02T10:00:00Z")
        kept = tmp_path_factory.mktemp("sides")
        for end, name in (("", "db"), ("-wal", "wal"), ("-shm", "shm")):
            shutil.copy(f"{live}{end}", kept / name)
        return kept
    finally:
        holder.close()


@example(wal="none", shm="empty", file_locked=False, folder_locked=True)
@example(wal="none", shm="held", file_locked=True, folder_locked=True)
@example(wal="writes", shm="none", file_locked=False, folder_locked=True)
@given(wal=st.sampled_from(["none", "empty", "writes"]),
       shm=st.sampled_from(["none", "empty", "held"]),
       file_locked=st.booleans(), folder_locked=st.booleans())
@settings(max_examples=12, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_wal_and_shm_is_read_or_refused_clearly(
        sides: Path, tmp_path: Path, wal: str, shm: str, file_locked: bool,
        folder_locked: bool) -> None:
    """Over a ``-wal`` (none, empty, with a write) and a ``-shm`` (none, empty, a writer's),
    the file and its folder locked or not: the library reads every message the file and
    its ``-wal`` hold, or, only where SQLite cannot read the ``-wal``'s writes (no
    ``-shm``, and a folder it may not make one in), refuses saying so."""
    data = Path(tempfile.mkdtemp(dir=tmp_path))  # (an example may come twice)
    db = data / "m.db"
    shutil.copy(sides / "db", db)
    if wal != "none":
        Path(f"{db}-wal").write_bytes((sides / "wal").read_bytes() if wal == "writes" else b"")
    if shm != "none":
        Path(f"{db}-shm").write_bytes((sides / "shm").read_bytes() if shm == "held" else b"")
    undo = ([lock(db)] if file_locked else []) + ([lock(data)] if folder_locked else [])
    try:
        with memory(db) as mem:
            seen: int | str = int(mem.stats()["messages"])
    except MemlaneError as e:
        seen = str(e)
    finally:
        for command in reversed(undo):
            subprocess.run(command, check=True)
    if wal == "writes" and shm == "none" and folder_locked:
        assert isinstance(seen, str) and "has writes in m.db-wal not yet in the file" in seen
    else:
        assert seen == (3 if wal == "writes" else 2), seen
