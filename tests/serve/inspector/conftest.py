"""A memory worth inspecting (two example conversations indexed, a fact that changed, text
that tries to inject a script, a failed session) served by a real uvicorn on loopback."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import example_files, memory
from memlane.testing.http import serving


@pytest.fixture(autouse=True)
def strict_templates() -> Iterator[None]:
    """Every inspector page rendered in these tests fails on a name its template reads and
    its view does not give (in service such a name renders empty and is logged)."""
    from jinja2 import StrictUndefined

    from memlane.serve.http.inspector import pages

    lenient = pages._env.undefined
    pages._env.undefined = StrictUndefined
    try:
        yield
    finally:
        pages._env.undefined = lenient


XSS = '<script>document.title="pwned"</script><img src=x onerror="document.title=1">'


@dataclass
class Seeded:
    mem: Any
    porto: int
    lisbon: int
    failed_session: int
    xss_session: int


def seed(mem: Any) -> Seeded:
    for f in example_files():
        mem.import_file(f)
    mem.index(now="2024-06-01T00:00:00Z")
    porto = mem.add_fact("user", "lives in", "Porto", scope="alice-assistant",
                         at="2023-01-01T00:00:00Z").fact_id
    lisbon = mem.add_fact("user", "favourite city", "Lisbon", scope="alice-assistant",
                          at="2024-03-05T00:00:00Z").fact_id
    mem.add_fact("user", "favourite city", "Lisbon", scope="alice-assistant",
                 at="2024-03-06T00:00:00Z")  # reinforced
    mem.add_message("xss", "user", f"My nickname is {XSS}", at="2024-04-01T10:00:00Z")
    mem.add_fact("user", "nickname", XSS, scope="xss", at="2024-04-01T10:00:00Z")
    xss_session = mem.sessions(scope="xss")[0].id
    mem.add_message("broken", "user", "this one will fail", at="2024-04-02T10:00:00Z")
    failed = mem.close_session("broken")
    with mem.store.atomic():
        mem.store.fail_summary(failed.id, "llm timed out after 60s", time.time() + 3600)
    return Seeded(mem, porto, lisbon, failed.id, xss_session)


@dataclass
class Inspector:
    url: str
    seeded: Seeded
    app_routes: list[Any]

    @property
    def mem(self) -> Any:
        return self.seeded.mem

    def key(self, scopes: str = "*", *, read_only: bool = False) -> str:
        return create_key(self.mem.store, scopes, read_only=read_only).key

    def client(self, key: str | None = None, **kw: Any) -> httpx.Client:
        cookies = {"memlane_key": key} if key else {}
        return httpx.Client(base_url=self.url, cookies=cookies, timeout=30.0, **kw)


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[Seeded]:
    mem = memory(tmp_path / "inspected.db")
    try:
        yield seed(mem)
    finally:
        mem.close()


@pytest.fixture
def inspector(seeded: Seeded) -> Iterator[Inspector]:
    app = create_app(seeded.mem, worker=False)
    with serving(app) as url:
        yield Inspector(url, seeded, list(app.routes))
