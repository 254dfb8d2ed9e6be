"""Shared fixtures: real SQLite files under tmp_path, a real PostgreSQL started by the test
run (one server per session, a fresh database per test), the deterministic hashing embedder."""

from __future__ import annotations

import itertools
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memlane import Memory
from memlane.store import open_store
from memlane.testing import memory

_databases = itertools.count(1)

# A test run started in the background by a non-interactive shell (`make test &`, a CI
# runner's script) inherits SIGINT ignored, and so does every process a test starts: the
# tests that press Ctrl-C on a memlane process need Python's own handler, as a run from a
# terminal has (a handler, unlike SIG_IGN, is reset to the default in a started process).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def cli_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """``memlane`` through click's runner on ``tmp_path/cli.db`` (the hashing embedder, run
    from ``tmp_path``): ``cli_run(*args, code=0, input=None)`` asserts the exit code and
    returns the result."""
    from click.testing import CliRunner

    from memlane.serve.cli import cli

    monkeypatch.setenv("MEMLANE_EMBEDDING_BACKEND", "hashing")
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "cli.db")
    runner = CliRunner()

    def invoke(*args: str, code: int = 0, input: str | None = None) -> Any:
        result = runner.invoke(cli, ["--db", db, *args], input=input, catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result

    return invoke


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    m = memory(tmp_path / "memlane.db")
    yield m
    m.close()


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    """One PostgreSQL + pgvector server for the whole run (started here, nothing assumed)."""
    pytest.importorskip("psycopg", reason="PostgreSQL tests need pip install -e '.[postgres]'")
    from memlane.testing.postgres import postgres_server

    with postgres_server() as url:
        yield url


@pytest.fixture
def pg_url(postgres_server_url: str) -> Iterator[str]:
    """A fresh, empty database on the session's server; dropped afterwards."""
    from memlane.testing.postgres import create_database, drop_database

    name = f"test_{os.getpid()}_{next(_databases)}"
    yield create_database(postgres_server_url, name)
    drop_database(postgres_server_url, name)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[object]:
    """Every store backend; the contract suite runs against each."""
    if request.param == "postgres":
        s = open_store(request.getfixturevalue("pg_url"))
    else:
        s = open_store(tmp_path / "contract.db")
    yield s
    s.close()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Every backend's database URL: a SQLite file under tmp_path, or a fresh PostgreSQL
    database on the session's server."""
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return str(tmp_path / "memlane.db")
