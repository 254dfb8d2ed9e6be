"""Fixtures the facts tests share: a memory opened on any store's URL, and one database (or
memory) on each store kept across a module's hypothesis examples."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder


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
