"""Auth and scope isolation on EVERY action and EVERY resource route.

The tables below must name every action (``ACTIONS``) and every route (``rest.ROUTES``):
a new one that is not added here fails ``test_tables_cover_everything``, so no route can
escape the checks. Tenant A owns scope ``team-red``; tenant B holds ``team-blue`` only.
"""

from __future__ import annotations

from typing import Any


from memlane.serve.http import rest
from memlane.serve.http.actions import ACTIONS

# test_no_key_and_wrong_key_are_401_everywhere sends a wrong key to every route from one
# address: not slowed here (test_failed_auth_limit.py tests the limit)
SERVICE_CONFIG = {"serve": {"failed_auth_limit": 0}}
RED = "team-red"


def _world(mem: Any) -> dict[str, int]:
    """A session, a fact, a pack and an entity (Lisbon) in team-red."""
    for i, text in enumerate(["I met Maria Lopez in Lisbon", "Maria works at Acme", "ok", "fine"]):
        mem.add_message(RED, "user", text, f"2024-03-04T09:0{i}:00Z")
    sid = mem.sessions(RED)[0].id
    mem.close_session(RED)
    mem.index()
    fid = mem.add_fact("user", "lives_in", "Lisbon", scope=RED).fact_id
    pid = mem.pack("Maria", 100, scope=RED).id
    return {"sid": sid, "fid": fid, "pid": pid}


# kind -> (input, addressed by id?)
ACTION_CASES: dict[str, tuple[dict[str, Any], bool]] = {
    "memory.add": ({"scope": RED, "text": "hello"}, False),
    "sessions.close": ({"scope": RED}, False),
    "index": ({}, False),
    "memory.search": ({"query": "Maria", "scope": RED}, False),
    "memory.pack": ({"query": "Maria", "scope": RED, "budget": 100}, False),
    "memory.upsert": ({"text": "a note", "scope": RED}, False),
    "sessions.list": ({"scope": RED}, False),
    "sessions.show": ({"id": "{sid}"}, True),
    "facts.list": ({"scope": RED}, False),
    "facts.history": ({"subject": "user", "predicate": "lives_in", "scope": RED}, False),
    "facts.forget": ({"id": "{fid}"}, True),
    "sessions.forget": ({"id": "{sid}"}, True),
    "scopes.forget": ({"scope": RED}, False),
    "graph.show": ({"entity": "Lisbon", "scope": RED}, False),
    "packs.show": ({"id": "{pid}"}, True),
    "stats": ({}, False),
}

# (method, path template) -> (json body or query params, addressed by id?)
ROUTE_CASES: dict[tuple[str, str], tuple[dict[str, Any], bool]] = {
    ("POST", "/v1/messages"): ({"scope": RED, "text": "hello"}, False),
    ("POST", "/v1/search"): ({"query": "Maria", "scope": RED}, False),
    ("POST", "/v1/pack"): ({"query": "Maria", "scope": RED, "budget": 100}, False),
    ("POST", "/v1/items"): ({"text": "a note", "scope": RED}, False),
    ("POST", "/v1/index"): ({}, False),
    ("GET", "/v1/sessions"): ({"scope": RED}, False),
    ("POST", "/v1/sessions/close"): ({"scope": RED}, False),
    ("GET", "/v1/sessions/{id}"): ({"id": "{sid}"}, True),
    ("GET", "/v1/facts"): ({"scope": RED}, False),
    ("GET", "/v1/facts/history"): ({"subject": "user", "predicate": "lives_in", "scope": RED}, False),
    ("DELETE", "/v1/facts/{id}"): ({"id": "{fid}"}, True),
    ("DELETE", "/v1/sessions/{id}"): ({"id": "{sid}"}, True),
    ("DELETE", "/v1/scopes/{scope}"): ({"scope": RED}, False),
    ("GET", "/v1/graph/{entity}"): ({"entity": "Lisbon", "scope": RED}, False),
    ("GET", "/v1/packs/{id}"): ({"id": "{pid}"}, True),
    ("GET", "/v1/stats"): ({}, False),
}


def test_tables_cover_everything(sqlite_service) -> None:
    assert set(ACTION_CASES) == set(ACTIONS)
    assert {(m, p) for m, p, _ in rest.ROUTES} == set(ROUTE_CASES)


def _fill(params: dict[str, Any], ids: dict[str, int]) -> dict[str, Any]:
    return {k: int(v.format(**ids)) if isinstance(v, str) and v.startswith("{") else v
            for k, v in params.items()}


