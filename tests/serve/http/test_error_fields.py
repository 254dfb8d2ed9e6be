"""A 422 explains the problem the client made, in the field it made it.

Two classes of request were answered with a misleading error:

- a union field (``budget: int | {max_tokens}``, ``topics: [str | {name, weight}]``) fails
  once per member, and the first member's complaint was reported: ``{"budget":
  {"max_tokens": 10}}`` answered 'budget: Input should be a valid integer (and 1 more
  problem(s))'. Now the member the value's shape matched explains it
  (``budget.max_tokens: must be an integer from 16 to 1000000``), and only other fields count
  as more problems;
- a body that is not JSON answered with the character offset as the field (``"field":
  "20"``, '20: JSON decode error'). Now: field null, 'the body is not valid JSON: Expecting
  value (at character 20)'.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CASES = [
    ("/v1/pack", {"query": "x", "budget": {"max_tokens": 10}}, "budget.max_tokens",
     "must be an integer from 16 to 1000000, got 10"),
    ("/v1/pack", {"query": "x", "budget": {"max_tokens": "many"}}, "budget.max_tokens",
     "valid integer"),
    ("/v1/pack", {"query": "x", "budget": 10}, "budget",
     "must be an integer from 16 to 1000000, got 10"),
    ("/v1/pack", {"query": "x", "budget": "many"}, "budget", "valid integer"),
    ("/v1/items", {"text": "x", "scope": "s", "topics": [{"name": 5}]}, "topics.0.name",
     "valid string"),
    ("/v1/items", {"text": "x", "scope": "s", "topics": ["a", {"name": "b", "weight": "w"}]},
     "topics.1.weight", "valid number"),
    ("/v1/search", {"query": "x", "since": [1]}, "since", "valid string"),
]


def test_a_union_field_is_explained_by_the_member_its_value_matched(sqlite_service) -> None:
    with sqlite_service.client() as c:
        for path, body, field, needle in CASES:
            r = c.post(path, json=body)
            assert r.status_code == 422, (body, r.text)
            err = r.json()["error"]
            assert err["field"] == field, (body, err)
            assert needle in err["message"] and "more problem" not in err["message"], err
        # the same through /actions, and another field's problem still counted
        r = c.post("/actions", json={"kind": "memory.pack", "input": {
            "query": "x", "budget": {"max_tokens": 10}, "k": 3}})
        err = r.json()["error"]
        assert err["field"] == "input.budget.max_tokens", err
        assert err["message"].endswith("(and 1 more problem(s))"), err


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=st.dictionaries(st.sampled_from(["scope", "text", "query"]), st.text(max_size=8),
                           min_size=1, max_size=3),
       cut=st.integers(1, 60))
def test_a_body_that_is_not_json_says_so_and_names_no_field(sqlite_service, doc, cut) -> None:
    raw = json.dumps(doc).encode()
    body = raw[:min(cut, len(raw) - 1)]  # a JSON document cut short is never JSON
    with sqlite_service.client() as c:
        for path in ("/v1/messages", "/v1/search", "/actions"):
            r = c.post(path, content=body, headers={"content-type": "application/json"})
            assert r.status_code == 422, (path, body, r.text)
            err = r.json()["error"]
            assert err["field"] is None, (body, err)
            assert err["message"].startswith("request: the body is not valid JSON: "), err


def test_an_unknown_field_is_named_as_sent_whatever_its_name(sqlite_service) -> None:
    """field_of drops location parts that look like union members (type names such as
    'none' or 'int', capitalised or dashed words); an unknown field called so lost its name
    ('request: Extra inputs are not permitted', field null). The name the client sent is
    kept."""
    with sqlite_service.client() as c:
        for name in ("none", "Int", "list[str]", "x-y", "Budget"):
            r = c.post("/v1/search", json={"query": "x", name: 1})
            assert r.status_code == 422 and r.json()["error"]["field"] == name, (name, r.text)
            nested = c.post("/v1/pack", json={"query": "x", "budget": {"max_tokens": 20,
                                                                       name: 1}})
            assert nested.json()["error"]["field"] == f"budget.{name}", (name, nested.text)
            q = c.get("/v1/stats", params={name: "1"})
            assert q.status_code == 422 and q.json()["error"]["field"] == name, (name, q.text)
