"""A message sent again under a stored id is answered 200 with the stored message, as a
first store is (at-least-once delivery), and the answer said nothing of which it was: the
CLI prints "already stored under id" and MCP's ``remember`` "nothing added", HTTP's JSON
nothing (session 35, fix35). ``already_stored`` now holds one boolean per message, in the
order sent: true when the message's id named one its scope held when it was stored (before
the request, or earlier in its batch): nothing was stored for it."""

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
            said = []  # what the scope held at each message (a batch's own earlier ones too)
            for m, g in zip(msgs, got, strict=True):
                assert g["ext_id"] == m["id"]
                said.append(m["id"] in held)
                if m["id"] in held:
                    assert g["id"] == held[m["id"]]  # the stored one, not a new one
                held.setdefault(m["id"], g["id"])
            assert out["already_stored"] == said, (held, msgs)


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


def test_memory_and_client_say_it_as_last_already_stored(sqlite_service) -> None:
    """The library's own word (``Memory.last_already_stored``, which the service answers
    from) and the remote ``Client``'s, alike; a refused call leaves it empty."""
    from memlane import Client
    from memlane.errors import ConflictError

    mem = sqlite_service.mem
    client = Client(sqlite_service.url, key=sqlite_service.key())
    try:
        for who, scope in ((mem, "lib"), (client, "remote")):
            nightly = "2026-01-01T09:00:00Z"
            who.add_message(scope, "user", "the build runs nightly", nightly, id="b-1")
            assert who.last_already_stored == (False,)
            who.add_message(scope, "user", "the build runs nightly", nightly, id=" b-1")
            assert who.last_already_stored == (True,)
            batch = [{"scope": scope, "role": "user", "text": "the build runs nightly",
                      "id": "b-1", "at": nightly},
                     {"scope": scope, "role": "user", "text": "tests run hourly", "id": "t-1",
                      "at": "2026-01-02T10:00:00Z"},
                     {"scope": scope, "role": "user", "text": "tests run hourly", "id": "t-1",
                      "at": "2026-01-02T10:00:00Z"}]
            who.add_messages(batch)
            assert who.last_already_stored == (True, False, True)
            with pytest.raises(ConflictError):
                who.add_message(scope, "user", "something else", id="b-1")
            assert who.last_already_stored == ()
    finally:
        client.close()


def test_a_new_message_s_id_is_read_once(tmp_path) -> None:
    """Saying ``already_stored`` costs no read: each new message's id is looked up once per
    request (the store's own check), counted by the store's tracer; a look-up of its own
    before storing read each twice."""
    import httpx

    from memlane.config import load_config
    from memlane.memory import Memory
    from memlane.serve.http import create_app
    from memlane.testing import HashingEmbedder, IdReads
    from memlane.testing.http import serving

    tracer = IdReads()
    reads = tracer.reads
    cfg = load_config(environ={}, overrides={"db": str(tmp_path / "m.db")})
    with Memory(config=cfg, embedder=HashingEmbedder(dim=64), tracer=tracer) as mem, \
            serving(create_app(mem, worker=False)) as url, \
            httpx.Client(base_url=url, timeout=30.0) as http:
        batch = [{"scope": "s", "role": "user", "text": f"line {i}", "id": f"n-{i}",
                  "at": f"2026-01-02T10:{i:02d}:00Z"} for i in range(20)]
        for body in ({"messages": batch}, {**batch[0], "id": "one", "text": "alone"}):
            reads.clear()
            res = http.post("/v1/messages", json=body)
            assert res.status_code == 200, res.text
            assert not any(res.json()["already_stored"])
            assert reads and set(reads.values()) == {1}, reads
