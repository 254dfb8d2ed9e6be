"""The library and HTTP answer a message sent again alike (session 35, fix35b): a retry
that leaves ``at`` out takes the stored message's time, so role, text, speaker, agent and
project decide whether it is that message again. HTTP looked the id up before calling
``Memory`` to do so; ``Memory.add_message`` and ``add_messages`` dated such a retry now,
another message under its id (``ConflictError``), where the same request over HTTP was
answered 200 with the stored message."""

from __future__ import annotations

import itertools
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.errors import ConflictError

AT = {"m-1": "2026-01-02T10:00:00Z", "m-2": "2026-01-02T10:05:00Z"}
SCOPES = itertools.count()

message = st.fixed_dictionaries({"id": st.sampled_from(sorted(AT)),
                                 "text": st.sampled_from(["deploys on Tuesday", "tests hourly"]),
                                 "timed": st.booleans()})
calls = st.lists(st.tuples(st.lists(message, min_size=1, max_size=3), st.booleans()),
                 min_size=1, max_size=5)


def _sent(m: dict[str, Any], scope: str) -> dict[str, Any]:
    one = {"scope": scope, "role": "user", "text": m["text"], "id": m["id"]}
    return {**one, "at": AT[m["id"]]} if m["timed"] else one


def _expected(held: dict[str, tuple[str, bool]], msgs: list[dict[str, Any]]) -> Any:
    """What a call answers: ``("conflict", index)`` for the first message whose id its scope
    holds with another message (a batch stores none), else whether each was stored before.
    A message stored without a time was dated now: a timed one under its id is another."""
    mine = dict(held)
    said = []
    for i, m in enumerate(msgs):
        if m["id"] in mine:
            text, timed = mine[m["id"]]
            if text != m["text"] or (m["timed"] and not timed):
                return ("conflict", i)
            said.append(True)
        else:
            mine[m["id"]] = (m["text"], m["timed"])
            said.append(False)
    held.update(mine)
    return said


def _library(mem: Any, msgs: list[dict[str, Any]], batch: bool, scope: str) -> Any:
    sent = [_sent(m, scope) for m in msgs]
    try:
        if batch:
            mem.add_messages(sent)
        else:
            one = sent[0]
            mem.add_message(one["scope"], one["role"], one["text"], one.get("at"), id=one["id"])
    except ConflictError as e:
        return ("conflict", int(e.field.split(".")[1]) if batch else 0)
    return list(mem.last_already_stored)


def _http(http: httpx.Client, msgs: list[dict[str, Any]], batch: bool, scope: str) -> Any:
    sent = [_sent(m, scope) for m in msgs]
    res = http.post("/v1/messages", json={"messages": sent} if batch else sent[0])
    if res.status_code == 409:
        field = res.json()["error"]["field"]
        return ("conflict", int(field.split(".")[1]) if batch else 0)
    assert res.status_code == 200, res.text
    return res.json()["already_stored"]


@pytest.mark.parametrize("service", ["sqlite", "postgres"], indirect=True)
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=calls)
def test_the_library_and_http_answer_a_retry_alike(service: Any, script: Any) -> None:
    n = next(SCOPES)
    held_lib: dict[str, tuple[str, bool]] = {}
    held_http: dict[str, tuple[str, bool]] = {}
    with service.client() as http:
        for msgs, batch in script:
            msgs = msgs if batch else msgs[:1]
            lib = _library(service.mem, msgs, batch, f"lib{n}")
            over = _http(http, msgs, batch, f"http{n}")
            assert lib == over == _expected(held_lib, msgs) == _expected(held_http, msgs), msgs
    for scope in (f"lib{n}", f"http{n}"):  # each id stored once, with its first text
        stored = [m for s in service.mem.sessions(scope=scope) for m in service.mem.messages(s.id)]
        assert sorted(m.ext_id for m in stored) == sorted(held_lib)
        assert {m.ext_id: m.text for m in stored} == {k: v[0] for k, v in held_lib.items()}


def test_an_untimed_message_s_id_is_read_once(tmp_path: Any) -> None:
    """A message with an id and no time costs HTTP no look-up of its own: each id is read
    once by a new message (the store's own check) and twice by a retry (that check, and
    the stored message read back); HTTP read each once more before calling ``Memory``."""
    from memlane.config import load_config
    from memlane.memory import Memory
    from memlane.serve.http import create_app
    from memlane.testing import HashingEmbedder, IdReads
    from memlane.testing.http import serving

    tracer = IdReads()
    reads = tracer.reads
    cfg = load_config(environ={}, overrides={"db": str(tmp_path / "m.db")})
    batch = [{"scope": "s", "role": "user", "text": f"line {i}", "id": f"n-{i}"} for i in range(5)]
    with Memory(config=cfg, embedder=HashingEmbedder(dim=64), tracer=tracer) as mem, \
            serving(create_app(mem, worker=False)) as url, \
            httpx.Client(base_url=url, timeout=30.0) as http:
        for body, n in (({"messages": batch}, 5), (batch[0], 1)):
            for again in (False, True):  # (the single message: a retry only)
                reads.clear()
                res = http.post("/v1/messages", json=body)
                assert res.status_code == 200, res.text
                assert res.json()["already_stored"] == [again or n == 1] * n
                per = 2 if again or n == 1 else 1
                assert dict(reads) == {m["id"]: per for m in batch[:n]}, reads
