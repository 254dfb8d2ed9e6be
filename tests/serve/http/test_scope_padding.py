"""A key is judged against the scope memlane really touches. The library trims a scope
(``check_label``), but the key's patterns were matched against the scope as sent: with a
key holding ``user-1?`` (user-10 … user-19), ``"user-1 "`` matched (the space took the
``?``) and was then trimmed to ``user-1``, a scope the key does not hold: it read, wrote and
erased another tenant's memory. Now every route matches the trimmed scope."""

from __future__ import annotations

from urllib.parse import quote


def test_a_padded_scope_cannot_reach_a_scope_the_key_does_not_hold(service):
    mem = service.mem
    mem.add_message("user-1", "user", "my PIN hint is blue heron", at="2024-06-20T10:00:00Z")
    key = service.key("user-1?", name="teens")
    with service.client(key) as c:
        for padded in ("user-1 ", "user-1\t", " user-1 "):
            calls = [
                c.post("/v1/messages", json={"scope": padded, "text": "planted"}),
                c.get("/v1/sessions", params={"scope": padded}),
                c.post("/v1/search", json={"scope": padded, "query": "PIN hint"}),
                c.post("/v1/pack", json={"scope": padded, "query": "PIN hint", "budget": 200}),
                c.post("/actions", json={"kind": "memory.search",
                                         "input": {"scope": padded, "query": "PIN"}}),
                c.delete(f"/v1/scopes/{quote(padded, safe='')}"),
            ]
            for r in calls:
                assert r.status_code == 403, (padded, r.request.url, r.text)
                assert r.json()["error"]["field"] == "scope"
        with c.stream("GET", "/state/memory", params={"scope": "user-1 "}) as r:
            assert r.status_code == 403
        ok = c.post("/v1/messages", json={"scope": " user-12 ", "text": "mine"})
        assert ok.status_code == 200 and ok.json()["messages"][0]["scope"] == "user-12"
    (s,) = mem.sessions(scope="user-1")
    assert s.message_count == 1  # nothing planted, nothing erased
    assert [m.text for m in mem.messages(s.id)] == ["my PIN hint is blue heron"]
