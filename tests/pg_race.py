"""Two writers raced on the PostgreSQL the tests start: the first is held at one statement
by the store's own tracer, the second runs until it waits for a lock the first holds (seen
in ``pg_locks``), then the first goes on. Bounded waits only. Used by the tests of the
orders in which writers take their locks (tests/test_merge_races.py, test_late_races.py,
tests/ingest/test_import_again_property.py); ``wait_then``: the test's own transaction holds
a lock until a writer waits for it, then asks for another (tests/test_lock_order.py,
test_hygiene_touch_locks.py, test_forget_fact_locks.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any


def memlane_waiting(url: str) -> int:
    """memlane's backends of the database at ``url`` waiting for a lock (``pg_stat_activity``,
    read on a connection of its own)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return int(conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND application_name = 'memlane' AND wait_event_type = 'Lock'").fetchone()[0])


def pg_memory(url: str) -> Any:
    """A ``Memory`` on ``url`` with the default config (no environment) and the hashing
    embedder."""
    from memlane.config import load_config
    from memlane.memory import Memory
    from memlane.testing import HashingEmbedder

    return Memory(config=load_config(environ={}, overrides={"db": url}),
                  embedder=HashingEmbedder(dim=64))


def lock_waits(mem: Any) -> int:
    """Backends of the database waiting for a lock."""
    return int(mem.store.db.execute(
        "SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()[0])


def hold_summary_insert(held: threading.Event, go: threading.Event,
                        thread: str = "worker") -> Callable[..., None]:
    """A tracer that holds ``thread``'s ``store_intelligence`` after it has cleared a
    session's old summary (``clear_intelligence``'s last statement) and before it inserts the
    new: ``held`` is set there, and the thread waits for ``go`` (60 s at most)."""
    state = {"cleared": False}

    def tracer(kind: str, sql: str, params: Any = None) -> None:
        if threading.current_thread().name != thread:
            return
        if sql.startswith("DELETE FROM relations WHERE session_id"):
            state["cleared"] = True
        elif state["cleared"] and "INSERT INTO items" in sql and not held.is_set():
            held.set()
            go.wait(60)

    return tracer


def race(first: Callable[[], Any], second: Callable[[], Any], *, name: str,
         held: threading.Event, go: threading.Event,
         waiting: Callable[[], int]) -> list[BaseException]:
    """Run ``first`` in a thread called ``name`` until its tracer sets ``held``, then
    ``second`` in another thread; once the second waits for a lock (``waiting()`` above 0,
    30 s at most) or has ended, set ``go``. Both are joined (60 s each) and must have ended;
    returns what either raised."""
    errors: list[BaseException] = []

    def run(target: Callable[[], Any]) -> None:
        try:
            target()
        except BaseException as e:  # noqa: BLE001 - returned to the test, which asserts on it
            errors.append(e)

    one = threading.Thread(target=run, args=(first,), name=name)
    two = threading.Thread(target=run, args=(second,))
    one.start()
    try:
        assert held.wait(60), f"{name} never reached the statement it is held at"
        two.start()
        deadline = time.monotonic() + 30
        while waiting() == 0 and two.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        go.set()
    one.join(60)
    two.join(60)
    assert not one.is_alive() and not two.is_alive()
    return errors


def wait_then(url: str, side: Callable[[], Any], then: Callable[[], Any], *,
              what: str = "the other side") -> list[BaseException]:
    """Run ``side`` in a thread until one of memlane's backends of ``url`` waits for a lock
    (60 s at most), then ``then()`` here (the test's own transaction going on, as a writer
    taking the locks in the other order would). ``side`` is joined (60 s) and must have
    ended; returns what it raised and a PostgreSQL error of ``then`` ("deadlock detected")."""
    import psycopg

    errors: list[BaseException] = []

    def run() -> None:
        try:
            side()
        except BaseException as e:  # noqa: BLE001 - returned to the test, which asserts on it
            errors.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while memlane_waiting(url) < 1:
        assert time.monotonic() < deadline, f"{what} never waited"
        assert thread.is_alive(), errors
        time.sleep(0.05)
    try:
        then()
    except psycopg.Error as e:
        errors.append(e)
    thread.join(60)
    assert not thread.is_alive()
    return errors
