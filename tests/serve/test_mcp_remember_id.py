"""MCP ``remember`` with a message id (session 22 follow-up): a client that retries a call
(at-least-once delivery) stores the message once, over stdio and over streamable HTTP;
another message under the same id is an error naming the id."""

from __future__ import annotations

import re

import pytest
from mcp import Client

from memlane.testing import memory
from tests.serve.test_mcp import call, over_http, server, talk


def _retries(answers: dict) -> object:
    async def body(c: Client) -> None:
        schema = next(t for t in (await c.list_tools()).tools if t.name == "remember")
        answers["id_described"] = bool(schema.input_schema["properties"]["id"].get("description"))
        first = {"scope": "retry-me", "role": "user", "text": "my badge number is 4471",
                 "id": "m-1"}
        # a retry without a time (the usual MCP call), then one with the stored time
        answers["first"] = await call(c, "remember", first)
        answers["again"] = await call(c, "remember", first)
        answers["timed"] = await call(c, "remember", {**first, "id": "m-2",
                                                      "at": "2026-01-02T10:00:00Z"})
        answers["timed_again"] = await call(c, "remember", {**first, "id": "m-2",
                                                            "at": "2026-01-02T10:00:00Z"})
        answers["other"] = await call(c, "remember", {**first, "text": "something else"},
                                      error=True)
        answers["note"] = await call(c, "remember", {"scope": "retry-me", "text": "a note",
                                                     "id": "n-1"}, error=True)
    return body


def _check(answers: dict, path: str) -> None:
    assert answers["id_described"]
    ids = [re.search(r"message (\d+)", answers[k]).group(1)  # type: ignore[union-attr]
           for k in ("first", "again", "timed", "timed_again")]
    assert ids[0] == ids[1] and ids[2] == ids[3] and ids[0] != ids[2], answers
    # a retry says nothing new was stored; it said "remembered message N" as for a new one
    assert all(answers[k].startswith("remembered message ") for k in ("first", "timed")), answers
    assert answers["again"].startswith(f"message {ids[0]} is already stored under id 'm-1'")
    assert answers["timed_again"].startswith(f"message {ids[2]} is already stored under id 'm-2'")
    assert all(answers[k].endswith("nothing added.") for k in ("again", "timed_again")), answers
    assert "'m-1'" in answers["other"] and "already exists" in answers["other"], answers["other"]
    assert "id: only messages take an id" in answers["note"], answers["note"]
    with memory(path) as mem:
        stored = [(m.ext_id, m.text) for s in mem.sessions(scope="retry-me")
                  for m in mem.messages(s.id)]
    # one message per id: the retries were not stored again, the other text not at all
    assert sorted(stored) == [("m-1", "my badge number is 4471"),
                              ("m-2", "my badge number is 4471")], stored


@pytest.mark.parametrize("via", ["stdio", "http"])
def test_a_retried_remember_with_an_id_stores_the_message_once(request, tmp_path, via):
    answers: dict = {}
    db = request.getfixturevalue("db")
    if via == "stdio":
        talk(server(tmp_path, db), _retries(answers))
    else:
        url, key, _ = request.getfixturevalue("service")
        over_http(url, key("*"), _retries(answers))
    _check(answers, db)
