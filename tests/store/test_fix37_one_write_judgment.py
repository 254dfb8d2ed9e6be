"""One judgment of "may this SQLite database be written" (session 37, fix37): the CLI's
refusal of a writing command (``cli_common.WRITES``) and the store's opening
(``Database.read_only``) both ask ``store.sqlite.db.opens_read_only``. They were two
copies, and the CLI's left out ``?mode=ro``: ``memlane index --db
'sqlite:///m.db?mode=ro'`` opened the file, which made a ``-wal`` and a ``-shm`` beside
it, and was refused only then. Over every file, folder, ``-wal`` and ``-shm`` this process
may or may not write, a missing file and a folder given as the file, named by path, by
``?mode=ro`` or through a symbolic link: ``memlane add`` (in process) writes exactly when
the store opens the file to write, is refused as read-only exactly when the store opens it
read-only (the folder as it was: no file made), and fails in the store's words when the
store refuses to open it."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.errors import MemlaneError
from memlane.serve.cli import cli
from memlane.store import parse_db_url
from memlane.store.sqlite.db import Database
from memlane.testing import memory
from tests.read_only_kit import digest, fill, lock, locked

FILES = ["writable", "locked", "missing", "folder"]
FOLDERS = ["writable", "locked"]
SIDES = ["none", "writable", "locked"]  # the -wal (empty) and the -shm beside the file
HOW = ["path", "mode_ro", "link"]


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fill(tmp_path_factory.mktemp("filled") / "m.db")


@contextmanager
def _case(filled: Path, top: Path, file: str, folder: str, wal: str, shm: str,
          how: str) -> Iterator[str]:
    """The case made under ``top`` (emptied first); its database setting; locks undone after."""
    shutil.rmtree(top, ignore_errors=True)
    data = top / "data"
    data.mkdir(parents=True)
    db = data / "m.db"
    if file == "folder":
        db.mkdir()
    elif file != "missing":
        shutil.copy(filled, db)
    locked = [db] if file == "locked" else []
    for end, state in (("wal", wal), ("shm", shm)):
        if state != "none":
            side = data / f"m.db-{end}"
            side.write_bytes(b"")
            locked += [side] if state == "locked" else []
    locked += [data] if folder == "locked" else []
    setting = str(db)
    if how == "mode_ro":
        setting = f"sqlite:///{db}?mode=ro"
    elif how == "link":  # a link, in a folder this process writes, to the file
        (top / "links").mkdir()
        (top / "links" / "m.db").symlink_to(db)
        setting = str(top / "links" / "m.db")
    undo: list[list[str]] = []
    try:
        for target in locked:
            undo.append(lock(target))
        yield setting
    finally:
        for command in reversed(undo):
            subprocess.run(command, check=True)


def _store(setting: str) -> tuple[str, str]:
    """What the store does opening ``setting``: ``("write", "")``, ``("read-only", "")`` or
    ``("refused", its message)``."""
    url = parse_db_url(setting)
    try:
        db = Database(url.location, read_only=url.read_only)
    except MemlaneError as e:
        return "refused", str(e)
    try:
        return ("read-only" if db.read_only else "write"), ""
    finally:
        db.close()


@example("writable", "writable", "none", "none", "mode_ro")  # the CLI's copy left ?mode=ro out
@example("writable", "writable", "none", "locked", "path")  # a -shm another user's reader made
@example("writable", "writable", "locked", "none", "path")
@example("writable", "locked", "writable", "writable", "link")  # the sides beside the target
@example("locked", "locked", "none", "none", "path")
@example("writable", "locked", "none", "none", "path")
@example("missing", "locked", "none", "none", "path")
@example("folder", "writable", "none", "none", "path")
@given(file=st.sampled_from(FILES), folder=st.sampled_from(FOLDERS), wal=st.sampled_from(SIDES),
       shm=st.sampled_from(SIDES), how=st.sampled_from(HOW))
@settings(max_examples=25, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_cli_refuses_a_write_exactly_when_the_store_opens_read_only(
        filled: Path, tmp_path: Path, file: str, folder: str, wal: str, shm: str,
        how: str) -> None:
    top = tmp_path / "case"
    with _case(filled, top, file, folder, wal, shm, how) as setting:
        judged, why = _store(setting)
    with _case(filled, top, file, folder, wal, shm, how) as setting:
        before = digest(top)
        res = CliRunner().invoke(cli, ["--db", setting, "add", "--scope", "s", "one more",
                                       "--json"])
        after = digest(top)
    said = json.loads(res.stdout)
    if judged == "write":
        assert res.exit_code == 0 and said["text"] == "one more", said
        return
    assert res.exit_code == 1 and after == before, said  # nothing made, nothing written
    error = said["error"]
    if judged == "read-only":
        assert error["code"] == "forbidden" and error["field"] == "--db", error
        assert error["message"] == (f"db: {Path(setting.removeprefix('sqlite:///').removesuffix('?mode=ro'))} "
                                    "is read-only for this process (the file, its folder or its "
                                    "mount, or ?mode=ro): `memlane add` writes to it; nothing "
                                    "was written"), error
    elif file in ("missing", "folder"):  # refused by the store before any judgment: its words
        assert error["code"] != "forbidden" and error["message"] == "--db" + why.removeprefix("db"), (why, error)
    else:  # judged read-only, but SQLite cannot open it (a -shm, no -wal, in a locked folder)
        assert error["code"] == "forbidden" and "unable to open" in why, (why, error)


def test_a_link_to_a_file_whose_wal_holds_writes_reads_them(filled: Path, tmp_path: Path) -> None:
    """SQLite keeps a linked file's ``-wal`` and ``-shm`` beside the file the link names:
    the store looked for them beside the link, found none, and read the file ``immutable``,
    without the writes in its ``-wal`` (a database in a folder this process may not write,
    reached by a link from one it may)."""
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(filled, data / "m.db")
    writer = sqlite3.connect(data / "m.db")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("SELECT count(*) FROM sqlite_master").fetchone()  # holds the -wal open
    with memory(data / "m.db") as mem:
        mem.add_message("s", "user", "the tram to Belem was late", at="2024-05-02T10:00:00Z")
        held = mem.stats()["messages"]
    assert (data / "m.db-wal").stat().st_size > 0
    (tmp_path / "links").mkdir()
    link = tmp_path / "links" / "m.db"
    link.symlink_to(data / "m.db")
    try:
        with locked(data), memory(link) as mem:
            assert mem.stats()["messages"] == held
    finally:
        writer.close()
