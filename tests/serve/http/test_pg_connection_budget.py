"""``serve.db_connections`` is a ``memlane serve`` process's whole budget of PostgreSQL
connections (session 26): the thread that opened its ``Memory``, its index worker's two,
the helper threads of searches over every scope and its request threads together. Before,
it capped the request threads alone: the helpers (up to four) and the worker's came on
top, and a role allowed exactly the budget was refused connections under load (503). Its
default, 0, was no cap; it is now half of what the server lets the role open, read at
start, shared by the service's processes."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.serve.http import create_app
from memlane.store.postgres.search import ensure_hnsw
from memlane.testing import memory
from memlane.testing.http import serving
from tests.serve.http.test_pg_connections import _limited_role

psycopg = pytest.importorskip("psycopg")

BUDGET = 8  # the role may hold one more: the test's own Memory (the thread that opened it);
# in ``memlane serve`` that thread runs the event loop too, here the server has its own


@pytest.mark.parametrize("budget", [BUDGET, 0], ids=["set", "derived"])
def test_a_process_under_load_stays_within_its_connection_budget(pg_url: str, budget: int,
                                                                  ) -> None:
    with memory(pg_url) as owner:  # the owner builds the graph
        for day in range(1, 4):
            owner.add_message("a", "user", f"I moved to Lisbon in March, day {day}",
                              at=f"2024-05-0{day}T10:00:00Z")
            owner.close_session("a")
        owner.index(now="2024-06-01T00:00:00Z")
        model, dim = owner.store.db.execute("SELECT model, dim FROM vectors LIMIT 1").fetchone()
        assert ensure_hnsw(owner.store.db, model, dim)  # searches over every scope: helpers
    with _limited_role(pg_url, BUDGET + 1) as url:
        # 0: derived from the role's limit (9 // 2 = 4: the worker's two, one held, one
        # request thread); before, 0 was no cap
        mem = memory(url, serve={"db_connections": budget})
        try:
            with serving(create_app(mem, worker=True)) as base:

                def client(n: int) -> list[int]:
                    with httpx.Client(base_url=base, timeout=60) as c:
                        return [c.post("/v1/search", json={"query": "Lisbon March"}).status_code
                                if i % 3 else
                                c.post("/v1/messages", json={"scope": f"load-{n}", "role": "user",
                                                             "text": f"note {i}"}).status_code
                                for i in range(6)]

                with ThreadPoolExecutor(24) as pool:
                    statuses = [s for got in pool.map(client, range(24)) for s in got]
                assert statuses.count(200) == len(statuses), sorted(set(statuses))
        finally:
            mem.close()


def test_a_budget_too_small_for_the_process_is_refused_naming_the_key(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    memory(pg_url).close()
    monkeypatch.setenv("MEMLANE_SERVE_DB_CONNECTIONS", "3")
    out = CliRunner().invoke(cli, ["serve", "--db", pg_url, "--port", "0"])
    assert out.exit_code != 0
    assert "serve.db_connections: 3 leaves no connection for requests" in out.output
    assert "2 for its index worker" in out.output and "at least 4" in out.output
