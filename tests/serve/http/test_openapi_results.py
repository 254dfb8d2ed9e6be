"""The 200 answer of every route against ``/openapi.json``. Session 22 gave search, pack and
messages a schema; every other route's 200 was ``{}`` (session 23: ``results.py``). Here
every operation of the document is called on a real service over the example
conversations, in the states that change an answer's shape (hits and none, a page with a
next one and the last, a session summarized, an erase of something and of nothing), and
each answer is validated against its published schema made strict: every object closed (a
key the schema does not list fails) and, as published, every listed key required. An
operation of the document that no request here reaches fails the test too, so a new route
needs its schema and its requests."""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator, ValidationError

from memlane.testing import example_files


def _closed(node: Any) -> Any:
    """``node`` with ``additionalProperties: false`` on every object that lists its keys."""
    if isinstance(node, list):
        return [_closed(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _closed(v) for k, v in node.items()}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


class Contract:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.components = _closed(copy.deepcopy(spec["components"]))
        self.seen: set[tuple[str, str]] = set()

    def schema(self, method: str, path: str, media: str = "application/json") -> Any:
        op = self.spec["paths"][path][method]
        schema = op["responses"]["200"]["content"][media]["schema"]
        assert schema, f"{method} {path}: the 200 answer has an empty schema"
        return schema

    def check(self, method: str, path: str, r: httpx.Response) -> Any:
        assert r.status_code == 200, (method, path, r.text)
        assert r.headers["content-type"].startswith("application/json")
        body = r.json()
        self.validate(self.schema(method, path), body)
        self.seen.add((method, path))
        return body

    def validate(self, schema: Any, body: Any) -> None:
        Draft202012Validator({**_closed(schema), "components": self.components}).validate(body)


@pytest.fixture
def served(service):
    """The service (SQLite and PostgreSQL) over the two example conversations, indexed."""
    for f in example_files():
        service.mem.import_file(f)
    service.mem.index("2024-06-01T00:00:00Z")
    return service


def test_every_route_answers_what_the_document_says(served) -> None:
    with httpx.Client(base_url=served.url, timeout=120) as c:
        _every_route(c)


def _every_route(c: httpx.Client) -> None:
    spec = c.get("/openapi.json").json()
    doc = Contract(spec)

    def call(method: str, path: str, route: str | None = None, **kw: Any) -> Any:
        return doc.check(method, route or path, c.request(method.upper(), path, **kw))

    call("get", "/healthz")
    call("get", "/readyz")
    call("post", "/v1/messages", json={"scope": "s", "id": "m-1", "text": "I moved to Porto",
                                       "at": "2024-05-01T10:00:00Z"})
    call("post", "/v1/messages", json={"messages": [
        {"scope": "s", "role": "assistant", "text": "Porto is lovely", "speaker": "bot",
         "at": "2024-05-01T10:01:00Z"},
        {"scope": "s", "text": "my sister lives in Braga", "agent_id": "Zoé",
         "project_id": "home", "at": "2024-05-01T10:02:00Z"}]})
    call("post", "/v1/messages", json={"scope": "s", "id": "m-1", "text": "I moved to Porto",
                                       "at": "2024-05-01T10:00:00Z"})  # sent again
    item = call("post", "/v1/items", json={
        "text": "prefers tea over coffee", "kind": "pref", "scope": "s", "ttl_s": 86400,
        "topics": ["drinks", {"name": "habits", "weight": 0.5}], "keywords": ["tea"],
        "entities": ["tea"], "source": {"uri": "chat://1"}, "pinned": True})
    assert item["item"]["pinned"] is True
    call("post", "/v1/sessions/close", json={"scope": "s"})
    call("post", "/v1/sessions/close", json={"scope": "s"})  # nothing open: []
    call("post", "/v1/sessions/close", json={"idle": True, "now": "2030-01-01T00:00:00Z"})
    call("post", "/v1/index", json={"scope": "s"})
    call("post", "/v1/index")  # a bare POST
    found = call("post", "/v1/search", json={"query": "where does the user live",
                                             "explain": True})
    assert found["hits"] and found["notice"] is None
    none = call("post", "/v1/search", json={"query": "quantum chromodynamics",
                                            "scope": "nowhere"})
    assert none["hits"] == [] and none["notice"]
    pack = call("post", "/v1/pack", json={"query": "where does the user live",
                                          "budget": {"max_tokens": 300}})
    call("post", "/v1/pack", json={"query": "quantum chromodynamics", "scope": "nowhere"})
    call("get", f"/v1/packs/{pack['id']}", "/v1/packs/{id}")
    page = call("get", "/v1/sessions", params={"limit": 1})
    assert page["next_offset"] == 1
    last = call("get", "/v1/sessions", params={"limit": 100})
    assert last["next_offset"] is None
    first = min(s["id"] for s in last["sessions"])
    shown = call("get", f"/v1/sessions/{first}", "/v1/sessions/{id}", params={"limit": 1})
    assert shown["next_turn"] == 2 and shown["summary"] and shown["facts"]
    call("get", f"/v1/sessions/{first}", "/v1/sessions/{id}", params={"from_turn": 2})
    facts = call("get", "/v1/facts", params={"limit": 1})["facts"]
    assert facts
    call("get", "/v1/facts", params={"include_superseded": "true", "scope": "alice-assistant"})
    history = call("get", "/v1/facts/history", params={"subject": facts[0]["subject"],
                                                       "predicate": facts[0]["predicate"]})
    assert history["history"][0]["events"]
    graph = call("get", "/v1/graph/Lisbon", "/v1/graph/{entity}")
    assert graph["entity"] and graph["relations"] and graph["items"]
    stats = call("get", "/v1/stats")
    assert stats["summary_ms_avg"] > 0

    # /actions: the envelope, and each kind's result is its REST route's
    result_of = {kind: doc.schema(m.lower(), p) for m, p, kind in _routes()}
    sessions = c.get("/v1/sessions").json()["sessions"]
    fact = c.get("/v1/facts").json()["facts"][0]
    inputs = {
        "memory.add": {"scope": "t", "text": "hello there"},
        "memory.search": {"query": "Lisbon"}, "memory.pack": {"query": "Lisbon"},
        "memory.upsert": {"text": "a note", "scope": "t"}, "index": {},
        "sessions.list": {}, "sessions.close": {"scope": "t"},
        "sessions.show": {"id": sessions[0]["id"]},
        "facts.list": {}, "facts.history": {"subject": "user", "predicate": "lives_in"},
        "graph.show": {"entity": "Lisbon"}, "packs.show": {"id": pack["id"]}, "stats": {},
        "facts.forget": {"id": fact["id"]},
        "sessions.forget": {"id": sessions[-1]["id"]}, "scopes.forget": {"scope": "t"},
    }
    assert set(inputs) == set(result_of)
    for kind, inp in inputs.items():
        body = call("post", "/actions", json={"kind": kind, "input": inp})
        doc.validate(result_of[kind], body["result"])
    fact = c.get("/v1/facts").json()["facts"][0]
    call("delete", f"/v1/facts/{fact['id']}", "/v1/facts/{id}")
    call("delete", f"/v1/sessions/{sessions[0]['id']}", "/v1/sessions/{id}")
    call("delete", "/v1/scopes/team-backend", "/v1/scopes/{scope}")
    erased = call("delete", "/v1/scopes/never-used", "/v1/scopes/{scope}")
    assert erased["erased"] is False

    # the two answers that are not JSON
    r = c.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert doc.schema("get", "/metrics", "text/plain")["type"] == "string"
    doc.seen.add(("get", "/metrics"))
    with c.stream("GET", "/state/memory", params={"scope": "alice-assistant"}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("event: snapshot"):
                break
    assert doc.schema("get", "/state/memory", "text/event-stream")["type"] == "string"
    doc.seen.add(("get", "/state/memory"))

    every = {(m, p) for p, ops in spec["paths"].items() for m in ops}
    assert every - doc.seen == set(), "operations of the document no request reached"


def _routes() -> list[tuple[str, str, str]]:
    from memlane.serve.http.rest import ROUTES

    return ROUTES


def test_the_schemas_say_something(sqlite_service) -> None:
    """A closed schema refuses a key it does not list, a wrong type and a missing key."""
    doc = Contract(httpx.get(f"{sqlite_service.url}/openapi.json", timeout=30).json())
    r = httpx.post(f"{sqlite_service.url}/v1/messages", json={"scope": "s", "text": "hi"},
                   timeout=30)
    body = doc.check("post", "/v1/messages", r)
    schema = doc.schema("post", "/v1/messages")
    for broken in ({**body, "extra": 1},
                   {"messages": [{**body["messages"][0], "id": "17"}]},
                   {"messages": [{k: v for k, v in body["messages"][0].items() if k != "seq"}]}):
        with pytest.raises(ValidationError):
            doc.validate(schema, broken)
    stats = httpx.get(f"{sqlite_service.url}/v1/stats", timeout=30)
    body = doc.check("get", "/v1/stats", stats)
    assert "summary_ms_avg" not in body  # nothing summarized yet: the key is optional
    with pytest.raises(ValidationError):
        doc.validate(doc.schema("get", "/v1/stats"), {**body, "sessions": {"open": "1"}})
    assert json.dumps(doc.spec).count('"schema": {}') == 0
