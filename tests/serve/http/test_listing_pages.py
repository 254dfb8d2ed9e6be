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


def test_a_long_session_is_read_in_parts_by_next_turn(tmp_path) -> None:
    """``GET /v1/sessions/{id}`` answered every message of a session at once (a session of
    100,000 messages was one answer) with no way to read it in parts; ``from_turn`` and
    ``limit`` page it and ``next_turn`` says where the next part starts. Without them it
    answers every message, as before."""
    mem = memory(tmp_path / "m.db")
    try:
        for i in range(1, 2501):
            mem.add_message("long", "user", f"message {i}", at="2024-01-01T00:00:00Z")
        sid = mem.close_session("long").id
        with serving(create_app(mem, worker=False)) as url:
            seen: list[int] = []
            turn: int | None = 1
            while turn is not None:
                r = httpx.get(f"{url}/v1/sessions/{sid}", params={"from_turn": turn,
                                                                  "limit": 1000}, timeout=30)
                assert r.status_code == 200, r.text
                body = r.json()
                assert len(body["messages"]) <= 1000 and body["session"]["id"] == sid
                seen += [m["seq"] for m in body["messages"]]
                turn = body["next_turn"]
            assert seen == list(range(1, 2501))
            whole = httpx.get(f"{url}/v1/sessions/{sid}", timeout=30).json()
            assert len(whole["messages"]) == 2500 and whole["next_turn"] is None
            past = httpx.get(f"{url}/v1/sessions/{sid}", params={"from_turn": 9999},
                             timeout=30).json()
            assert past["messages"] == [] and past["next_turn"] is None
            for bad in ({"from_turn": 0}, {"limit": 0}, {"limit": 100_001}):
                r = httpx.get(f"{url}/v1/sessions/{sid}", params=bad, timeout=30)
                assert r.status_code == 422 and r.json()["error"]["field"] == next(iter(bad))
            act = httpx.post(f"{url}/actions", json={"kind": "sessions.show", "input": {
                "id": sid, "from_turn": 2401, "limit": 50}}, timeout=30).json()["result"]
            assert [m["seq"] for m in act["messages"]] == list(range(2401, 2451))
            assert act["next_turn"] == 2451
            with Client(url) as client:
                assert len(client.messages(sid)) == 2500
    finally:
        mem.close()
