"""``/metrics`` while PostgreSQL is unreachable: the scrape answers and says so
(``memlane_store_up 0``), with the process's own counters, instead of 503.

Authenticating the scrape read the database (``has_api_keys`` for an open service, the
key's row once ``serve.key_cache_seconds`` had passed), so during an outage Prometheus saw
the target down and lost the HTTP counters, though the collector was written to report
the database down (session 24). The database is made unreachable for real: connections
refused by ``ALLOW_CONNECTIONS false`` and memlane's own ended by
``pg_terminate_backend``."""

from __future__ import annotations

import threading

import httpx
import pytest

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving

psycopg = pytest.importorskip("psycopg")


def _admin(url: str, sql: str) -> None:
    server = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql)


def _cut_off(url: str, db: str) -> None:
    """Refuse new connections to ``db`` and end memlane's; wait until they are gone."""
    _admin(url, f'ALTER DATABASE "{db}" ALLOW_CONNECTIONS false')
    _admin(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                f" WHERE datname = '{db}' AND application_name = 'memlane'")
    server = url.rsplit("/", 1)[0] + "/postgres"
    for _ in range(200):  # bounded: 10 s
        with psycopg.connect(server, autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_stat_activity WHERE datname = %s AND"
                                " application_name = 'memlane'", (db,)).fetchall():
                return
        threading.Event().wait(0.05)
    raise AssertionError("memlane's connections did not end")


def _up(text: str) -> float:
    [line] = [x for x in text.splitlines() if x.startswith("memlane_store_up ")]
    return float(line.split()[1])


@pytest.mark.parametrize("keyed", [False, True], ids=["open", "keyed"])
def test_metrics_say_the_database_is_down_instead_of_failing(pg_url: str, keyed: bool) -> None:
    db = pg_url.rsplit("/", 1)[1]
    mem = memory(pg_url, serve={"key_cache_seconds": 0.05})
    try:
        headers = {"Authorization": f"Bearer {create_key(mem.store, '*').key}"} if keyed else {}
        with serving(create_app(mem, worker=False)) as url, \
                httpx.Client(base_url=url, headers=headers, timeout=30) as c:
            assert c.get("/v1/stats").status_code == 200
            assert _up(c.get("/metrics").text) == 1
            try:
                _cut_off(pg_url, db)
                threading.Event().wait(0.1)  # past serve.key_cache_seconds
                stats = c.get("/v1/stats")
                assert stats.status_code == 503 and "the database failed" in stats.text
                scrape = c.get("/metrics")
                assert scrape.status_code == 200, scrape.text
                assert _up(scrape.text) == 0
                assert 'memlane_http_requests_total{method="GET",route="/v1/stats",status="503"}' \
                    in scrape.text
            finally:
                _admin(pg_url, f'ALTER DATABASE "{db}" ALLOW_CONNECTIONS true')
            assert c.get("/v1/stats").status_code == 200  # back: reconnected
            assert _up(c.get("/metrics").text) == 1
    finally:
        mem.close()
