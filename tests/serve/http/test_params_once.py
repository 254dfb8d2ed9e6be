"""Query parameters given twice, and line breaks in path parameters (session 22).

``GET /v1/facts?scope=a&scope=b`` answered scope b's facts without a word about a (the
last value won; ``?limit=1&limit=2`` the same): every parameter of the service takes one
value, and one given twice is now a 422 naming it. ``DELETE /v1/scopes/a%0Ab`` and ``GET
/v1/graph/a%0Ab`` matched no route (Starlette's ``{name:path}`` stops at a line break) and
answered "Not Found" naming no field, as if the scope did not exist: now a 400 naming the
parameter, as a NUL there is, after the key check."""

from __future__ import annotations

import pytest

QUERIES = [  # (route, a valid query of one parameter each)
    ("/v1/sessions", {"scope": "s", "status": "closed", "limit": "5", "offset": "0"}),
    ("/v1/facts", {"scope": "s", "subject": "user", "include_superseded": "false",
                   "limit": "5", "offset": "0"}),
    ("/v1/facts/history", {"subject": "user", "predicate": "city", "scope": "s"}),
    ("/v1/sessions/1", {"from_turn": "1", "limit": "5"}),
    ("/v1/graph/Lisbon", {"scope": "s"}),
]


@pytest.mark.parametrize(("path", "query"), QUERIES)
def test_a_parameter_given_twice_is_refused_by_name(sqlite_service, path, query) -> None:
    svc = sqlite_service
    svc.mem.add_message("s", "user", "I live in Lisbon")
    svc.mem.close_session("s")
    with svc.client() as c:
        assert c.get(path, params=query).status_code in (200, 404)  # once: answered
        for name, value in query.items():
            twice = [*query.items(), (name, value if name != "scope" else "t")]
            r = c.get(path, params=twice)
            assert r.status_code == 422, (path, name, r.text)
            assert r.json()["error"]["field"] == name
            assert "given 2 times" in r.json()["error"]["message"]


def test_the_live_streams_resume_position_given_twice_is_refused(sqlite_service) -> None:
    with sqlite_service.client() as c, c.stream(
            "GET", "/state/memory", params=[("scope", "s"), ("last_event_id", "1"),
                                            ("last_event_id", "2")]) as r:
        assert r.status_code == 422  # (a stream, before: answered 200 and kept open)
        r.read()
        assert r.json()["error"]["field"] == "last_event_id"


@pytest.mark.parametrize(("method", "path", "field"), [
    ("DELETE", "/v1/scopes/a%0Ab", "scope"), ("DELETE", "/v1/scopes/team%0A", "scope"),
    ("GET", "/v1/graph/CI%0ACD", "entity"), ("HEAD", "/v1/graph/x%0A%0Ay", "entity")])
def test_a_line_break_in_a_path_parameter_is_refused_by_name(sqlite_service, method, path,
                                                              field) -> None:
    svc = sqlite_service
    svc.mem.add_message("team", "user", "kept")
    with svc.client() as c:  # open (no key yet): the parameter is judged
        r = c.request(method, path)
        assert r.status_code == 400, r.text
        if method != "HEAD":
            assert r.json()["error"]["field"] == field
            assert "must be one line" in r.json()["error"]["message"]
    key = svc.key("*")
    with svc.client() as c:  # a key exists: without it, 401 first
        assert c.request(method, path).status_code == 401
    with svc.client(key) as c:
        assert c.request(method, path).status_code == 400
    assert [s.scope for s in svc.mem.sessions("team")] == ["team"]  # nothing erased
