"""A search over every scope whose helper connection is lost (session 25, where qa25b's run
again meets the search's helper threads).

On PostgreSQL a search over all scopes of a store with an HNSW index runs its lexical list
on a helper thread's connection while the request's thread walks the graph
(``SEARCH_THREADS``). qa25b runs a read once more when *its* connection was lost mid-call,
judged by the request thread's own connection: the helper's, ended under it
(``pg_terminate_backend``), failed the search with a 503 while the same loss on the request
thread's connection is run again.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from memlane.serve.http import create_app
from memlane.store.postgres import search as pg_search
from memlane.testing import memory
from memlane.testing.http import serving
from tests.serve.http.test_pg_connections import _locked

psycopg = pytest.importorskip("psycopg")


def _waiters(url: str) -> list[tuple[int, str]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return [(int(r[0]), str(r[1])) for r in conn.execute(
            "SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() AND"
            " application_name = 'memlane' AND wait_event_type = 'Lock'").fetchall()]


def test_an_unscoped_search_whose_helper_connection_is_ended_runs_again(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 1)  # the graph from the first vectors
    mem = memory(pg_url)
    try:
        for scope in ("a", "b"):
            mem.add_message(scope, "user", "I moved to Lisbon in March", at="2024-05-01T10:00:00Z")
            mem.close_session(scope)
        mem.index(now="2024-06-01T00:00:00Z")
        with serving(create_app(mem, worker=False)) as base, ThreadPoolExecutor(1) as pool:
            with _locked(pg_url, "items"):
                sent = pool.submit(httpx.post, base + "/v1/search",
                                   json={"query": "Lisbon March"}, timeout=60)
                deadline = time.monotonic() + 30
                while not (waiting := _waiters(pg_url)):
                    assert time.monotonic() < deadline, "the search never waited"
                    time.sleep(0.05)
                # the helper's lexical statements (the request thread's are the graph's
                # walk and its items)
                while not (helper := [pid for pid, query in _waiters(pg_url)
                                      if "max(id)" in query or "@@" in query]):
                    assert time.monotonic() < deadline, waiting
                    time.sleep(0.05)
                with psycopg.connect(pg_url, autocommit=True) as admin:
                    assert admin.execute("SELECT pg_terminate_backend(%s)",
                                         (helper[0],)).fetchone()[0]
            r = sent.result(timeout=60)
        assert r.status_code == 200, r.text
        assert "Lisbon" in r.json()["hits"][0]["item"]["text"]
    finally:
        mem.close()
