"""A search records the access of the facts it returns (``confidence.touch_on_access``)
without waiting for another writer (session 54).

The access is a write. It used to be written inside the search, in a transaction that waited
for SQLite's write lock (another process's import, a service's write held up by one) or for
a PostgreSQL worker writing the scope's facts: the search waited with it, up to the busy
timeout, and the service's reads, which never wait behind writers, waited too. Now a write
that would wait is skipped (``atomic(wait=False)``, ``StoreError.busy``) and the access kept:
the next search writes it, or ``close`` does. The searches run in a thread joined with a
bound, so a search that waits fails the test instead of hanging it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memlane.errors import StoreError
from memlane.testing import memory

T0 = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)
ASKED = T0 + timedelta(days=400)


@contextmanager
def _written_by_another(url: str) -> Iterator[None]:
    """Another process's write in progress: SQLite's write lock, or on PostgreSQL a worker's
    exclusive facts lock of scope ``s`` (what ``store_intelligence`` holds as it writes)."""
    if url.startswith("postgresql"):
        import psycopg

        from memlane.store.postgres.db import LOCK_FACTS

        with psycopg.connect(url) as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_FACTS, "s"))
            yield
            conn.rollback()
        return
    conn = sqlite3.connect(url, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def _bounded(call: Callable[[], Any]) -> Any:
    """``call()``'s result, run in a thread given 20 s (the busy timeout is 30 s)."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), "the call waited for the other writer"
    assert out, "the call failed (see the thread's exception above)"
    return out[0]


def _last_accessed(mem: Any) -> datetime:
    (fact,) = mem.facts("s", now=ASKED)
    return fact.last_accessed


@pytest.fixture
def mem(db_url: str) -> Iterator[Any]:
    m = memory(db_url)
    m.add_fact("user", "lives in", "Lisbon", scope="s", at=T0)
    yield m
    m.close()


def _search(mem: Any, now: datetime) -> list[Any]:
    return mem.search("where does the user live", scope="s", kinds=["fact"], now=now)


def test_a_search_answers_while_another_writes_and_close_records_the_access(
        db_url: str, mem: Any) -> None:
    with _written_by_another(db_url):
        hits = _bounded(lambda: _search(mem, ASKED))
        assert [h.item.kind for h in hits] == ["fact"]
    assert _last_accessed(mem) == T0  # not written while the other writer held the lock
    mem.close()
    again = memory(db_url)
    try:
        (fact,) = again.facts("s", now=ASKED)
        assert fact.last_accessed == ASKED  # written at close
    finally:
        again.close()


def test_an_access_kept_is_written_by_the_next_search(db_url: str, mem: Any) -> None:
    with _written_by_another(db_url):
        _bounded(lambda: _search(mem, ASKED))
    _search(mem, T0 + timedelta(days=10))  # an earlier time: only the kept access moves it
    assert _last_accessed(mem) == ASKED


def test_a_write_asked_not_to_wait_is_refused_as_busy_and_writes_nothing(
        db_url: str, mem: Any) -> None:
    store = mem.store
    (fact,) = mem.facts("s", now=ASKED)
    with _written_by_another(db_url):
        def touch() -> StoreError | None:
            try:
                with store.atomic(wait=False):
                    store.touch_facts([fact.id], ASKED.timestamp())
            except StoreError as e:
                return e
            return None

        error = _bounded(touch)
        assert error is not None and error.busy and not error.read_only
    assert _last_accessed(mem) == T0
    with store.atomic(wait=False):  # nobody else writing: it begins, and commits
        store.touch_facts([fact.id], ASKED.timestamp())
    assert _last_accessed(mem) == ASKED
