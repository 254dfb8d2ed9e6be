"""A SQLite database whose path is not UTF-8 (Linux file names are bytes; Python holds the
bytes it cannot decode as lone surrogates) is opened by every command (session 37, rev37).
Session 36 built the read-only URI of the check every command makes that a file is
memlane's, and of ``peek_migrations``, with ``urllib.parse.quote(str(path))`` (fix36b's
``read_only_uri``), which cannot encode a surrogate: ``memlane stats`` (any command on an
existing file, ``memlane copy`` from one) ended on ``UnicodeEncodeError: 'utf-8' codec
can't encode character '\\udcff'``, where ``Path.as_uri()`` had quoted the path's bytes; a
read-only file's connection had the same defect since session 22. The URI now quotes the
path's bytes (``os.fsencode``)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.store.sqlite.db import read_only_uri
from memlane.store.sqlite.transfer import SqliteTransfer
from memlane.testing import memory
from tests.commands import finish, memlane
from tests.read_only_kit import locked

pytestmark = pytest.mark.skipif(os.name != "posix" or os.fsencode("\udcff") != b"\xff",
                                reason="file names of bytes, decoded with surrogateescape")

# a file name of any bytes but "/" and NUL, with at least one that is not UTF-8
NAMES = st.tuples(st.binary(max_size=8), st.sampled_from([b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\x80"]),
                  st.binary(max_size=8)).map(lambda p: (p[0] + p[1] + p[2]).replace(b"/", b"_")
                                             .replace(b"\0", b"_"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES, folder=st.booleans())
def test_a_path_of_any_bytes_is_opened_read_only(tmp_path_factory: pytest.TempPathFactory,
                                                 name: bytes, folder: bool) -> None:
    base = tmp_path_factory.mktemp("bytes")
    where = base / os.fsdecode(name) if folder else base
    where.mkdir(exist_ok=True)
    db = where / os.fsdecode(name + b".db" if name.strip(b".") else b"x\xff.db")
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE t (x)")
    con.execute("INSERT INTO t VALUES (42)")
    con.commit()
    con.close()
    read = sqlite3.connect(read_only_uri(db), uri=True)
    try:
        assert read.execute("SELECT x FROM t").fetchall() == [(42,)]
    finally:
        read.close()


@pytest.fixture
def odd(tmp_path: Path) -> Path:
    folder = tmp_path / os.fsdecode(b"f\xffolder")
    folder.mkdir()
    db = folder / os.fsdecode(b"m\xff.db")
    with memory(db) as mem:
        mem.add_message("s", "user", "I moved to Lisbon in March", at="2024-03-02T10:00:00Z")
    return db


def test_every_command_opens_it(odd: Path) -> None:
    env = {**os.environ, "MEMLANE_INDEXING_JOBS": "0"}
    for args in (("stats",), ("sessions", "list", "--scope", "s"),
                 ("add", "--scope", "s", "--role", "user", "and then to Porto")):
        proc = memlane("--db", str(odd), *args,
                       env=env, stdin=subprocess.DEVNULL)
        out, err = finish(proc, timeout=120)
        assert proc.returncode == 0, (args, err)
        assert "Traceback" not in err
    with memory(odd) as mem:
        assert mem.stats()["messages"] == 2
    assert SqliteTransfer.peek_migrations(odd)["applied"]


def test_a_read_only_file_of_that_path_is_read(odd: Path) -> None:
    with locked(odd), memory(odd) as mem:
        assert mem.store.db.read_only
        assert mem.stats()["messages"] == 1
