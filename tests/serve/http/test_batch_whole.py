"""A batch of messages (``POST /v1/messages``, ``/actions`` ``memory.add``) is stored whole
or not at all, and a refused one names the message at fault by its index, as sent
(session 27: ``/actions`` answered a batch's 403 as ``messages.1.scope``, every other
refusal of it as ``input.messages.1.…``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SCOPE = "chat-batch"
BAD: dict[str, tuple[dict[str, Any], int, str]] = {
    # what is wrong with one message: (its change, the status, the field under messages.N.)
    "role": ({"role": "robot"}, 422, "role"),
    "no text": ({"text": None}, 422, "text"),
    "unknown field": ({"zz": 1}, 422, "zz"),
    "lone surrogate": ({"text": "a\ud800b"}, 400, "text"),
    "blank text": ({"text": " \u200b "}, 400, "text"),
    "not a time": ({"at": "yesterday"}, 400, "at"),
    "time out of range": ({"at": 1e20}, 400, "at"),
    "scope on two lines": ({"scope": "chat-a\nb"}, 400, "scope"),
    "scope too long": ({"scope": "chat-" + "x" * 300}, 400, "scope"),
    "speaker with a NUL": ({"speaker": "a\x00b"}, 400, "speaker"),
    "id too long": ({"id": "x" * 300}, 400, "id"),
    "another tenant's scope": ({"scope": "other"}, 403, "scope"),
    "an id stored with another text": ({"id": "kept-1", "text": "not the same"}, 409, "id"),
}


@pytest.mark.parametrize("route", ["/v1/messages", "/actions"])
@pytest.mark.parametrize("bad", sorted(BAD))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.integers(1, 6), where=st.data())
def test_a_batch_with_one_bad_message_stores_nothing_and_names_it(service, size: int, where: Any,
                                                                  bad: str, route: str) -> None:
    change, status, name = BAD[bad]
    i = where.draw(st.integers(0, size - 1), label="index")
    key = service.key("chat-*")
    with service.client(key) as c:
        first = c.post("/v1/messages", json={"scope": SCOPE, "text": "kept", "id": "kept-1"})
        assert first.status_code == 200, first.text
        before = service.mem.stats()["messages"]
        batch = [{"scope": SCOPE, "text": f"message {j}", "id": f"b-{j}"} for j in range(size)]
        batch[i] = {**batch[i], **change}
        body: dict[str, Any] = {"messages": batch}
        prefix = ""
        if route == "/actions":
            body, prefix = {"kind": "memory.add", "input": body}, "input."
        r = c.post(route, headers={"Content-Type": "application/json"},
                   content=json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass"))
        assert r.status_code == status, (bad, i, r.text)
        assert r.json()["error"]["field"] == f"{prefix}messages.{i}.{name}", (bad, i, r.text)
        assert service.mem.stats()["messages"] == before, (bad, i, "a part of the batch was stored")
        # none of its ids was kept: the same ids with other texts are stored, not a 409
        again = [{"scope": SCOPE, "text": f"other {j}", "id": f"b-{j}"} for j in range(size)]
        assert c.post("/v1/messages", json={"messages": again}).status_code == 200
        assert c.delete(f"/v1/scopes/{SCOPE}").status_code == 200
