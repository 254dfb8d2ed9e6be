"""Fixtures the facts tests share: a memory opened on any store's URL, and one database (or
memory) on each store kept across a module's hypothesis examples; and the plain helpers of
the migration tests (``backend``, ``migration``, ``rows``, ``kill_inside_migration``),
imported from here."""

from __future__ import annotations

import os
import select
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from memlane.config import load_config
from memlane.memory import Memory
from memlane.store.migrations import load_migrations
from memlane.testing import HashingEmbedder


def backend(url: str) -> str:
    """The store a URL opens: ``postgres`` or ``sqlite``."""
    return "postgres" if url.startswith("postgres") else "sqlite"


def migration(url: str, suffix: str) -> str:
    """The full name of the migration named ``suffix`` (``value_keys``: ``0016_value_keys``)
    on the store ``url`` opens."""
    return next(m.name for m in load_migrations(f"memlane.store.{backend(url)}")
                if m.name.endswith(f"_{suffix}"))


def rows(url: str, sql: str) -> list[Any]:
    """The rows ``sql`` reads from the database at ``url``, on a connection of its own (not
    memlane's)."""
    if backend(url) == "sqlite":
        with sqlite3.connect(url) as con:
            return con.execute(sql).fetchall()
    import psycopg

    with psycopg.connect(url) as con:
        return con.execute(sql).fetchall()


_HOLD = """
import sys, time
from memlane.store import open_store, rekey

name = sys.argv[2]
step = rekey.STEPS[name]

def held(db):
    step(db)
    print("stepped", flush=True)
    time.sleep(120)  # killed here, inside the migration's transaction

rekey.STEPS[name] = held
open_store(sys.argv[1])
"""


def kill_inside_migration(url: str, suffix: str) -> None:
    """Open ``url`` in a child process that runs migration ``suffix``'s real Python step and
    then waits inside the migration's transaction; kill it there (SIGKILL)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", _HOLD, url, suffix], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        line = proc.stdout.readline() if ready else b""
        assert line == b"stepped\n", (line, proc.poll())
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)


def _open(url: str) -> Memory:
    return Memory(url, config=load_config(environ={}), embedder=HashingEmbedder(dim=64))


@pytest.fixture(scope="session")
def open_memory() -> Callable[[str], Memory]:
    """``open_memory(url)``: a ``Memory`` on ``url`` (a SQLite file or a PostgreSQL URL),
    the default config and the hashing embedder (64 dimensions); the caller closes it."""
    return _open


@pytest.fixture(scope="module")
def urls(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
         postgres_server_url: str) -> Iterator[list[str]]:
    """One database on each store, kept across the module's examples (each example its own
    scope), named after the module (``test_name_keys``: ``name_keys_<pid>``)."""
    from memlane.testing.postgres import create_database, drop_database

    prefix = request.module.__name__.rpartition(".")[2].removeprefix("test_")
    name = f"{prefix}_{os.getpid()}"
    yield [str(tmp_path_factory.mktemp(prefix) / f"{prefix}.db"), create_database(postgres_server_url, name)]
    drop_database(postgres_server_url, name)


@pytest.fixture(scope="module")
def pair(urls: list[str], open_memory: Callable[[str], Memory]) -> Iterator[list[Memory]]:
    """One memory on each store (``urls``), kept across the module's examples."""
    mems = [open_memory(url) for url in urls]
    yield mems
    for m in mems:
        m.close()
