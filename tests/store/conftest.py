"""Store test helpers: counting a PostgreSQL connection's round trips with libpq's own trace."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from typing import Any
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass

import pytest


@dataclass
class Trips:
    count: int = 0
    trace: str = ""


@contextmanager
def _round_trips(store: object) -> Iterator[Trips]:
    """Trace the calling thread's connection of a ``PostgresStore`` (libpq's protocol trace)
    and count its round trips: each ends in exactly one ``ReadyForQuery`` from the server."""
    from psycopg import pq

    conn = store.db.conn  # type: ignore[attr-defined]
    got = Trips()
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as fh:
        conn.pgconn.trace(fh.fileno())
        conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            yield got
        finally:
            conn.pgconn.untrace()
            fh.seek(0)
            got.trace = fh.read()
            got.count = sum(line.split("\t")[2:3] == ["ReadyForQuery"]
                            for line in got.trace.splitlines() if line.startswith("B\t"))


@contextmanager
def _sent_statements(store: Any) -> Iterator[list[tuple[str, Any]]]:
    """Record ``(sql, params)`` of every statement the store's ``db.execute`` sends, in
    order, until the block ends (the statements still run)."""
    sent: list[tuple[str, Any]] = []
    execute = store.db.execute

    def spy(sql: Any, params: Any = None, **kw: Any) -> Any:
        sent.append((str(sql), params))
        return execute(sql, params, **kw)

    store.db.execute = spy
    try:
        yield sent
    finally:
        del store.db.execute


@pytest.fixture
def sent_statements() -> Callable[[Any], AbstractContextManager[list[tuple[str, Any]]]]:
    """``with sent_statements(store) as sent: ...`` then ``sent``: ``(sql, params)`` pairs."""
    return _sent_statements


@pytest.fixture
def round_trips() -> Callable[[object], AbstractContextManager[Trips]]:
    """``with round_trips(store) as trips: ...`` then ``trips.count``."""
    pytest.importorskip("psycopg")
    return _round_trips
