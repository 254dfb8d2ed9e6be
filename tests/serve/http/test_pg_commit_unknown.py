"""A call whose connection is lost while its COMMIT is on its way (session 25, where the
branches meet): the server may have committed it, so the call is not run again.

``memory.pack`` is a read that ends with a write: it journals the pack (one transaction:
the pack's row and the ``packs`` counter). qa25b's retry ran a read again when it had
*committed* nothing, counted after the commit's answer came back; a commit whose answer was
lost (the connection ended after the server had it) counted as nothing, and the pack was
journaled twice, its counter bumped twice.

The commit is held where PostgreSQL holds a committed transaction before it answers: a
synchronous standby is required (``synchronous_standby_names``) that never comes, so the
COMMIT waits in ``SyncRep`` after the transaction is durable locally; the test ends that
backend (``pg_terminate_backend``): the client's connection breaks, and the transaction
stays committed. The server is this test's own (the setting is the server's).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving

psycopg = pytest.importorskip("psycopg")


@pytest.fixture(scope="module")
def syncrep_url() -> Iterator[str]:
    """A server whose commits wait for a standby that never comes, where a session asks
    (``synchronous_commit = on``; the server's default here is ``local``)."""
    from memlane.testing.postgres import postgres_server

    with postgres_server({"synchronous_standby_names": "'memlane_nobody'",
                          "synchronous_commit": "local"}) as url:
        yield url


def _sync_rep_waiter(url: str, seconds: float = 30.0) -> int:
    deadline = time.monotonic() + seconds
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute("SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep'"
                               " AND application_name = 'memlane'").fetchone()
            if row is not None:
                return int(row[0])
            time.sleep(0.05)
    raise AssertionError("no memlane COMMIT came to wait for the standby")


def test_a_read_whose_journal_commit_may_have_landed_is_not_run_again(syncrep_url: str) -> None:
    url = syncrep_url
    seed = memory(url)  # migrated and written with commits that do not wait
    seed.add_message("a", "user", "I moved to Lisbon in March", at="2024-05-01T10:00:00Z")
    seed.close_session("a")
    seed.index(now="2024-06-01T00:00:00Z")
    seed.close()
    # the service's sessions wait for the standby at each commit that wrote something
    mem = memory(url + "?options=-csynchronous_commit%3Don",
                 confidence={"touch_on_access": False})
    try:
        with serving(create_app(mem, worker=False)) as base, ThreadPoolExecutor(1) as pool:
            sent = pool.submit(httpx.post, base + "/v1/pack",
                               json={"query": "Lisbon", "scope": "a"}, timeout=60)
            pid = _sync_rep_waiter(url)
            with psycopg.connect(url, autocommit=True) as admin:
                assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]
                # what comes after commits at once (a run again would journal a second pack)
                admin.execute("ALTER SYSTEM SET synchronous_standby_names = ''")
                admin.execute("SELECT pg_reload_conf()")
            r = sent.result(timeout=60)
        with psycopg.connect(url, autocommit=True) as conn:
            packs = conn.execute("SELECT count(*) FROM packs").fetchone()[0]
            counted = conn.execute("SELECT coalesce(sum(value), 0) FROM counters"
                                   " WHERE name = 'packs'").fetchone()[0]
        assert (packs, counted) == (1, 1), r.text  # journaled once, as the server committed it
        assert r.status_code == 503, r.text  # its outcome unknown to the service: said so
        assert r.headers["retry-after"] == "1"
    finally:
        mem.close()
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("ALTER SYSTEM RESET synchronous_standby_names")
            admin.execute("SELECT pg_reload_conf()")
