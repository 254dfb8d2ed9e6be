"""A PostgreSQL connection lost in the middle of a call, on every surface of the service
(session 25, second round).

The REST routes and ``/actions`` run such a call once more when nothing of it can have been
kept (``serve.again``, ``Store.may_run_again``), else answer 503 with ``Retry-After``. The
same loss in an MCP tool (``/mcp`` of the service, ``memlane mcp`` over standard input and
output), an inspector page or the live stream's first read failed the call with the
driver's "terminating connection due to administrator command": a tool error saying no
more, the 503 page, a 503 before the stream began (an ``EventSource`` answered 503 stops).
Each statement is held at a table lock taken from outside and its backend ended while it
waits there (seen waiting in ``pg_stat_activity``), as in ``test_pg_connections``.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from tests.serve.http.test_pg_connections import _locked, _terminate, _wait_for_waiter
from tests.serve.test_mcp import server, talk

psycopg = pytest.importorskip("psycopg")

LOST = "terminating connection due to administrator command"


@contextmanager
def _ending(pg_url: str, table: str, ends: int) -> Iterator[Callable[[], None]]:
    """``table`` locked; the function given ends the backend of each of the next ``ends``
    statements to wait on it, then releases the lock (the block's end releases it too)."""
    with _locked(pg_url, table):
        def end() -> None:
            seen: set[int] = set()
            for _ in range(ends):
                pid = _wait_for_waiter(pg_url, seen)
                seen.add(pid)
                _terminate(pg_url, pid)
        yield end


def _while_ended(pg_url: str, table: str, ends: int, send: Callable[[], Any]) -> Any:
    """``send()`` in a thread while ``table`` is locked and ``ends`` of its statements'
    backends are ended; its result once the lock is released."""
    with ThreadPoolExecutor(1) as pool:
        with _ending(pg_url, table, ends) as end:
            sent = pool.submit(send)
            end()
        return sent.result(timeout=60)


def _mcp_call(url: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """``tools/call`` on the service's ``/mcp`` (stateless: no handshake needed)."""
    r = httpx.post(url + "/mcp", timeout=60,
                   headers={"Accept": "application/json, text/event-stream",
                            "MCP-Protocol-Version": "2025-06-18"},
                   json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                         "params": {"name": name, "arguments": arguments}})
    assert r.status_code == 200, r.text
    data = [line[5:].strip() for line in r.text.splitlines() if line.startswith("data:")]
    body = json.loads(data[-1] if data else r.text)
    assert "result" in body, body
    return dict(body["result"])


def _text(result: dict[str, Any]) -> str:
    return "\n".join(c["text"] for c in result["content"] if c["type"] == "text")


@pytest.mark.parametrize(("tool", "arguments", "table", "expect"), [
    ("recall", {"query": "Lisbon", "scope": "a"}, "items", "Lisbon"),
    ("context", {"question": "where do I live?", "scope": "a"}, "items", "Lisbon"),
    ("facts", {"scope": "a"}, "facts", "scope a"),
    ("fact_history", {"subject": "user", "predicate": "lives_in", "scope": "a"}, "facts",
     "lives_in"),
    ("sessions", {"scope": "a"}, "sessions", "session"),
    ("session", {"session_id": 1}, "sessions", "Lisbon"),
], ids=["recall", "context", "facts", "fact_history", "sessions", "session"])
def test_an_mcp_read_whose_connection_is_ended_runs_again(
        pg_service: tuple[str, Any], pg_url: str, tool: str, arguments: dict[str, Any],
        table: str, expect: str) -> None:
    url, _ = pg_service
    result = _while_ended(pg_url, table, 1, lambda: _mcp_call(url, tool, arguments))
    assert not result.get("isError"), _text(result)
    assert expect in _text(result)


def test_an_mcp_write_whose_transaction_rolled_back_runs_again_and_is_stored_once(
        pg_service: tuple[str, Any], pg_url: str) -> None:
    url, _ = pg_service
    result = _while_ended(pg_url, "messages", 1, lambda: _mcp_call(
        url, "remember", {"text": "my sister Ana visits in April", "scope": "b",
                          "role": "user", "id": "m-1"}))
    assert not result.get("isError"), _text(result)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        stored = conn.execute("SELECT count(*) FROM messages WHERE scope = 'b'").fetchone()[0]
    assert stored == 1


def test_an_mcp_write_that_may_have_been_kept_is_a_tool_error_saying_to_check_first(
        pg_service: tuple[str, Any], pg_url: str) -> None:
    """A note's insert ran after statements outside a transaction (as ``POST /v1/items``'s,
    which answers 503): not run again, and the error says a retry may store it twice."""
    url, _ = pg_service
    result = _while_ended(pg_url, "items", 1, lambda: _mcp_call(
        url, "remember", {"text": "we deploy on Tuesdays", "scope": "b", "kind": "decision"}))
    assert result.get("isError")
    said = _text(result)
    assert LOST in said and "check before calling it again" in said, said
    with psycopg.connect(pg_url, autocommit=True) as conn:
        stored = conn.execute("SELECT count(*) FROM items WHERE scope = 'b'").fetchone()[0]
    assert stored <= 1


def test_an_mcp_read_lost_twice_is_a_tool_error_saying_a_retry_is_safe(
        pg_service: tuple[str, Any], pg_url: str) -> None:
    url, _ = pg_service
    arguments = {"query": "Lisbon", "scope": "a"}
    result = _while_ended(pg_url, "items", 2, lambda: _mcp_call(url, "recall", arguments))
    assert result.get("isError")
    said = _text(result)
    assert LOST in said and "calling it again is safe" in said, said
    assert "Lisbon" in _text(_mcp_call(url, "recall", arguments))  # and it is


def test_memlane_mcp_over_stdio_runs_a_read_again(pg_service: tuple[str, Any], pg_url: str,
                                                  tmp_path: Path) -> None:
    answers: list[Any] = []
    locked = threading.Event()

    def lock_and_end() -> None:
        with _ending(pg_url, "sessions", 1) as end:
            locked.set()
            end()

    async def body(c: Any) -> None:
        await c.call_tool("sessions", {"scope": "a"})  # started, its connection open
        async with anyio.create_task_group() as tg:
            tg.start_soon(anyio.to_thread.run_sync, lock_and_end)
            assert await anyio.to_thread.run_sync(locked.wait, 30)
            answers.append(await c.call_tool("sessions", {"scope": "a"}))

    talk(server(tmp_path, pg_url), body)
    out = "\n".join(c.text for c in answers[0].content if c.type == "text")
    assert not answers[0].is_error, out
    assert "session" in out


@pytest.mark.parametrize(("path", "table", "expect"), [
    ("/ui/facts?scope=a", "facts", "Facts of a"),
    ("/ui/?scope=a", "sessions", "Sessions of a"),
    ("/ui/sessions/1", "sessions", "Lisbon"),
    ("/ui/search?q=Lisbon&scope=a", "items", "Lisbon"),
    ("/ui/packs", "packs", "Packs"),
], ids=["facts", "sessions", "session", "search", "packs"])
def test_an_inspector_page_whose_connection_is_ended_is_read_again(
        pg_service: tuple[str, Any], pg_url: str, path: str, table: str, expect: str) -> None:
    url, _ = pg_service
    r = _while_ended(pg_url, table, 1, lambda: httpx.get(url + path, timeout=60))
    assert r.status_code == 200, r.text
    assert expect in r.text


def test_an_inspector_page_lost_twice_is_the_503_page_with_retry_after(
        pg_service: tuple[str, Any], pg_url: str) -> None:
    url, _ = pg_service
    r = _while_ended(pg_url, "facts", 2,
                     lambda: httpx.get(url + "/ui/facts?scope=a", timeout=60))
    assert r.status_code == 503
    assert r.headers["content-type"].startswith("text/html")
    assert r.headers["Retry-After"] == "1"
    assert "calling it again is safe" in r.text


def test_the_live_streams_first_read_whose_connection_is_ended_is_read_again(
        pg_service: tuple[str, Any], pg_url: str) -> None:
    url, _ = pg_service

    def first_event() -> tuple[int, str]:
        with httpx.stream("GET", url + "/state/memory?scope=a", timeout=60) as r:
            if r.status_code != 200:
                return r.status_code, r.read().decode()
            for line in r.iter_lines():
                if line.startswith("event:"):
                    return 200, line
        return 200, ""

    status, said = _while_ended(pg_url, "change_sequencer", 1, first_event)
    assert status == 200, said
    assert said == "event: snapshot"


def test_an_mcp_resource_whose_connection_is_ended_is_read_again(
        pg_service: tuple[str, Any], pg_url: str) -> None:
    url, mem = pg_service
    session_id = mem.sessions(scope="a")[0].id

    def read() -> dict[str, Any]:
        r = httpx.post(url + "/mcp", timeout=60,
                       headers={"Accept": "application/json, text/event-stream",
                                "MCP-Protocol-Version": "2025-06-18"},
                       json={"jsonrpc": "2.0", "id": 1, "method": "resources/read",
                             "params": {"uri": f"memlane://a/sessions/{session_id}"}})
        data = [line[5:].strip() for line in r.text.splitlines() if line.startswith("data:")]
        return dict(json.loads(data[-1] if data else r.text))

    body = _while_ended(pg_url, "sessions", 1, read)
    assert "result" in body, body
    assert "Lisbon" in body["result"]["contents"][0]["text"]


def test_the_inspectors_forget_form_whose_connection_is_ended_runs_again(
        pg_service: tuple[str, Any], pg_url: str) -> None:
    url, mem = pg_service
    fact = mem.add_fact("user", "lives_in", "Lisbon", scope="a").fact_id
    token = "t" * 40

    def forget() -> httpx.Response:
        return httpx.post(f"{url}/ui/facts/{fact}/forget", data={"csrf": token},
                          cookies={"memlane_csrf": token}, timeout=60)

    r = _while_ended(pg_url, "facts", 1, forget)
    assert r.status_code == 303, r.text
    with psycopg.connect(pg_url, autocommit=True) as conn:
        left = conn.execute("SELECT count(*) FROM facts WHERE id = %s", (fact,)).fetchone()[0]
    assert left == 0


def test_a_live_stream_poll_whose_connection_is_ended_is_read_again_at_once(
        pg_service: tuple[str, Any], pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Inside the stream a poll's failure was taken for an outage: a warning, and a poll's
    wait before the next read. Now the poll is read again on a new connection."""
    url, mem = pg_service
    events: queue.Queue[str] = queue.Queue()

    def listen() -> None:
        with httpx.stream("GET", url + "/state/memory?scope=a", timeout=60) as r:
            for line in r.iter_lines():
                if line.startswith("event:"):
                    events.put(line)
                    if line == "event: patch":
                        return

    caplog.set_level(logging.WARNING, logger="memlane.serve")
    with ThreadPoolExecutor(1) as pool:
        listening = pool.submit(listen)
        assert events.get(timeout=30) == "event: snapshot"
        with _ending(pg_url, "change_sequencer", 1) as end:
            end()
        mem.add_message("a", "user", "I found a flat near the river", at="2024-06-02T10:00:00Z")
        assert events.get(timeout=30) == "event: patch"
        listening.result(timeout=30)
    said = [r.getMessage() for r in caplog.records]
    assert any("live stream: the database connection was lost" in m for m in said), said
    assert not any("the database failed" in m for m in said), said
