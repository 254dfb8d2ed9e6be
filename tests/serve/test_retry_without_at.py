"""A message sent again with its ``id`` and no ``at`` (a retry after a timeout) is the
stored message, on the CLI and over HTTP as over MCP: it was dated "now" on each attempt,
so the retry was another message under that id, a conflict (exit 1, 409), though the README
says delivering a message twice is safe with an id (session 33, docs/hardening.md)."""

from __future__ import annotations

import json

import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.cli import cli
from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving


def test_the_cli_stores_a_retried_message_once(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    runner = CliRunner()
    args = ["--db", db, "add", "I moved to Lisbon", "--scope", "chat", "--id", "m-1", "--json"]
    first = runner.invoke(cli, args)
    time.sleep(0.01)
    again = runner.invoke(cli, args)
    assert first.exit_code == again.exit_code == 0, again.output
    told = json.loads(first.stdout), json.loads(again.stdout)
    # the stored message, its id and time; and whether it was stored before (session 35)
    assert [t.pop("already_stored") for t in told] == [False, True]
    assert told[0] == told[1]
    other = runner.invoke(cli, ["--db", db, "add", "I moved to Porto", "--scope", "chat", "--id", "m-1"])
    assert other.exit_code == 1 and "id: 'm-1' already exists in scope 'chat'" in other.output
    with memory(db) as mem:
        assert mem.stats()["messages"] == 1


@pytest.fixture(params=["sqlite", "postgres"])
def service(request: pytest.FixtureRequest, tmp_path: Path):
    mem = memory(request.getfixturevalue("pg_url") if request.param == "postgres"
                 else tmp_path / "served.db")
    try:
        key = create_key(mem.store, "*").key
        with serving(create_app(mem, worker=False)) as url, httpx.Client(
                base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=30) as http:
            yield http, mem
    finally:
        mem.close()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.sampled_from(["I moved to Lisbon", "my cat is Miso", "tea, please"]),
                      min_size=1, max_size=4, unique=True),
       attempts=st.integers(2, 3), batched=st.booleans(), route=st.sampled_from(["/v1/messages", "/actions"]))
def test_http_stores_a_retried_message_once(service, texts, attempts, batched, route) -> None:
    http, mem = service
    scope = f"chat-{time.monotonic_ns()}"  # each example its own scope
    messages = [{"scope": scope, "text": t, "id": f"m-{i}"} for i, t in enumerate(texts)]
    bodies = ([{"messages": messages}] if batched else [dict(m) for m in messages])
    answers = []
    for _ in range(attempts):
        for body in bodies:
            sent = body if route == "/v1/messages" else {"kind": "memory.add", "input": body}
            res = http.post(route, json=sent)
            assert res.status_code == 200, res.text
            answers.append(res.json()["messages"] if route == "/v1/messages" else res.json()["result"]["messages"])
        time.sleep(0.002)
    assert all(a == answers[i % len(bodies)] for i, a in enumerate(answers))
    assert len(mem.store.session_messages(answers[0][0]["session_id"])) == len(texts)
    clash = http.post("/v1/messages", json={"scope": scope, "text": "something else", "id": "m-0"})
    assert clash.status_code == 409 and clash.json()["error"]["field"] == "id", clash.text
