"""Shared fixtures: real SQLite files under tmp_path, a real PostgreSQL started by the test
run (one server per session, a fresh database per test), the deterministic hashing embedder."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from memlane import Memory
from memlane.store import open_store
from memlane.testing import memory

_databases = itertools.count(1)


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
