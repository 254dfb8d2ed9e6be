"""What the read-only tests share (session 36: fix36's writing commands, fix36b's reads):
a small filled database with a service key beside it, a folder's digest and names, and a
file or folder made unwritable for this user's processes."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from memlane.serve.keys import create_key
from memlane.testing import memory


def digest(top: Path) -> dict[str, str]:
    """Every entry under ``top`` (a database's folder: the file and what lies beside it) by
    its name relative to ``top``: a file's SHA-256, ``dir`` for a folder, ``-> target`` for
    a symbolic link (not followed). Equal before and after: nothing made, nothing written."""
    seen = {}
    for entry in sorted(top.rglob("*")):
        name = str(entry.relative_to(top))
        seen[name] = (f"-> {os.readlink(entry)}" if entry.is_symlink() else "dir"
                      if entry.is_dir() else hashlib.sha256(entry.read_bytes()).hexdigest())
    return seen


def names(folder: Path) -> list[str]:
    """The names in ``folder`` (a database's folder), sorted: which side files are there."""
    return sorted(p.name for p in folder.iterdir())


def fill(db: Path, *, more: bool = False) -> Path:
    """``db`` with one indexed session of scope ``s`` and a key for ``s`` in ``key`` beside
    it; ``more``: also a fact and a message after the index."""
    with memory(db) as mem:
        mem.add_message("s", "user", "I moved to Lisbon in March", at="2024-03-02T10:00:00Z")
        mem.add_message("s", "assistant", "Lisbon is lovely in spring", at="2024-03-02T10:01:00Z")
        mem.close_session("s")
        mem.index("2024-06-01T00:00:00Z")
        if more:
            mem.add_fact("user", "lives in", "Lisbon", scope="s")
            mem.add_message("s", "user", "the tram was late again", at="2024-05-02T10:00:00Z")
        (db.parent / "key").write_text(create_key(mem.store, "s").key)
    return db


def filled_unlocked(tmp_path: Path) -> Iterator[Path]:
    """A filled database (``fill``) in the test's folder, every lock on it and beside it
    undone when the test ends (``unlock_all``): a test module's fixture, made so:
    ``filled = pytest.fixture(filled_unlocked, name="filled")``."""
    db = fill(tmp_path / "m.db")
    try:
        yield db
    finally:
        unlock_all(db.parent)


def lock(target: Path) -> list[str]:
    """Make ``target`` (a file, or a folder) unwritable for every process of this user:
    ``chmod 444`` (a folder ``555``), or, for root, who writes any file, ``chattr +i``
    (skips the test where that is not available); the command that undoes it."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None or subprocess.run(
                ["chattr", "+i", str(target)], capture_output=True).returncode != 0:
            pytest.skip("root writes any file, and chattr +i is not available here")
        return ["chattr", "-i", str(target)]
    target.chmod(0o555 if target.is_dir() else 0o444)
    return ["chmod", "u+w", str(target)]



@contextmanager
def locked(target: Path) -> Iterator[Path]:
    """``target`` (a file, or a folder) made unwritable (``lock``) inside the block, and
    writable again on the way out, however the block ends."""
    undo = lock(target)
    try:
        yield target
    finally:
        subprocess.run(undo, check=True)


@contextmanager
def locked_copy(source: Path, db: Path) -> Iterator[Path]:
    """A copy of the database file ``source`` at ``db`` (its folder made, which must not be
    there yet), ``locked`` inside the block."""
    db.parent.mkdir()
    shutil.copy(source, db)
    with locked(db):
        yield db


def replace_locked(filled: Path, db: Path, undo: list[list[str]]) -> None:
    """A snapshot, ``filled``, renamed over ``db``, a file ``lock`` made unwritable: unlocked
    (``undo[0]``), replaced, locked again (``undo[0]`` now undoes the new lock)."""
    subprocess.run(undo[0], check=True)
    new = db.with_name(f"{db.name}.new")
    shutil.copy(filled, new)
    os.replace(new, db)
    undo[0] = lock(db)

def unlock_all(folder: Path) -> None:
    """Undo ``lock`` on ``folder`` and everything in it (a test's clean-up)."""
    for path in (folder, *folder.iterdir()):
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], capture_output=True)
        else:
            path.chmod(0o755 if path.is_dir() else 0o644)


def messages_in(db: Path) -> int:
    """How many messages ``db`` holds, read by a reader of its own (``?mode=ro``)."""
    with memory(f"sqlite:///{db}?mode=ro") as reader:
        return int(reader.stats()["messages"])
