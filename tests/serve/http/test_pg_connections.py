"""``memlane serve`` on PostgreSQL, where its connections meet the server's limits (session 25).

- A connection the server ends in the middle of a call (``pg_terminate_backend``, a restart,
  a pooler): a read, or a write whose transaction the server rolled back, runs once more on
  a new connection; a second loss is a 503 with ``Retry-After``. Before, every such call
  failed with 503 "terminating connection due to administrator command". The statement is
  held at a table lock taken from outside, and the service's backend ended while it waits
  there (seen waiting in ``pg_stat_activity``).
- Every connection taken (a role's ``CONNECTION LIMIT``, as the server's
  ``max_connections``): a request is a 503 with ``Retry-After`` naming the cause, never a
  500 or a hang, and the service answers at once when the load is gone; with
  ``serve.db_connections`` under the limit, every request is answered (they wait for a
  thread instead of opening a connection the server refuses).
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest

from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving

psycopg = pytest.importorskip("psycopg")

_roles = itertools.count()


def _waiting_pids(url: str) -> list[int]:
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND "
            "application_name = 'memlane' AND wait_event_type = 'Lock'").fetchall()
    return [r[0] for r in rows]


def _wait_for_waiter(url: str, seen: set[int], seconds: float = 30.0) -> int:
    """The pid of a memlane backend, not in ``seen``, waiting on a lock."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        fresh = [p for p in _waiting_pids(url) if p not in seen]
        if fresh:
            return fresh[0]
        time.sleep(0.05)
    raise AssertionError("no memlane statement came to wait on the lock")


def _terminate(url: str, pid: int) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]


@contextmanager
def _locked(url: str, table: str) -> Iterator[None]:
    """``table`` locked against every other transaction until the block ends."""
    with psycopg.connect(url) as conn:
        conn.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        try:
            yield
        finally:
            conn.rollback()


def _call_while(url: str, pg_url: str, table: str, ends: int, request: dict[str, Any],
                ) -> httpx.Response:
    """Send ``request`` while ``table`` is locked; end the backend of each of its first
    ``ends`` statements to wait on the lock; then release it."""
    with ThreadPoolExecutor(1) as pool, _locked(pg_url, table):
        sent = pool.submit(httpx.request, request["method"], url + request["path"],
                           json=request.get("json"), timeout=60)
        seen: set[int] = set()
        for _ in range(ends):
            pid = _wait_for_waiter(pg_url, seen)
            seen.add(pid)
            _terminate(pg_url, pid)
    return sent.result(timeout=60)


SEARCH = {"method": "POST", "path": "/v1/search", "json": {"query": "Lisbon", "scope": "a"}}


@pytest.mark.parametrize("request_", [
    SEARCH,
    {"method": "GET", "path": "/v1/sessions?scope=a"},
    {"method": "POST", "path": "/actions", "json": {"kind": "memory.search",
                                                    "input": {"query": "Lisbon", "scope": "a"}}},
], ids=["search", "sessions", "action"])
def test_a_read_whose_connection_is_ended_mid_statement_runs_again(
        pg_service: tuple[str, Any], pg_url: str, request_: dict[str, Any]) -> None:
    url, _ = pg_service
    table = "sessions" if "sessions" in request_["path"] else "items"
    r = _call_while(url, pg_url, table, 1, dict(request_))
    assert r.status_code == 200, r.text
    if "search" in str(request_):
        body = r.json()
        hits = body["hits"] if "hits" in body else body["result"]["hits"]
        assert "Lisbon" in hits[0]["item"]["text"]


def test_a_write_whose_transaction_rolled_back_runs_again_once_and_is_stored_once(
        pg_service: tuple[str, Any], pg_url: str) -> None:
    url, mem = pg_service
    body = {"scope": "b", "role": "user", "text": "my sister Ana visits in April", "id": "m-1"}
    r = _call_while(url, pg_url, "messages", 1,
                    {"method": "POST", "path": "/v1/messages", "json": body})
    assert r.status_code == 200, r.text
    with psycopg.connect(pg_url, autocommit=True) as conn:
        stored = conn.execute("SELECT count(*) FROM messages WHERE scope = 'b'").fetchone()[0]
    assert stored == 1


