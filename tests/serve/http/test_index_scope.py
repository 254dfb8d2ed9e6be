"""POST /v1/index with a scope indexes that scope only, for a key holding it; without one
it spans every scope and needs '*', as before."""

from __future__ import annotations


def test_an_index_request_with_a_scope_touches_that_scope_only(service):
    mem = service.mem
    for scope in ("team-a", "other"):
        for i in range(4):
            mem.add_message(scope, "user", f"we deploy on Friday, note {i}",
                            at=f"2024-06-20T10:0{i}:00Z")
        mem.close_session(scope)
    key = service.key("team-*")
    with service.client(key) as c:
        r = c.post("/v1/index", json={"scope": "team-a"})
        assert r.status_code == 200, r.text
        assert r.json()["sessions_indexed"] == 1
        r = c.post("/v1/index", json={})
        assert r.status_code == 403 and "index without a scope" in r.json()["error"]["message"]
        assert c.post("/v1/index", json={"scope": "other"}).status_code == 403
        bad = c.post("/v1/index", json={"scope": "team-\u0007" + "x" * 300})
        assert bad.status_code == 400 and bad.json()["error"]["field"] == "scope", bad.text
    with service.client("not-a-key") as c:
        assert c.post("/v1/index", json={"scope": "team-a"}).status_code == 401
    from memlane import Client

    mem.add_message("team-b", "user", "a later note", at="2024-06-21T10:00:00Z")
    mem.close_session("team-b")
    with Client(service.url, key=key) as client:
        assert client.index(scope="team-b").sessions_indexed == 1
    (mine,) = mem.sessions(scope="team-a")
    (theirs,) = mem.sessions(scope="other")
    assert mine.indexed and mine.summarized
    assert not theirs.indexed and not theirs.summarized
