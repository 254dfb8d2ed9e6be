"""A query parameter a route does not take is a 422 naming it, never silently ignored.

``GET /v1/graph/Lisbon?scpoe=chat-42`` answered from every scope (a misspelt ``scope``),
and ``POST /v1/search?scope=chat-42`` with a body searched every scope: the routes
without a query model ignored whatever the URL carried. Now every route refuses a
parameter it does not declare (the routes whose query is a model already did), after
authenticating the caller (401 before 422)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.http.rest import ROUTES

TAKES = {"/v1/graph/{entity}": {"scope"}, "/v1/sessions": {"scope", "status", "limit"},
         "/v1/facts": {"scope", "subject", "include_superseded"},
         "/v1/facts/history": {"subject", "predicate", "scope"},
         "/state/memory": {"scope", "last_event_id"}}
CALLS = [(method, path) for method, path, _ in ROUTES] + [
    ("POST", "/actions"), ("GET", "/state/memory"), ("GET", "/metrics")]
BODIES = {"/v1/messages": {"scope": "s", "text": "hi"}, "/v1/search": {"query": "hi"},
          "/v1/pack": {"query": "hi"}, "/v1/items": {"text": "hi", "scope": "s"},
          "/v1/index": {}, "/v1/sessions/close": {"scope": "s"},
          "/actions": {"kind": "stats"}}


def _url(path: str) -> str:
    return path.replace("{id}", "1").replace("{entity}", "Lisbon")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(call=st.sampled_from(CALLS),
       name=st.sampled_from(["scpoe", "scope", "k", "limit", "q", "kind"]) | st.text(
           "abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12))
def test_an_undeclared_query_parameter_is_refused_naming_it(sqlite_service, call, name) -> None:
    method, path = call
    if name in TAKES.get(path, set()):
        return
    with sqlite_service.client() as c:
        r = c.request(method, _url(path), params={name: "alice-assistant"},
                      json=BODIES.get(path) if method == "POST" else None)
    assert r.status_code == 422, (method, path, name, r.status_code, r.text[:200])
    assert r.json()["error"]["field"] == name, r.text


def test_declared_parameters_still_work_and_auth_comes_first(sqlite_service) -> None:
    sqlite_service.mem.add_message("chat-42", "user", "I moved to Lisbon", at="2024-01-01")
    key = sqlite_service.key("chat-*")
    with sqlite_service.client(key) as c:
        assert c.get("/v1/graph/Lisbon", params={"scope": "chat-42"}).status_code in (200, 404)
        assert c.get("/v1/sessions", params={"scope": "chat-42", "limit": 1}).status_code == 200
        misspelt = c.get("/v1/graph/Lisbon", params={"scpoe": "chat-42"})
        assert misspelt.status_code == 422, misspelt.text
        assert "this route takes scope" in misspelt.json()["error"]["message"]
    with sqlite_service.client() as anonymous:
        assert anonymous.get("/v1/stats", params={"x": "1"}).status_code == 401