def test_a_second_loss_is_a_503_with_retry_after_naming_it(
        pg_service: tuple[str, Any], pg_url: str) -> None:
    url, _ = pg_service
    r = _call_while(url, pg_url, "items", 2, dict(SEARCH))
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"] == "1"
    error = r.json()["error"]
    assert error["code"] == "unavailable" and "administrator command" in error["message"]
    assert "calling it again is safe" in error["message"]  # a read: nothing was kept
    assert httpx.post(url + "/v1/search", json=SEARCH["json"], timeout=30).status_code == 200


def test_a_write_that_may_have_been_kept_is_a_503_saying_to_check_before_sending_it_again(
        pg_service: tuple[str, Any], pg_url: str) -> None:
    """``POST /v1/items`` reads before its transaction (statements outside one count as
    possible writes): not run again, and the 503 says a retry may store it twice
    (session 25, second round: it said only "the database failed")."""
    url, _ = pg_service
    r = _call_while(url, pg_url, "items", 1, {"method": "POST", "path": "/v1/items", "json": {
        "text": "we deploy on Tuesdays", "scope": "c", "kind": "decision"}})
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"] == "1"
    assert "check before calling it again" in r.json()["error"]["message"]


@contextmanager
def _limited_role(pg_url: str, limit: int) -> Iterator[str]:
    """The database's URL as a role that may hold ``limit`` connections (not a superuser:
    PostgreSQL's connection limits do not apply to one)."""
    memory(pg_url).close()  # migrated by the owner
    role = f"memlane_low_{os.getpid()}_{next(_roles)}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN CONNECTION LIMIT {limit}")
        conn.execute(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}")
        conn.execute(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}")
    parts = urlsplit(pg_url)
    netloc = f"{role}@{parts.hostname}:{parts.port}"
    try:
        yield urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    finally:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE usename = %s", (role,))
            conn.execute(f"DROP OWNED BY {role}")
            conn.execute(f"DROP ROLE {role}")


def _load(url: str, clients: int, each: int) -> list[httpx.Response]:
    """``clients`` threads, each sending ``each`` searches and batches of messages."""
    barrier = threading.Barrier(clients)

    def client(n: int) -> list[httpx.Response]:
        got = []
        with httpx.Client(base_url=url, timeout=60) as c:
            barrier.wait(timeout=60)
            for i in range(each):
                if i % 3 == 2:
                    got.append(c.post("/v1/messages", json={"messages": [
                        {"scope": f"load-{n}", "role": "user", "text": f"note {i} {j}"}
                        for j in range(5)]}))
                else:
                    got.append(c.post("/v1/search", json={"query": "Lisbon March"}))
        return got

    with ThreadPoolExecutor(clients) as pool:
        return [r for rs in pool.map(client, range(clients)) for r in rs]


LIMIT = 6  # the role's connections: the test's own Memory holds one (the thread that opened it)


# "no cap": a budget far over the role's limit (0 derives one from it since session 26)
@pytest.mark.parametrize("cap", [10_000, LIMIT - 2], ids=["no cap", "capped"])
def test_every_connection_taken_is_a_503_with_retry_after_or_waited_for(
        pg_url: str, cap: int) -> None:
    with _limited_role(pg_url, LIMIT) as url:
        mem = memory(url, serve={"db_connections": cap})
        mem.add_message("a", "user", "I moved to Lisbon in March", at="2024-05-01T10:00:00Z")
        mem.close_session("a")
        mem.index(now="2024-06-01T00:00:00Z")
        try:
            with serving(create_app(mem, worker=False)) as base:
                answers = _load(base, clients=24, each=6)
                statuses = {r.status_code for r in answers}
                assert statuses <= {200, 503}, statuses  # never a 500, every request answered
                for r in answers:
                    if r.status_code == 503:
                        assert r.headers["retry-after"] == "1"
                        message = r.json()["error"]["message"]
                        assert "too many connections" in message, message
                        assert "max_connections" in message and "serve.db_connections" in message
                if cap < LIMIT:
                    assert statuses == {200}, sum(r.status_code == 503 for r in answers)
                # the load gone, the service answers at once: a thread going idle while
                # the server refuses connections gives its own back (it kept it until anyio
                # ended the thread, 10 s later, and its requests were refused meanwhile)
                r = httpx.post(base + "/v1/search", json={"query": "Lisbon"}, timeout=60)
                assert r.status_code == 200, r.text
        finally:
            mem.close()
