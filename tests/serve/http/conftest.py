"""A real memlane service on a free loopback port, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving


@dataclass
class Service:
    """A running service: its URL, the Memory behind it, and helpers to call it."""

    url: str
    mem: Any

    def key(self, scopes: str = "*", *, read_only: bool = False, name: str | None = None) -> str:
        return create_key(self.mem.store, scopes, read_only=read_only, name=name).key

    def client(self, key: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30.0)


def _memory(request: pytest.FixtureRequest, tmp_path: Path, **overrides: Any) -> Any:
    if request.param == "postgres":
        return memory(request.getfixturevalue("pg_url"), **overrides)
    return memory(tmp_path / "served.db", **overrides)


@pytest.fixture(params=["sqlite", "postgres"])
def service(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Service]:
    """The service over a fresh memory, on each backend."""
    # a module's SERVICE_CONFIG: config overrides of its services
    overrides = {**getattr(request.module, "SERVICE_CONFIG", {}),
                 **getattr(request, "param_overrides", {})}
    mem = _memory(request, tmp_path, **overrides)
    try:
        with serving(create_app(mem, worker=False)) as url:
            yield Service(url, mem)
    finally:
        mem.close()


@pytest.fixture
def sqlite_service(tmp_path: Path) -> Iterator[Service]:
    """The service on SQLite only (for behaviour that does not depend on the store)."""
    mem = memory(tmp_path / "served.db", serve={"max_body_bytes": 4096})
    try:
        with serving(create_app(mem, worker=False)) as url:
            yield Service(url, mem)
    finally:
        mem.close()


@pytest.fixture
def pg_service(pg_url: str) -> Iterator[tuple[str, Any]]:
    """A service on PostgreSQL, its worker off, holding one indexed session of scope "a";
    ``(url, mem)``: the lost-connection tests end its backends under it."""
    mem = memory(pg_url)
    mem.add_message("a", "user", "I moved to Lisbon in March", at="2024-05-01T10:00:00Z")
    mem.close_session("a")
    mem.index(now="2024-06-01T00:00:00Z")
    try:
        with serving(create_app(mem, worker=False)) as url:
            yield url, mem
    finally:
        mem.close()
