"""A message sent again under a stored id is answered 200 with the stored message, as a
first store is (at-least-once delivery), and the answer said nothing of which it was: the
CLI prints "already stored under id" and MCP's ``remember`` "nothing added", HTTP's JSON
nothing (session 35, fix35). ``already_stored`` now holds one boolean per message, in the
order sent: true when the message's id named one its scope held before the request."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

IDS = ("m-1", "m-2", "m-3")
AT = {"m-1": "2026-01-02T10:00:00Z", "m-2": "2026-01-02T10:05:00Z", "m-3": "2026-01-02T10:09:00Z"}

SCOPES = itertools.count()
message = st.fixed_dictionaries(
    {"id": st.sampled_from(IDS)},
    optional={"spelt": st.sampled_from(["", " ", "\t"]), "timed": st.booleans()})
requests = st.lists(
    st.tuples(st.lists(message, min_size=1, max_size=4), st.booleans(),
              st.sampled_from(["/v1/messages", "/actions"])),
    min_size=1, max_size=4)


def _body(msgs: list[dict[str, Any]], batch: bool, route: str, scope: str) -> dict[str, Any]:
    sent = []
    for m in msgs:
        one: dict[str, Any] = {"scope": scope, "role": "user", "text": f"text of {m['id']}",
                               "id": m.get("spelt", "") + m["id"]}  # " m-1" is m-1
        if m.get("timed", True):
            one["at"] = AT[m["id"]]
        sent.append(one)
    body: dict[str, Any] = {"messages": sent} if batch else sent[0]
    return body if route == "/v1/messages" else {"kind": "memory.add", "input": body}


@pytest.mark.parametrize("service", ["sqlite", "postgres"], indirect=True)
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=requests)
def test_already_stored_says_which_messages_their_scope_held(service, script) -> None:
    scope = f"s{next(SCOPES)}"  # a fresh scope for each example (the service is the test's)
    held: dict[str, int] = {}
    with service.client() as http:
        for msgs, batch, route in script:
            msgs = msgs if batch else msgs[:1]
            # a message first stored without a time is dated now: its retry must leave the
            # time out too, or it is another message under its id (a 409, not this test's)
            for m in msgs:
                if m["id"] not in held:
                    m["timed"] = True
            res = http.post(route, json=_body(msgs, batch, route, scope))
            assert res.status_code == 200, res.text
            out = res.json() if route == "/v1/messages" else res.json()["result"]
            got = out["messages"]
            assert len(got) == len(msgs) and len(out["already_stored"]) == len(msgs)
            assert out["already_stored"] == [m["id"] in held for m in msgs], (held, msgs)
            for m, g in zip(msgs, got, strict=True):
                assert g["ext_id"] == m["id"]
                if m["id"] in held:
                    assert g["id"] == held[m["id"]]  # the stored one, not a new one
                held.setdefault(m["id"], g["id"])


def test_a_retry_answer_keeps_its_other_fields(sqlite_service) -> None:
    """The first store and its retry answer the same message; only already_stored differs."""
    sent = {"scope": "team", "role": "user", "text": "deploys go out on Tuesdays", "id": "d-1"}
    with sqlite_service.client() as http:
        first = http.post("/v1/messages", json=sent)
        again = http.post("/v1/messages", json=sent)
    assert first.status_code == again.status_code == 200
    assert first.json()["already_stored"] == [False] and again.json()["already_stored"] == [True]
    assert first.json()["messages"] == again.json()["messages"]
    assert set(again.json()) == {"messages", "already_stored"}
