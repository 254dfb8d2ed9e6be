"""Every capability through /actions and through its /v1 route, on a real server and store."""

from __future__ import annotations

from typing import Any

import pytest

TURNS = [
    ("user", "I signed up for the Lisbon half marathon in October with Maria"),
    ("assistant", "Great, a 16-week plan starts in June."),
    ("user", "My running shoes are the Pegasus 40 from Nike"),
    ("assistant", "Good choice for long runs."),
    ("user", "I moved to Porto last spring"),
]


def act(c: Any, kind: str, **inp: Any) -> Any:
    r = c.post("/actions", json={"kind": kind, "input": inp})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ok"] is True and "request_ms" in body["timings"]
    return body["result"]


def _fill(c: Any, scope: str = "chat-1") -> dict[str, Any]:
    msgs = [{"scope": scope, "role": role, "text": text, "at": f"2024-03-04T09:{i:02d}:00Z"}
            for i, (role, text) in enumerate(TURNS)]
    added = act(c, "memory.add", messages=msgs)["messages"]
    assert [m["seq"] for m in added] == [1, 2, 3, 4, 5]
    closed = act(c, "sessions.close", scope=scope)["closed"]
    assert closed == [added[0]["session_id"]]
    report = act(c, "index")
    assert report["sessions_indexed"] == 1 and report["items_indexed"] == 5
    return {"session_id": added[0]["session_id"], "messages": added}


def test_ingest_index_search_pack_through_actions(service) -> None:
    with service.client() as c:
        filled = _fill(c)
        res = act(c, "memory.search", query="Lisbon half marathon", scope="chat-1",
                  explain=True)
        assert "marathon" in res["hits"][0]["item"]["text"]
        r = c.post("/actions", json={"kind": "memory.search",
                                     "input": {"query": "marathon", "scope": "chat-1"}})
        assert {"lexical_ms", "vector_ms", "request_ms"} <= set(r.json()["timings"])
        assert "lexical;dur=" in r.headers["Server-Timing"]
        p = act(c, "memory.pack", query="Lisbon half marathon", scope="chat-1", budget={"max_tokens": 200})
        assert p["used"] <= 200 and "marathon" in p["text"] and p["id"] is not None
        assert act(c, "packs.show", id=p["id"])["text"] == p["text"]
        sessions = act(c, "sessions.list", scope="chat-1")["sessions"]
        assert [s["id"] for s in sessions] == [filled["session_id"]]
        shown = act(c, "sessions.show", id=filled["session_id"])
        assert [m["text"] for m in shown["messages"]] == [t for _, t in TURNS]
        stats = act(c, "stats")
        assert stats["messages"] == 5


def test_the_same_capabilities_through_rest_routes(service) -> None:
    with service.client() as c:
        one = c.post("/v1/messages", json={"scope": "chat-2", "text": "My cat is called Miso"})
        assert one.status_code == 200 and one.json()["messages"][0]["scope"] == "chat-2"
        assert c.post("/v1/sessions/close", json={"scope": "chat-2"}).json()["closed"]
        assert c.post("/v1/index", json={}).json()["items_indexed"] == 1
        hits = c.post("/v1/search", json={"query": "cat name", "scope": "chat-2"}).json()["hits"]
        assert "Miso" in hits[0]["item"]["text"]
        pack = c.post("/v1/pack", json={"query": "cat name", "scope": "chat-2", "budget": 100}).json()
        assert "Miso" in pack["text"]
        assert c.get(f"/v1/packs/{pack['id']}").json()["query"] == "cat name"
        sid = one.json()["messages"][0]["session_id"]
        assert c.get("/v1/sessions", params={"scope": "chat-2"}).json()["sessions"][0]["id"] == sid
        assert c.get(f"/v1/sessions/{sid}").json()["session"]["status"] in ("closed", "summarized")
        assert c.get("/v1/stats").json()["messages"] == 1
        item = c.post("/v1/items", json={"text": "Prefers window seats", "kind": "pref",
                                         "scope": "chat-2", "topics": [{"name": "travel"}],
                                         "source": {"uri": "file:///notes.md"}}).json()
        assert item["item"]["kind"] == "preference" and "topic:travel" in item["item"]["keywords"]