def _call_action(c: Any, kind: str, params: dict[str, Any]) -> Any:
    return c.post("/actions", json={"kind": kind, "input": params})


def _call_route(c: Any, method: str, path: str, params: dict[str, Any]) -> Any:
    params = dict(params)
    for name in ("id", "entity", "scope"):
        if "{" + name + "}" in path:
            path = path.replace("{" + name + "}", str(params.pop(name)))
    if method in ("GET", "DELETE"):
        return c.request(method, path, params=params)
    return c.request(method, path, json=params)


def _calls(service: Any, ids: dict[str, int]) -> list[tuple[str, bool, bool, Any]]:
    """(label, write, by_id, call(client)) for every action and route."""
    out = []
    for kind, (params, by_id) in ACTION_CASES.items():
        p = _fill(params, ids)
        out.append((f"action {kind}", ACTIONS[kind].write, by_id,
                    lambda c, k=kind, p=p: _call_action(c, k, p)))
    kinds = {(m, p): k for m, p, k in rest.ROUTES}
    for (method, path), (params, by_id) in ROUTE_CASES.items():
        p = _fill(params, ids)
        out.append((f"{method} {path}", ACTIONS[kinds[method, path]].write, by_id,
                    lambda c, m=method, pa=path, p=p: _call_route(c, m, pa, p)))
    return out


def test_no_key_and_wrong_key_are_401_everywhere(service) -> None:
    ids = _world(service.mem)
    service.key("*")
    for key in (None, "ml_not-a-key"):
        with service.client(key) as c:
            for label, _, _, call in _calls(service, ids):
                r = call(c)
                assert r.status_code == 401, (label, key, r.text)
                assert r.json()["error"]["code"] == "unauthorized"


def test_read_only_key_writing_is_403_and_reading_is_allowed(service) -> None:
    ids = _world(service.mem)
    key = service.key("*", read_only=True)
    with service.client(key) as c:
        for label, write, _, call in _calls(service, ids):
            r = call(c)
            if write:
                assert r.status_code == 403, (label, r.text)
                assert "read-only" in r.json()["error"]["message"]
            else:
                assert r.status_code == 200, (label, r.text)


def test_another_tenants_key_is_refused_everywhere(service) -> None:
    ids = _world(service.mem)
    key = service.key("team-blue,alex")
    with service.client(key) as c:
        for label, _, by_id, call in _calls(service, ids):
            r = call(c)
            # an object addressed by id answers as if it did not exist (no existence leak)
            assert r.status_code == (404 if by_id else 403), (label, r.text)
    # nothing of team-red changed (nor was it erased)
    assert service.mem.store.get_fact(ids["fid"]).object == "Lisbon"
    assert service.mem.session(ids["sid"]).scope == RED
    assert service.mem.stats()["messages"] == 4


ERASURES = {"action sessions.forget", "action scopes.forget", "DELETE /v1/sessions/{id}",
            "DELETE /v1/scopes/{scope}"}


def test_the_owner_key_reaches_everything(service) -> None:
    ids = _world(service.mem)
    red = service.key("team-*")   # holds team-red, but not every scope
    full = service.key("*")
    with service.client(red) as c, service.client(full) as everything:
        erasures, of_the_fact = [], []
        for label, _, by_id, call in _calls(service, ids):
            if label in ERASURES:
                erasures.append((label, call))  # last: they erase what the others read
                continue
            if label.endswith(("facts.forget", "/v1/facts/{id}")):
                of_the_fact.append((label, call))  # a fact's erase takes the pack quoting it
                continue
            r = call(c)
            spans_all = label.endswith(("index", "stats"))
            if spans_all:  # a request over every scope needs '*'
                assert r.status_code == 403 and r.json()["error"]["field"] == "scope", label
                r = call(everything)
            assert r.status_code == 200, (label, r.text)
        got = [(label, call(c)) for label, call in of_the_fact]
        # the fact's two erases after the reads: the first erases it, the second finds none
        assert [r.status_code for _, r in got] == [200, 404], [(lb, r.text) for lb, r in got]
        done = {label: call(c) for label, call in erasures}
        assert done["action sessions.forget"].status_code == 200
        assert done["action sessions.forget"].json()["result"]["counts"]["sessions"] == 1
        assert done["DELETE /v1/sessions/{id}"].status_code == 404  # erased just before
        assert done["action scopes.forget"].json()["result"]["erased"] is True
        again = done["DELETE /v1/scopes/{scope}"]
        assert again.status_code == 200 and again.json()["erased"] is False
    assert service.mem.sessions(RED) == []
