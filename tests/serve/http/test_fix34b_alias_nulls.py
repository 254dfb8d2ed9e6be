"""One rule for a field the body names twice or beside a batch (session 34, fix34b): a null
is a field not given, and a refusal names the field as the body spelt it. ``"agent": null``
beside ``"agent_id": "x"`` was refused as the same parameter given twice while nulls beside
a batch were taken; ``"extra": {"lane": null}`` beside ``"lane"`` was refused as the lane
given twice; ``"agent_id"`` beside a batch was refused naming ``agent``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.http.models import AddInput
from tests.serve.http.test_said_session33 import BASE, PAIRS, VALUES, _post

ROUTES = {"memory.add": "/v1/messages", "memory.search": "/v1/search",
          "memory.upsert": "/v1/items"}
#: how each pair's value is read back from a 200 (None: a search stores nothing)
STORED = {"memory.add": lambda res, name: res["messages"][0][name],
          "memory.upsert": lambda res, name: res["item"].get(name),
          "memory.search": None}
SLOW = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
@SLOW
@given(pair=st.sampled_from(PAIRS), nulls=st.sampled_from([(True, False), (False, True),
                                                           (True, True), (False, False)]),
       alias_first=st.booleans(), via=st.sampled_from(["rest", "actions"]))
def test_a_null_beside_the_other_name_is_a_field_not_given(
        service, pair: tuple[str, str | None, str, str], nulls: tuple[bool, bool],
        alias_first: bool, via: str) -> None:
    kind, inside, name, alias = pair
    value = VALUES.get(name, "atlas")
    spelt = {name: None if nulls[0] else value, alias: None if nulls[1] else value}
    both = dict(reversed(spelt.items())) if alias_first else spelt
    body = ({**BASE[kind], **both} if inside is None else {inside: [{**BASE[kind], **both}]})
    route = "/actions" if via == "actions" else ROUTES[kind]
    before = service.mem.stats()
    res = _post(service, route, kind, body)
    if not any(nulls):  # given twice: refused naming the second name, as in session 33
        assert res.status_code == 422, res.text
        field = ("input." if via == "actions" else "") + (f"{inside}.0." if inside else "") + alias
        assert res.json()["error"]["field"] == field, res.text
        assert service.mem.stats() == before
        return
    assert res.status_code == 200, (body, res.text)
    got = res.json() if via == "rest" else res.json()["result"]
    read = STORED[kind]
    if read is not None and name != "ttl_seconds":
        assert read(got, name) == (None if all(nulls) else value), got


BESIDE: dict[str, Any] = {
    "scope": "chat-x", "role": "assistant", "at": "2024-01-02T03:04:05Z", "speaker": "Ana",
    "id": "m-9", "agent": "planner", "agent_id": "planner", "project": "atlas",
    "project_id": "atlas"}
ORDER = [s for n, f in AddInput.model_fields.items() for s in dict.fromkeys((n, f.alias or n))]


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
@SLOW
@given(fields=st.dictionaries(st.sampled_from(sorted(BESIDE)), st.booleans(), min_size=1,
                              max_size=4), via=st.sampled_from(["rest", "actions"]))
def test_beside_a_batch_a_null_is_not_given_and_a_value_is_named_as_spelt(
        service, fields: dict[str, bool], via: str) -> None:
    if "role" in fields:  # role takes no null (its type: one of four words), batch or not
        fields["role"] = True
    if {"agent", "agent_id"} <= {f for f, v in fields.items() if v} or \
            {"project", "project_id"} <= {f for f, v in fields.items() if v}:
        return  # both names given: the test above's refusal
    batch = {"messages": [{"scope": "chat-x", "text": "I moved to Lisbon"}],
             **{f: BESIDE[f] if given else None for f, given in fields.items()}}
    before = service.mem.stats()["messages"]
    res = _post(service, "/actions" if via == "actions" else "/v1/messages", "memory.add", batch)
    valued = [f for f in ORDER if fields.get(f)]
    if not valued:
        assert res.status_code == 200, res.text
        assert service.mem.stats()["messages"] == before + 1
        return
    assert res.status_code == 422, res.text
    field = ("input." if via == "actions" else "") + valued[0]
    assert res.json()["error"]["field"] == field, res.text
    assert f"a batch takes each message's own {valued[0]}:" in res.json()["error"]["message"]
    assert service.mem.stats()["messages"] == before


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
@pytest.mark.parametrize("via", ["rest", "actions"])
def test_a_null_extra_lane_beside_lane_is_not_given(service, via: str) -> None:
    route = "/actions" if via == "actions" else "/v1/items"
    for body, lane in (({"lane": "episodic", "extra": {"lane": None, "why": "x"}}, "episodic"),
                       ({"lane": None, "extra": {"lane": "episodic"}}, "episodic"),
                       ({"extra": {"lane": None}}, "semantic")):
        res = _post(service, route, "memory.upsert", {"text": "the user prefers tea", **body})
        assert res.status_code == 200, (body, res.text)
        item = (res.json() if via == "rest" else res.json()["result"])["item"]
        assert item["lane"] == lane and "lane" not in (item.get("extra") or {}), item
    res = _post(service, route, "memory.upsert", {"text": "the user prefers tea", "lane": "episodic",
                                                  "extra": {"lane": "episodic"}})
    assert res.status_code == 422, res.text
    assert res.json()["error"]["field"].endswith("extra.lane"), res.text
