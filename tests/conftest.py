"""Shared fixtures: real SQLite files under tmp_path, the deterministic hashing embedder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memlane import Memory
from memlane.store import open_store
from memlane.testing import memory


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    m = memory(tmp_path / "memlane.db")
    yield m
    m.close()


@pytest.fixture(params=["sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[object]:
    """Every store backend; the contract suite runs against each."""
    s = open_store(tmp_path / "contract.db")
    yield s
    s.close()
