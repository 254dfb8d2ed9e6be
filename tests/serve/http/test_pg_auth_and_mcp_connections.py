"""``memlane serve`` on PostgreSQL: the API-key lookup and ``/mcp`` under the REST routes'
connection rules (session 26).

- A connection the server ends during a request's own authentication read (the key looked
  up past ``serve.key_cache_seconds``, or an open service asking whether any key exists),
  before the call's body runs, failed the request with 503 "terminating connection due to
  administrator command" on every surface: the key lookup now goes through the rule of
  ``serve/again.py`` (a read: run once more on a new connection).
- ``/mcp``'s threads (the key lookup's and the tool's) kept their connections after a burst
  that took every connection the server allows, so the next MCP call was refused until anyio
  ended the idle threads; the REST routes give theirs back (``release_if_crowded``).

Statements are held at a table lock taken from outside and their backend ended while they
wait (seen in ``pg_stat_activity``), as in ``test_pg_connections``.
"""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving
from tests.serve.http.test_pg_connections import LIMIT, _limited_role
from tests.serve.http.test_pg_lost_every_surface import _while_ended

psycopg = pytest.importorskip("psycopg")

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}


def _mcp(c: httpx.Client, name: str, arguments: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """``tools/call`` on ``/mcp`` (stateless): the HTTP status and the JSON-RPC answer (or the
    service's error body)."""
    r = c.post("/mcp", headers=MCP_HEADERS, json={
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}})
    data = [line[5:].strip() for line in r.text.splitlines() if line.startswith("data:")]
    return r.status_code, json.loads(data[-1] if data else r.text)


def _said(body: dict[str, Any]) -> str:
    result = body.get("result") or {}
    return "\n".join(c.get("text", "") for c in result.get("content", []))


SURFACES = {
    "rest": lambda c: c.post("/v1/search", json={"query": "Lisbon", "scope": "a"}),
    "action": lambda c: c.post("/actions", json={"kind": "memory.search",
                                                 "input": {"query": "Lisbon", "scope": "a"}}),
    "mcp": lambda c: _mcp(c, "recall", {"query": "Lisbon", "scope": "a"}),
    "inspector": lambda c: c.get("/ui/facts", params={"scope": "a"}),
}


@pytest.mark.parametrize("keyed", [True, False], ids=["key lookup", "open service"])
@pytest.mark.parametrize("surface", list(SURFACES))
def test_a_connection_ended_during_the_key_lookup_runs_the_lookup_again(
        pg_service: tuple[str, Any], pg_url: str, surface: str, keyed: bool) -> None:
    url, mem = pg_service
    headers = {"Authorization": f"Bearer {create_key(mem.store, '*').key}"} if keyed else {}

    def send() -> Any:
        with httpx.Client(base_url=url, headers=headers, timeout=60) as c:
            return SURFACES[surface](c)

    # the key is looked up (or, open, whether any key exists is asked) before the call's
    # body runs: its read waits on api_keys, and its backend is ended there
    answer = _while_ended(pg_url, "api_keys", 1, send)
    if surface == "mcp":
        status, body = answer
        assert status == 200, body
        assert not body["result"].get("isError") and "Lisbon" in _said(body), body
    else:
        assert answer.status_code == 200, answer.text
        assert "Lisbon" in answer.text


def _recall(c: httpx.Client, scope: str | None = None) -> tuple[bool, str]:
    """An MCP ``recall`` over ``/mcp``: (answered, what was said)."""
    status, body = _mcp(c, "recall", {"query": "Lisbon March", **({"scope": scope} if scope else {})})
    if status != 200:
        return False, body["error"]["message"]
    return not body["result"].get("isError"), _said(body)


def _facts_page(c: httpx.Client, scope: str | None = None) -> tuple[bool, str]:
    """The inspector's facts page of ``scope``: (answered, the page)."""
    r = c.get("/ui/facts", params={"scope": scope or "a"})
    assert r.status_code in (200, 503), r.status_code
    return r.status_code == 200, r.text


@pytest.mark.parametrize("call", [_recall, _facts_page], ids=["mcp", "inspector"])
def test_threads_give_their_connections_back_when_the_server_is_full(pg_url: str, call: Any) -> None:
    """A burst of MCP calls (or inspector pages) against a role of ``CONNECTION LIMIT 6`` (as
    a server's ``max_connections``): every answer is a result or an error naming the cause;
    once the burst is over the service holds no more connections than before it and the next
    call is answered (the burst's idle threads kept every slot: it was refused, or answered
    by chance on a thread that held one)."""
    with _limited_role(pg_url, LIMIT) as url:
        # a budget above the server's limit: the server, not the budget, refuses (the
        # derived default would keep the burst within the role's slots by itself)
        mem = memory(url, serve={"db_connections": 10_000})
        mem.add_message("a", "user", "I moved to Lisbon in March", at="2024-05-01T10:00:00Z")
        mem.close_session("a")
        mem.index(now="2024-06-01T00:00:00Z")
        try:
            with serving(create_app(mem, worker=False)) as base:
                barrier = threading.Barrier(24)

                def client(_: int) -> list[tuple[bool, str]]:
                    with httpx.Client(base_url=base, timeout=60) as c:
                        barrier.wait(timeout=60)
                        return [call(c) for _ in range(6)]

                before = mem.store.db.open_connections()  # this test's, the service's start
                with ThreadPoolExecutor(24) as pool:
                    answers = [a for got in pool.map(client, range(24)) for a in got]
                # every thread of the burst went idle while the server was full and gave its
                # connection back (they kept every slot the role has: 6 open)
                assert mem.store.db.open_connections() <= before
                refused = [said for answered, said in answers if not answered]
                assert refused, "the burst never met the limit"
                assert all("too many connections" in said for said in refused), refused[0]
                with httpx.Client(base_url=base, timeout=60) as c:
                    answered, said = call(c, "a")
                assert answered and "Lisbon" in said, said
        finally:
            mem.close()
