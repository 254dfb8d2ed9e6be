"""Every command that writes, on a database this process may not write (session 36, fix36):
``memlane index``, ``gc``, ``add`` … ended on SQLite's "query failed: …: attempt to write a
readonly database", and ``compact``, ``backfill embeddings`` and ``worker`` with nothing to
do exited 0 saying they did it. Each is now refused before it starts, exit 1, naming the
file and that it is read-only (``--json``: code ``forbidden``, field ``--db``), the file as
it was; a write reaching the store otherwise (``summarize``'s confirmed store, the
service's writes) says the same, and the service answers 403, not a 503 to retry. The
commands run as real processes (``python -m memlane`` with this tree's ``memlane``), on a
file made read-only for them: ``chmod 444`` (its folder ``555``), or, for root, who writes
any file, ``chattr +i``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from memlane.serve.cli_common import WRITES
from memlane.serve.http import create_app
from memlane.testing import cli_commands, example_files, memory
from memlane.testing.http import serving
from tests.commands import finish, memlane
from tests.read_only_kit import digest, fill, lock

# every writing command, as run: its arguments (ids of the fixture's rows)
RUNS = {
    ("add",): ["add", "one more", "--scope", "s"],
    ("import",): ["import", str(example_files()[0])],
    ("index",): ["index"],
    ("gc",): ["gc"],
    ("compact",): ["compact"],
    ("forget",): ["forget", "--scope", "s", "--yes"],
    ("worker",): ["worker"],
    ("sessions", "close"): ["sessions", "close", "--scope", "s"],
    ("sessions", "forget"): ["sessions", "forget", "1", "--yes"],
    ("facts", "forget"): ["facts", "forget", "1"],
    ("keys", "create"): ["keys", "create", "--scopes", "s"],
    ("keys", "revoke"): ["keys", "revoke", "1"],
    ("backfill", "embeddings"): ["backfill", "embeddings"],
}
# a writing command's run that writes only when it says so
ALSO = {("summarize", "--yes"): ["summarize", "--scope", "s", "--last", "2", "--yes"]}
# the commands that read, or open their databases themselves, or serve (their writes: below)
READS = {("backfill",), ("bench",), ("copy",), ("export",), ("facts",), ("graph",), ("items",),
         ("keys",), ("mcp",), ("migrate",), ("pack",), ("packs",), ("search",), ("serve",),
         ("sessions",), ("stats",), ("summarize",), ("facts", "history"), ("facts", "list"),
         ("graph", "show"), ("items", "show"), ("keys", "list"), ("packs", "show"),
         ("sessions", "list"), ("sessions", "show"),
         *(("bench", b) for b in ("compare", "ingest", "locomo", "longmemeval", "serve",
                                  "summaries"))}  # (bench: databases of its own)


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fill(tmp_path_factory.mktemp("filled") / "m.db", more=True)


@pytest.fixture(params=["file", "folder"])
def read_only(request: pytest.FixtureRequest, filled: Path,
              tmp_path: Path) -> Iterator[Path]:
    """A copy of the filled database that this test's processes may not write: the file
    itself, or its folder (the file's own mode left writable)."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "m.db"
    shutil.copy(filled, db)
    undo = lock(db if request.param == "file" else folder)
    try:
        yield db
    finally:
        subprocess.run(undo, check=True)


def _run(db: Path, args: list[str]) -> tuple[int, str, str]:
    proc = memlane("--db", str(db), *args, env={**os.environ, "MEMLANE_INDEXING_JOBS": "0"},
                   stdin=subprocess.DEVNULL)
    out, err = finish(proc, timeout=120)
    return proc.returncode, out, err


def test_every_command_is_known_to_write_or_not() -> None:
    """A new command is sorted here (and, writing, into ``cli_common.WRITES``)."""
    paths = {path for path, _ in cli_commands(groups=True)}
    assert paths == set(WRITES) | READS, (sorted(paths - set(WRITES) - READS),
                                          sorted((set(WRITES) | READS) - paths))
    assert set(RUNS) == set(WRITES)


@pytest.mark.parametrize("command", [*RUNS, *ALSO], ids=" ".join)
def test_a_writing_command_on_a_read_only_database_is_refused_naming_it(
        read_only: Path, command: tuple[str, ...]) -> None:
    before = digest(read_only.parent)
    args = RUNS.get(command) or ALSO[command]
    code, out, err = _run(read_only, args)
    assert code == 1, (code, out, err)
    said = f"db: {read_only} is read-only for this process"
    assert said in err and "nothing was" in err and "Traceback" not in err, err
    assert "readonly database" not in err, err  # SQLite's words, no more
    code, out, _ = _run(read_only, ["--json", *args])
    error = json.loads(out)["error"]
    if error["field"] != "--json":  # (a command printing no data, ``worker``, takes none)
        assert code == 1 and error["code"] == "forbidden" and said in error["message"], out
        assert error["field"] == "--db", error
    assert digest(read_only.parent) == before


def test_the_reads_still_work(read_only: Path) -> None:
    for args in (["search", "Lisbon"], ["stats"], ["sessions", "list"], ["export"],
                 ["facts", "list", "--scope", "s"]):
        code, out, err = _run(read_only, args)
        assert code == 0, (args, err)
    code, out, _ = _run(read_only, ["search", "Lisbon", "--json"])
    assert json.loads(out)["hits"], out


def test_the_services_writes_are_a_403(read_only: Path, filled: Path) -> None:
    key = (filled.parent / "key").read_text()
    with memory(read_only) as mem, serving(create_app(mem, worker=False)) as url, \
            httpx.Client(base_url=url, timeout=30.0,
                         headers={"Authorization": f"Bearer {key}"}) as http:
        message = {"scope": "s", "role": "user", "text": "one more"}
        for route, body in (("/v1/messages", message),
                            ("/actions", {"kind": "memory.add", "input": message})):
            res = http.post(route, json=body)
            assert res.status_code == 403, res.text
            error = res.json()["error"]
            assert error["code"] == "forbidden" and f"db: {read_only} is read-only" in error[
                "message"], error
            assert "Retry-After" not in res.headers
        assert http.post("/v1/search", json={"query": "Lisbon", "scope": "s"}).json()["hits"]


def test_a_read_only_postgres_database_refuses_the_writing_commands(pg_url: str) -> None:
    """A standby or ``default_transaction_read_only`` (here): the same refusal, after the
    connection says it may not write (``store.read_only``); a write reaching the store is
    ``StoreError.read_only``, a 403 of the service."""
    psycopg = pytest.importorskip("psycopg")
    from click.testing import CliRunner

    from memlane.errors import StoreError
    from memlane.serve.cli import cli

    with memory(pg_url) as mem:
        mem.add_message("s", "user", "I moved to Lisbon in March", at="2024-03-02T10:00:00Z")
    name = pg_url.rsplit("/", 1)[1].split("?", 1)[0]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    for args in (["index"], ["add", "one more", "--scope", "s"], ["gc"]):
        got = CliRunner().invoke(cli, ["--db", pg_url, "--json", *args])
        error = json.loads(got.stdout)["error"]
        assert got.exit_code == 1 and error["code"] == "forbidden", got.output
        assert error["message"].startswith("db: the PostgreSQL database is read-only for this "
                                           "connection"), error
        assert f"`memlane {args[0]}` writes to it; nothing was written" in error["message"]
    with memory(pg_url) as mem:
        with pytest.raises(StoreError) as refused:
            mem.add_message("s", "user", "one more")
        assert refused.value.read_only, refused.value
        assert mem.stats()["messages"] == 1