def test_facts_graph_and_forget(service) -> None:
    out = service.mem.add_fact("user", "lives_in", "Lisbon", scope="chat-3")
    service.mem.add_fact("user", "lives_in", "Porto", scope="chat-3")
    with service.client() as c:
        facts = c.get("/v1/facts", params={"scope": "chat-3"}).json()["facts"]
        assert [f["object"] for f in facts] == ["Porto"]
        every = act(c, "facts.list", scope="chat-3", include_superseded=True)["facts"]
        assert sorted(f["object"] for f in every) == ["Lisbon", "Porto"]
        hist = c.get("/v1/facts/history", params={"subject": "user", "predicate": "lives_in",
                                                  "scope": "chat-3"}).json()["history"]
        assert [h["object"] for h in hist] == ["Lisbon", "Porto"]
        r = c.delete(f"/v1/facts/{out.fact_id}")
        assert r.status_code == 200 and r.json() == {"forgotten": out.fact_id}
        assert c.delete(f"/v1/facts/{out.fact_id}").status_code == 404
        missing = c.get("/v1/graph/Nobody", params={"scope": "chat-3"})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_duplicate_message_id_is_409_and_batch_is_all_or_nothing(service) -> None:
    with service.client() as c:
        act(c, "memory.add", scope="chat-4", text="first", id="m-1")
        dup = c.post("/v1/messages", json={"scope": "chat-4", "text": "again", "id": "m-1"})
        assert dup.status_code == 409 and dup.json()["error"]["field"] == "id"
        bad = c.post("/v1/messages", json={"messages": [
            {"scope": "chat-4", "text": "kept?"}, {"scope": "chat-4", "text": "x", "at": "not a time"}]})
        assert bad.status_code == 400
        assert bad.json()["error"]["field"] == "messages.1.at"
    assert service.mem.stats()["messages"] == 1  # the batch's first message rolled back


@pytest.mark.parametrize(("body", "field"), [
    ({"kind": "memory.search", "input": {"query": "x", "k": 0}}, "input.k"),
    ({"kind": "memory.search", "input": {}}, "input.query"),
    ({"kind": "memory.search", "input": {"query": "x", "limit": 3}}, "input.limit"),
    ({"kind": "memory.pack", "input": {"query": "x", "budget": 3}}, "input.budget"),
    ({"kind": "memory.add", "input": {"text": "no scope"}}, "input.scope"),
    ({"kind": "memory.add", "input": {"scope": "s", "text": "x", "role": "robot"}}, "input.role"),
    ({"kind": "no.such.action", "input": {}}, "kind"),
    ({"input": {}}, "kind"),
    ({"kind": "sessions.show", "input": {"id": "seven"}}, "input.id"),
])
def test_bad_action_input_is_422_naming_the_field(sqlite_service, body, field) -> None:
    with sqlite_service.client() as c:
        r = c.post("/actions", json=body)
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err["code"] == "invalid_request" and err["field"] == field, err
    assert field.split(".")[-1] in err["message"]


def test_bad_values_memlane_checks_are_400_naming_the_field(sqlite_service) -> None:
    with sqlite_service.client() as c:
        r = c.post("/v1/search", json={"query": "x", "since": "yesterday-ish"})
        assert r.status_code == 400 and r.json()["error"]["field"] == "since"
        r = c.post("/v1/items", json={"text": "x", "lane": "nowhere"})
        assert r.status_code == 400 and r.json()["error"]["field"] == "lane"
        r = c.post("/actions", content=b"{not json", headers={"Content-Type": "application/json"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
        r = c.get("/v1/sessions/0")
        assert r.status_code == 422 and r.json()["error"]["field"] == "id"
        r = c.get("/v1/sessions/424242")
        assert r.status_code == 404


def test_openapi_describes_every_action_and_route(sqlite_service) -> None:
    from memlane.serve.http import rest
    from memlane.serve.http.actions import ACTIONS

    with sqlite_service.client() as c:
        spec = c.get("/openapi.json").json()
        assert c.get("/docs").status_code == 200
    schemas = spec["components"]["schemas"]
    for kind in ACTIONS:
        assert "Action_" + kind.replace(".", "_") in schemas, kind
    assert schemas["SearchInput"]["properties"]["k"]["anyOf"][0]["maximum"] == 1000
    for method, path, _ in rest.ROUTES:
        assert method.lower() in spec["paths"][path], (method, path)
    assert {"/actions", "/state/memory", "/metrics", "/healthz", "/readyz"} <= set(spec["paths"])


def test_index_takes_a_bare_post(sqlite_service) -> None:
    """Every option of /v1/index has a default, but a POST without a body was a 422
    'request: Field required'. Now it indexes; a body is still checked."""
    sqlite_service.mem.add_message("s", "user", "I moved to Lisbon", at="2024-01-01T00:00:00Z")
    with sqlite_service.client() as c:
        bare = c.post("/v1/index")
        assert bare.status_code == 200, bare.text
        assert bare.json()["sessions_closed"] == 1 and bare.json()["sessions_indexed"] == 1
        assert c.post("/v1/index", json={}).status_code == 200
        bad = c.post("/v1/index", json={"now": "soon"})
        assert bad.status_code == 400 and bad.json()["error"]["field"] == "now", bad.text
        assert c.post("/v1/index", json={"nowish": 1}).status_code == 422
