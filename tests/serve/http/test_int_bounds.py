"""Every integer parameter, on every surface, refused in the same words (session 31).

The CLI said ``must be an integer of at least 1`` (session 30), while the library, the HTTP
actions and the MCP tools answered the same bad value with ``from 1 to
9223372036854775807`` or pydantic's ``Input should be greater than or equal to 1``. Now one
function words the range (``validate.int_range``): ``of at least N`` where 64 bits are the
only upper end, ``from N to M`` where the range has a real one; each refusal names its field.
The parameters are read from each surface's own description: the library's rules, the
actions' JSON schema in the service's OpenAPI document, and each MCP tool's input schema
(``tools/list`` of ``/mcp``).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.errors import ValidationError
from memlane.ingest.params import RULES
from memlane.ingest.validate import INT64_MAX
from tests.serve.test_mcp_fuzz import over_http

PROPERTY = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def words(low: int, high: int | None) -> str:
    """The range as a reader says it."""
    return f"of at least {low}" if high is None or high >= INT64_MAX else f"from {low} to {high}"


def said_well(message: str, field: str, low: int, high: int | None) -> None:
    assert field in message, message
    assert f"must be an integer {words(low, high)}" in message, message
    assert str(INT64_MAX) not in message, message


def below(low: int) -> st.SearchStrategy[int]:
    """A value under ``low``: just under it, far under it, or past 64 bits."""
    return st.integers(min_value=low - 2**66, max_value=low - 1) | st.just(low - 1)


def above(high: int | None) -> st.SearchStrategy[int]:
    top = INT64_MAX if high is None else high
    return st.integers(min_value=top + 1, max_value=top + 2**66) | st.just(top + 1)


# -- the library ------------------------------------------------------------------------
LIBRARY = sorted((method, name, rule.bounds) for method, rules in RULES.items()
                 for name, rule in rules.items()
                 if isinstance(getattr(rule, "bounds", (None,))[0], int))


def test_the_library_has_integer_parameters_to_check() -> None:
    names = {(m, n) for m, n, _ in LIBRARY}
    assert {("sessions", "limit"), ("sessions", "offset"), ("session", "session_id"),
            ("search", "k"), ("upsert", "ttl_seconds")} <= names


@PROPERTY
@given(data=st.data())
def test_every_library_integer_parameter_says_its_range_in_words(tmp_path_factory, data) -> None:
    from memlane.testing import memory

    method, name, (low, high) = data.draw(st.sampled_from(LIBRARY))
    value = data.draw(below(low) | (above(high) if high < INT64_MAX else below(low)))
    mem = memory(tmp_path_factory.mktemp("lib") / "m.db")
    try:
        with pytest.raises(ValidationError) as e:
            RULES[method][name](value, name, mem.config)
        said_well(str(e.value), name, low, high)
        assert e.value.field == name
    finally:
        mem.close()


def test_a_memory_method_says_at_least(tmp_path) -> None:
    from memlane.testing import memory

    mem = memory(tmp_path / "m.db")
    try:
        with pytest.raises(ValidationError) as e:
            mem.sessions(offset=-1)
        assert str(e.value) == "offset: must be an integer of at least 0, got -1"
        with pytest.raises(ValidationError) as e:
            mem.session(0)
        assert str(e.value) == "session_id: must be an integer of at least 1, got 0"
        with pytest.raises(ValidationError) as e:
            mem.sessions(limit=0)
        assert str(e.value) == "limit: must be an integer from 1 to 100000, got 0"
    finally:
        mem.close()


# -- the HTTP actions -------------------------------------------------------------------
def _deref(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    found: Any = doc
    for part in ref.removeprefix("#/").split("/"):
        found = found[part]
    return _deref(doc, found)


def integer_fields(doc: dict[str, Any], schema: dict[str, Any], path: str = ""
                   ) -> list[tuple[str, int, int | None]]:
    """``(dotted field, minimum, maximum)`` of every integer field under ``schema``."""
    schema = _deref(doc, schema)
    found = []
    for member in schema.get("anyOf", schema.get("oneOf", [schema])):
        member = _deref(doc, member)
        if member.get("type") == "integer" and "minimum" in member:
            # the OpenAPI document writes them as floats (1.0, 9.223372036854776e+18)
            high = member.get("maximum")
            found.append((path, int(member["minimum"]),
                          None if high is None or high >= INT64_MAX else int(high)))
        for name, prop in member.get("properties", {}).items():
            found += integer_fields(doc, prop, f"{path}.{name}" if path else name)
    return found


def action_fields(doc: dict[str, Any]) -> list[tuple[str, str, int, int | None]]:
    """``(kind, field, minimum, maximum)`` of every integer input of every action."""
    body = doc["paths"]["/actions"]["post"]["requestBody"]["content"]["application/json"]
    out = []
    for variant in _deref(doc, body["schema"])["oneOf"]:
        variant = _deref(doc, variant)
        kind = variant["properties"]["kind"]["const"]
        for field, low, high in integer_fields(doc, variant["properties"]["input"]):
            out.append((kind, field, low, high))
    return out


def _put(obj: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    head, _, rest = dotted.partition(".")
    obj[head] = _put(obj.get(head, {}), rest, value) if rest else value
    return obj


BASE = {"memory.search": {"query": "x"}, "memory.pack": {"query": "x"},
        "memory.upsert": {"text": "x"}, "facts.history": {"subject": "u", "predicate": "p"},
        "graph.show": {"entity": "x"}, "memory.add": {"scope": "s", "role": "user", "text": "x"}}


def test_every_integer_input_of_every_action_is_refused_in_words(sqlite_service) -> None:
    key = sqlite_service.key()
    with sqlite_service.client(key) as c:
        doc = c.get("/openapi.json").json()
        fields = action_fields(doc)
        assert {("sessions.list", "offset"), ("memory.search", "k"),
                ("sessions.show", "from_turn"), ("memory.pack", "budget"),
                ("memory.pack", "budget.max_tokens")} <= {(k, f) for k, f, _, _ in fields}

        @PROPERTY
        @given(data=st.data())
        def check(data: Any) -> None:
            kind, field, low, high = data.draw(st.sampled_from(fields))
            value = data.draw(below(low) | (above(high) if high is not None else below(low)))
            body = _put(json.loads(json.dumps(BASE.get(kind, {}))), field, value)
            if "id" not in field and kind in ("sessions.show", "facts.forget", "packs.show",
                                               "sessions.forget"):
                body.setdefault("id", 1)
            r = c.post("/actions", json={"kind": kind, "input": body})
            assert 400 <= r.status_code < 500, (kind, field, value, r.text)
            error = r.json()["error"]
            said_well(error["message"], field, low, high)
            assert error["field"] == f"input.{field}", (kind, error)

        check()


def test_the_rest_routes_path_and_query_integers_say_at_least(sqlite_service) -> None:
    with sqlite_service.client(sqlite_service.key()) as c:
        for path, field, low, high in (("/v1/sessions/0", "id", 1, None),
                                       ("/v1/sessions/1?from_turn=0", "from_turn", 1, None),
                                       ("/v1/sessions/1?limit=0", "limit", 1, 100_000),
                                       (f"/v1/sessions/{2**64}", "id", 1, None)):
            r = c.get(path)
            assert r.status_code == 422, (path, r.text)
            said_well(r.json()["error"]["message"], field, low, high)


# -- the MCP tools ----------------------------------------------------------------------
def _call(url: str, key: str, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    raw = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                      "params": {"name": tool, "arguments": args}}).encode()
    (answer,) = over_http(url, key, raw)
    return answer


NEEDS = {"remember": {"text": "x"}, "recall": {"query": "x"}, "context": {"question": "x"},
         "fact_history": {"subject": "u", "predicate": "p"}, "session": {"session_id": 1},
         "summarize": {}}


def test_every_integer_input_of_every_mcp_tool_is_refused_in_words(sqlite_service) -> None:
    key = sqlite_service.key()
    raw = b'{"jsonrpc":"2.0","id":"tools","method":"tools/list"}'
    (listing,) = over_http(sqlite_service.url, key, raw)
    takes = {tool["name"]: set(tool["inputSchema"]["properties"])
             for tool in listing["result"]["tools"]}
    fields = [(tool["name"], field, low, high)
              for tool in listing["result"]["tools"]
              for field, low, high in integer_fields(tool["inputSchema"], tool["inputSchema"])]
    assert {("sessions", "offset"), ("recall", "k"), ("forget", "fact_id"),
            ("remember", "ttl_seconds")} <= {(t, f) for t, f, _, _ in fields}

    @PROPERTY
    @given(data=st.data())
    def check(data: Any) -> None:
        tool, field, low, high = data.draw(st.sampled_from(fields))
        value = data.draw(below(low) | (above(high) if high is not None else below(low)))
        args = {**({"scope": "s"} if "scope" in takes[tool] else {}), **NEEDS.get(tool, {}),
                field: value}
        answer = _call(sqlite_service.url, key, tool, args)
        if "error" in answer:
            message = answer["error"]["message"]
        else:
            assert answer["result"]["isError"], answer
            message = " ".join(c["text"] for c in answer["result"]["content"])
        said_well(message, field, low, high)
        assert re.search(rf"\b{field}: must be an integer", message), message

    check()
