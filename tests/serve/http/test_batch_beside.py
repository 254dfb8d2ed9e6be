"""A message's field beside a batch (``{"messages": [...], "role": "assistant"}``) is
refused naming it, on ``POST /v1/messages`` and ``/actions`` ``memory.add``: it was dropped
without a word, each message stored as the user's, now (session 33, docs/hardening.md)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: each field of one message, a value it takes, in the order the model declares them
BESIDE: dict[str, Any] = {
    "scope": "chat-x", "role": "assistant", "at": "2024-01-02T03:04:05Z", "speaker": "Ana",
    "id": "m-9", "agent_id": "planner", "project_id": "atlas",
}
NAMES = {"agent_id": "agent", "project_id": "project"}


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
@pytest.mark.parametrize("route", ["/v1/messages", "/actions"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.lists(st.sampled_from(sorted(BESIDE)), min_size=1, max_size=4, unique=True))
def test_a_field_beside_a_batch_is_refused_naming_it(service, route: str, fields: list[str]) -> None:
    batch = {"messages": [{"scope": "chat-x", "text": "I moved to Lisbon"}],
             **{f: BESIDE[f] for f in fields}}
    body = batch if route == "/v1/messages" else {"kind": "memory.add", "input": batch}
    before = service.mem.stats()["messages"]
    with service.client() as http:
        res = http.post(route, json=body)
    assert res.status_code == 422, res.text
    first = [f for f in BESIDE if f in fields][0]
    field = NAMES.get(first, first)
    prefix = "" if route == "/v1/messages" else "input."
    assert res.json()["error"]["field"] == prefix + field, res.text
    assert f"a batch takes each message's own {field}" in res.json()["error"]["message"]
    assert service.mem.stats()["messages"] == before


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
def test_a_batch_alone_or_with_nulls_beside_it_is_stored(service) -> None:
    with service.client() as http:
        res = http.post("/v1/messages", json={"messages": [{"scope": "chat-x", "text": "hello",
                                                            "role": "assistant"}],
                                              "scope": None, "at": None})
    assert res.status_code == 200, res.text
    assert [m["role"] for m in res.json()["messages"]] == ["assistant"]
