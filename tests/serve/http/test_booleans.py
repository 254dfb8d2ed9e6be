"""A JSON ``true``/``false`` where a number or a time belongs is a 422 naming the field.

pydantic reads ``true`` as 1 and ``false`` as 0 for an int or float field, so the service
stored ``{"at": true}`` as a message of 1970-01-01T00:00:01Z, gave ``{"ttl_s": true}`` a
one-second life and answered ``{"k": true}`` with one hit. memlane's own rules refuse a
bool for every number (docs/hardening.md); the service now does too, for every number
and time field of every action, nested ones included."""

from __future__ import annotations

from typing import Any

import pytest

from memlane.serve.http.actions import ACTIONS

BASE: dict[str, dict[str, Any]] = {
    "memory.add": {"scope": "s", "text": "hello"},
    "memory.search": {"query": "hello"},
    "memory.pack": {"query": "hello"},
    "memory.upsert": {"text": "hello", "scope": "s"},
    "sessions.close": {},
    "index": {},
    "sessions.list": {},
    "sessions.show": {"id": 1},
    "facts.list": {},
    "facts.history": {"subject": "user", "predicate": "lives_in"},
    "facts.forget": {},
    "sessions.forget": {},
    "scopes.forget": {"scope": "s"},
    "graph.show": {"entity": "Lisbon"},
    "packs.show": {},
    "stats": {},
}


def _types(prop: dict[str, Any]) -> set[str]:
    if "anyOf" in prop:
        return {t for member in prop["anyOf"] for t in _types(member)}
    return {"object"} if "$ref" in prop else {prop.get("type", "any")}


def number_fields() -> list[tuple[str, str]]:
    """(action kind, field as the client writes it) for every number or time field."""
    out = []
    for kind, act in sorted(ACTIONS.items()):
        props = act.model.model_json_schema(by_alias=True).get("properties", {})
        for name, prop in props.items():
            kinds = _types(prop)
            if kinds & {"integer", "number"} and not kinds & {"boolean", "any"}:
                out.append((kind, name))
    return out


FIELDS = number_fields()


def test_the_table_covers_the_known_numbers() -> None:
    assert {("memory.add", "at"), ("memory.search", "k"), ("memory.search", "since"),
            ("memory.pack", "budget"), ("memory.upsert", "ttl_s"), ("memory.upsert", "trust"),
            ("sessions.show", "id"), ("sessions.close", "session_id"),
            ("sessions.list", "limit")} <= set(FIELDS)
    assert set(BASE) == set(ACTIONS)


@pytest.mark.parametrize("value", [True, False])
def test_a_boolean_for_any_number_or_time_is_refused_naming_it(sqlite_service, value) -> None:
    with sqlite_service.client() as c:
        for kind, field in FIELDS:
            r = c.post("/actions", json={"kind": kind, "input": {**BASE[kind], field: value}})
            assert r.status_code == 422, (kind, field, r.text)
            err = r.json()["error"]
            assert err["field"] == f"input.{field}", (kind, field, err)
            assert "not true or false" in err["message"], err


def test_nested_numbers_and_the_rest_routes_refuse_booleans_and_store_nothing(sqlite_service) -> None:
    with sqlite_service.client() as c:
        cases = [
            ("/v1/messages", {"scope": "s", "text": "hi", "at": True}, "at"),
            ("/v1/messages", {"messages": [{"scope": "s", "text": "hi"},
                                           {"scope": "s", "text": "hi", "at": False}]},
             "messages.1.at"),
            ("/v1/items", {"text": "note", "scope": "s", "ttl_s": True}, "ttl_s"),
            ("/v1/search", {"query": "hi", "k": True}, "k"),
        ]
        for path, body, field in cases:
            r = c.post(path, json=body)
            assert r.status_code == 422, (path, body, r.text)
            assert r.json()["error"]["field"] == field, r.text
        assert c.get("/v1/stats").json()["messages"] == 0
        assert c.get("/v1/stats").json()["items"] == {}
        # booleans stay booleans, and numbers numbers
        ok = c.post("/v1/items", json={"text": "note", "scope": "s", "pinned": True,
                                       "ttl_s": 60, "trust": 1, "extra": {"flag": True}})
        assert ok.status_code == 200, ok.text
        assert ok.json()["item"]["pinned"] is True
        assert ok.json()["item"]["extra"] == {"flag": True}
