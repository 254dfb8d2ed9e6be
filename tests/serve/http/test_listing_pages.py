"""Listings past their page (session 21): ``GET /v1/sessions`` took ``limit`` up to 1,000
and no offset, so a scope's sessions past its newest 1,000 were on no answer, and nothing
said so. ``offset`` reads on, ``next_offset`` says where (null after the last)."""

from __future__ import annotations

import httpx

from memlane import Client
from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving


def test_every_session_of_a_scope_past_1000_is_reached_by_next_offset(tmp_path) -> None:
    mem = memory(tmp_path / "m.db")
    try:
        for i in range(1030):
            # some start at the same second: the id breaks the tie, no page repeats one
            mem.add_message("busy", "user", f"hello {i}", at=f"2024-01-01T00:{i // 60:02d}:00Z")
            mem.close_session("busy")
        want = [s.id for s in mem.store.list_sessions(scope="busy", limit=10_000)]
        assert len(want) == 1030
        with serving(create_app(mem, worker=False)) as url:
            seen: list[int] = []
            offset: int | None = 0
            calls = 0
            while offset is not None:
                r = httpx.get(f"{url}/v1/sessions", params={"scope": "busy", "limit": 1000,
                                                            "offset": offset}, timeout=30)
                assert r.status_code == 200, r.text
                seen += [s["id"] for s in r.json()["sessions"]]
                offset = r.json()["next_offset"]
                calls += 1
            assert seen == want and calls == 2
            exact = httpx.get(f"{url}/v1/sessions", params={"scope": "busy", "limit": 30,
                                                           "offset": 1000}, timeout=30).json()
            assert len(exact["sessions"]) == 30 and exact["next_offset"] is None
            r = httpx.get(f"{url}/v1/sessions", params={"scope": "busy", "offset": -1}, timeout=30)
            assert r.status_code == 422 and r.json()["error"]["field"] == "offset"
            with Client(url) as client:
                got = [s.id for s in client.sessions("busy", limit=1000)]
                got += [s.id for s in client.sessions("busy", limit=1000, offset=1000)]
            assert got == want
    finally:
        mem.close()
