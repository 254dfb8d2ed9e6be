"""A field the service dropped without a word is refused naming it (session 33,
docs/hardening.md): a message's field beside a batch (``{"messages": [...], "role":
"assistant"}``, each message was stored as the user's, now), ``now`` closing a scope's or
one session (it goes with ``idle``), and a search filter given twice (``kinds`` and the
overlay spec's ``filters.kinds``: the second won)."""

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
    field = first  # as the body spelt it (session 34, fix34b: agent_id was named agent)
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


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
@pytest.mark.parametrize("route", ["/v1/sessions/close", "/actions"])
@pytest.mark.parametrize("which", [{"scope": "chat-x"}, {"session_id": 1}])
def test_now_without_idle_is_refused_naming_it(service, route: str, which: dict[str, Any]) -> None:
    service.mem.add_message("chat-x", "user", "I moved to Lisbon", at="2024-01-01T10:00:00Z")
    body = {**which, "now": "2024-01-01T12:00:00Z"}
    with service.client() as http:
        res = http.post(route, json=body if route != "/actions" else
                        {"kind": "sessions.close", "input": body})
        assert res.status_code == 422, res.text
        assert res.json()["error"]["field"] == ("now" if route != "/actions" else "input.now")
        assert "now goes with idle" in res.json()["error"]["message"]
        assert service.mem.session(1).status == "open"
        ok = http.post("/v1/sessions/close", json={"idle": True, "now": "2024-01-01T12:00:00Z"})
    assert ok.status_code == 200 and ok.json()["closed"] == [1], ok.text


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
@pytest.mark.parametrize("name,value", [("kinds", ["turn"]), ("lanes", ["semantic"]),
                                        ("privacy", ["private"])])
def test_a_filter_given_twice_is_refused_naming_it(service, name: str, value: list[str]) -> None:
    with service.client() as http:
        res = http.post("/v1/search", json={"query": "Lisbon", name: value,
                                             "filters": {name: value}})
        assert res.status_code == 422, res.text
        assert res.json()["error"]["field"] == f"filters.{name}"
        assert f"{name} is given twice, as {name} and as filters.{name}" in res.text
        for alone in ({name: value}, {"filters": {name: value}}):
            assert http.post("/v1/search", json={"query": "Lisbon", **alone}).status_code == 200


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
@pytest.mark.parametrize("route", ["/v1/items", "/actions"])
def test_an_items_lane_is_never_dropped(service, route: str) -> None:
    """``POST /v1/items`` with ``"lane": ""`` stored the item in ``semantic``, and with both
    ``lane`` and ``extra.lane`` kept the first and dropped the second, each without a word."""
    def post(http: Any, body: dict[str, Any]) -> Any:
        return http.post(route, json=body if route == "/v1/items" else
                         {"kind": "memory.upsert", "input": body})

    base = {"text": "prefer window seats", "scope": "chat-x", "kind": "preference"}
    with service.client() as http:
        blank = post(http, {**base, "lane": ""})
        assert blank.status_code == 400, blank.text
        assert "lane: must be one of" in blank.json()["error"]["message"]
        twice = post(http, {**base, "lane": "profile", "extra": {"lane": "episodic"}})
        assert twice.status_code == 422, twice.text
        assert twice.json()["error"]["field"].endswith("extra.lane")
        assert "the lane is given twice" in twice.json()["error"]["message"]
        assert service.mem.stats()["items"] == {}
        for body, lane in (({**base, "lane": "profile"}, "profile"),
                           ({**base, "text": "aisle", "extra": {"lane": "episodic"}}, "episodic"),
                           ({**base, "text": "tea"}, "semantic")):
            res = post(http, body)
            assert res.status_code == 200, res.text
            item = res.json()["item"] if route == "/v1/items" else res.json()["result"]["item"]
            assert item["lane"] == lane
