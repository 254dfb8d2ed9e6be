"""Erasure over HTTP (docs/erasure.md): ``DELETE /v1/scopes/{scope}`` and
``DELETE /v1/sessions/{id}`` on a real service, on SQLite and PostgreSQL, with a real SSE
client on ``/state/memory`` that sees the erasure as a content-free event and ends where
a fresh snapshot starts."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import pytest
from httpx_sse import connect_sse

from memlane.config import load_config
from memlane.memory import Memory
from memlane.serve import live
from memlane.serve.http import create_app
from memlane.testing import HashingEmbedder, add_sessions
from memlane.testing.http import serving

SCOPE = "user/42 Zoë"   # a slash and a space: the route takes any scope
NOW = datetime(2024, 6, 1, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    db = request.getfixturevalue("pg_url") if request.param == "postgres" else str(tmp_path / "h.db")
    config = load_config(environ={}, overrides={"serve": {"stream_poll_seconds": 0.05}})
    mem = Memory(db, config=config, embedder=HashingEmbedder(dim=64))
    add_sessions(mem, [(3, [("user", "I moved to Zorblaxville"), ("assistant", "nice"),
                            ("user", "my sister Ana lives there"), ("assistant", "good")]),
                       (2, [("user", "I like Zorblax tea"), ("assistant", "ok")])],
                 now=NOW, scope=SCOPE)
    add_sessions(mem, [(2, [("user", "I like Zorblax tea"), ("assistant", "ok")])],
                 now=NOW, scope="other")
    mem.pack("Zorblaxville", 300, scope=SCOPE)
    with serving(create_app(mem)) as base:
        yield base, mem
    mem.close()


def _follow(base: str, until: Any, state: dict[str, Any] | None = None,
            last: str | None = None) -> tuple[list[str], dict[str, Any], str | None]:
    """Read the scope's stream (resuming at ``last`` with ``state``), applying patches,
    until ``until(topics, state)`` holds: (patch topics, state, last event id)."""
    kinds: list[str] = []
    headers = {"Last-Event-ID": last} if last is not None else {}
    with httpx.Client(timeout=httpx.Timeout(30.0)) as c, connect_sse(
            c, "GET", base + "/state/memory", params={"scope": SCOPE},
            headers=headers) as source:
        for event in source.iter_sse():
            if event.event == "snapshot":
                state = json.loads(event.data)
            elif event.event == "patch":
                data = json.loads(event.data)
                kinds.append(data["topic"])
                state = jsonpatch.apply_patch(state, data["patch"])
            if event.id:
                last = event.id
            if state is not None and until(kinds, state):
                return kinds, state, last
    raise AssertionError(kinds)


def test_erase_a_session_then_the_scope_over_http(url: Any) -> None:
    base, mem = url
    first, second = sorted(s.id for s in mem.sessions(SCOPE))
    _, state, last = _follow(base, lambda k, s: True)   # a client holding the scope's state
    assert str(second) in state["sessions"]
    with httpx.Client(base_url=base, timeout=30) as c:
        r = c.delete(f"/v1/sessions/{second}")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["session_id"] == second and body["scope"] == SCOPE and body["erased"]
        assert body["counts"]["messages"] == 2
        assert c.delete(f"/v1/sessions/{second}").status_code == 404
        kinds, state, last = _follow(base, lambda k, s: "session.erased" in k, state, last)
        assert str(second) not in state["sessions"] and str(first) in state["sessions"]
        assert state == live.snapshot(mem.store, SCOPE)[1]

        r = c.delete("/v1/scopes/" + SCOPE.replace("/", "%2F"))
        assert r.status_code == 200, r.text
        assert r.json()["erased"] and r.json()["counts"]["sessions"] == 1
        kinds, state, last = _follow(base, lambda k, s: "scope.erased" in k, state, last)
        assert kinds == ["scope.erased"]
        assert state == {"scope": SCOPE, "sessions": {}, "items": {}, "facts": {},
                         "last_pack": None}
        again = c.delete("/v1/scopes/" + SCOPE)
        assert again.status_code == 200 and again.json()["erased"] is False
        hits = c.post("/v1/search", json={"query": "Zorblax tea"}).json()["hits"]
        assert {h["item"]["scope"] for h in hits} == {"other"}
        assert c.get("/v1/sessions", params={"scope": SCOPE}).json() == {"sessions": [], "next_offset": None,
                                                                          "next_cursor": None,
                                                                          "prev_cursor": None}
    assert [c.topic for c in live.changes_since(mem.store, SCOPE, 0)] == ["scope.erased"]
    assert "Zorblax" not in json.dumps(live.changes_since(mem.store, SCOPE, 0)[0].patch)
