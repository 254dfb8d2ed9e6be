"""A read of a SQLite database this process may not write leaves its folder as it was
(session 36, fix36b): ``memlane search``, ``stats``, ``sessions list``, the library's
read-only opening and the service, on a ``chmod 444`` file (for root, who writes any file,
``chattr +i``) in a folder it may write, left an empty ``-wal`` and a ``-shm`` beside it
(SQLite makes them to read a WAL database and only a writer deletes them). A file holding
all of itself that no process may write is now opened ``immutable``; a file with writes in
its ``-wal`` is read through the ``-wal`` and ``-shm`` that are there, its rows all seen."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from memlane.serve.http import create_app
from memlane.store.sqlite.transfer import SqliteTransfer
from memlane.testing import memory
from memlane.testing.http import serving
from tests.commands import finish, memlane
from tests.read_only_kit import digest, fill, locked, locked_copy, names


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = fill(tmp_path_factory.mktemp("filled") / "m.db")
    assert names(db.parent) == ["key", "m.db"]
    return db


@pytest.fixture
def read_only(filled: Path, tmp_path: Path) -> Iterator[Path]:
    with locked_copy(filled, tmp_path / "data" / "m.db") as db:
        yield db


def _run(db: Path, *args: str) -> str:
    proc = memlane("--db", str(db), *args, env={**os.environ, "MEMLANE_INDEXING_JOBS": "0"},
                   stdin=subprocess.DEVNULL)
    out, err = finish(proc, timeout=120)
    assert proc.returncode == 0, (args, err)
    return str(out)


@pytest.mark.parametrize("args", [("search", "Lisbon"), ("stats",), ("sessions", "list"),
                                  ("export",), ("migrate", "--show")], ids=" ".join)
def test_a_command_reading_a_read_only_file_leaves_the_folder_as_it_was(
        read_only: Path, args: tuple[str, ...]) -> None:
    before = digest(read_only.parent)
    out = _run(read_only, *args)
    if args[0] == "search":
        assert "Lisbon" in out, out
    assert digest(read_only.parent) == before


@pytest.mark.parametrize("url", ["{db}", "sqlite:///{db}?mode=ro"])
def test_the_library_and_the_service_reading_it_leave_the_folder_as_it_was(
        read_only: Path, filled: Path, url: str) -> None:
    before = digest(read_only.parent)
    key = (filled.parent / "key").read_text()
    with memory(url.format(db=read_only)) as mem:
        assert mem.search("Lisbon", scope="s")
        with serving(create_app(mem, worker=False)) as served, httpx.Client(
                base_url=served, timeout=30.0,
                headers={"Authorization": f"Bearer {key}"}) as http:
            assert http.post("/v1/search", json={"query": "Lisbon", "scope": "s"}).json()["hits"]
    assert SqliteTransfer.peek_migrations(read_only)["applied"]
    assert digest(read_only.parent) == before


def test_a_file_with_writes_in_its_wal_is_read_whole(filled: Path, tmp_path: Path) -> None:
    """Not ``immutable`` there: the rows in the ``-wal`` are read through the ``-shm``
    (both copied from a database a writer held open), and no other file is made."""
    live = tmp_path / "live"
    live.mkdir()
    shutil.copy(filled, live / "m.db")
    writer = sqlite3.connect(live / "m.db")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("SELECT count(*) FROM sqlite_master").fetchone()  # holds the -wal open
    with memory(live / "m.db") as mem:
        mem.add_message("s", "user", "the tram to Belem was late", at="2024-05-02T10:00:00Z")
    data = tmp_path / "data"
    data.mkdir()
    for suffix in ("", "-wal", "-shm"):
        shutil.copy(live / f"m.db{suffix}", data / f"m.db{suffix}")
    writer.close()
    assert (data / "m.db-wal").stat().st_size > 0
    with locked(data / "m.db"):
        there = names(data)
        with memory(data / "m.db") as mem:
            assert mem.store.read_only and mem.stats()["messages"] == 3
        assert names(data) == there


OTHER_USER = r"""
import json, os, sys
from memlane.testing import memory

folder, mode, owner = sys.argv[1], int(sys.argv[2], 8), sys.argv[3]
db = os.path.join(folder, "m.db")
with memory(db) as m:
    m.add_message("alice", "user", "the espresso machine is broken", at="2024-05-20T10:00:00Z")
    m.close_session("alice")
    m.index()
    m.search("espresso machine", scope="alice")  # every module a read needs, imported
import importlib.readers, encodings.idna  # noqa: E401,F401  (read after the uid changes)
os.chmod(db, mode)
os.chown(folder, 65534, 65534)  # the folder the reader's: it may make files there
if owner == "reader":
    os.chown(db, 65534, 65534)
os.setgid(65534)
os.setuid(65534)
with memory(db) as m:
    found = bool(m.search("espresso machine", scope="alice"))
print(json.dumps({"found": found, "files": sorted(os.listdir(folder))}))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="drops to another user (uid 65534) as root")
@pytest.mark.parametrize(("mode", "owner", "files"), [
    ("444", "reader", ["m.db"]),  # no one may write it: immutable, nothing made
    ("644", "root", ["m.db", "m.db-shm", "m.db-wal"]),  # its owner may: SQLite's -shm (left)
])
def test_a_user_reading_a_file_it_may_not_write(mode: str, owner: str, files: list[str]) -> None:
    """The file's mode (not ``chattr``) decides, for a user other than root; a file another
    process may write is read beside the ``-shm`` SQLite makes (docs/hardening.md: left)."""
    import json
    import sys
    import tempfile

    folder = tempfile.mkdtemp(prefix="fix36b-")
    try:
        got = subprocess.run([sys.executable, "-c", OTHER_USER, folder, mode, owner],
                             capture_output=True, text=True, timeout=120,
                             env={**os.environ, "MEMLANE_INDEXING_JOBS": "0"})
        assert got.returncode == 0, got.stderr
        assert json.loads(got.stdout) == {"found": True, "files": files}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
