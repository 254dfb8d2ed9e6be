"""Where session 24's branches meet: a session MERGE (a message within the gap of two
sessions joins them, ``_merge_near`` / ``memlane_merge_near``) against the writers that run
beside it on PostgreSQL (docs/hardening.md, "Session 24: where the branches meet").

Real stores on the PostgreSQL the tests start; a statement is held with the store's own
tracer, and the other writer is seen waiting in ``pg_locks`` (bounded waits only)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder
from tests.pg_race import hold_summary_insert, lock_waits, race

T0 = datetime(2024, 6, 1, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=1)


def _memory(url: str, tracer: Any = None) -> Memory:
    return Memory(url, config=load_config(environ={}), tracer=tracer,
                  embedder=HashingEmbedder(dim=64))


def test_a_merge_waits_for_a_worker_writing_a_session_it_joins(pg_url: str) -> None:
    """Worker W writes session B's summary again (a late message queued it): it has cleared
    B's old one, under the scope's facts lock, and is about to insert the new. A message at
    9:30 then falls within the gap of A (9:00-9:03) and B (10:00-10:03) and joins them. The
    merge locked B's row and then waited for the summary rows W had deleted, while W's insert
    of rows naming B waited for B's row: a deadlock, and PostgreSQL failed the user's
    message (or the worker). The merge takes the facts lock first, as an erase does: it
    waits for W, then takes B's new summary into A with the rest."""
    held, go = threading.Event(), threading.Event()
    tracer = hold_summary_insert(held, go)  # W cleared B's summary and holds its insert
    with _memory(pg_url) as mem, _memory(pg_url, tracer) as worker, _memory(pg_url) as writer:
        for start in (T0, T0 + timedelta(minutes=60)):
            for i, text in enumerate(["I moved to Porto last week", "nice, the harbour?",
                                      "yes, my sister Ana lives there", "lovely"]):
                mem.add_message("chat", "user" if i % 2 == 0 else "assistant", text,
                                at=start + timedelta(minutes=i))
        mem.index(now=NOW)
        a, b = sorted(s.id for s in mem.sessions("chat"))
        assert mem.store.session_items(b, kind="summary")
        mem.add_message("chat", "user", "and Ana has a boat", at=T0 + timedelta(minutes=61, seconds=30))
        assert mem.session(b).summarized is False  # queued again

        errors = race(lambda: worker.index(now=NOW), lambda: writer.add_message(
            "chat", "user", "we sailed to the islands", at=T0 + timedelta(minutes=30)),
            name="worker", held=held, go=go, waiting=lambda: lock_waits(mem))
        assert errors == []
        [kept] = mem.sessions("chat")
        assert kept.id == a and kept.message_count == 10
        # B's new summary went with B's messages (none names a session that is gone)
        summaries = mem.store.session_items(a, kind="summary")
        assert len(summaries) == 2, summaries
        assert mem.store.db.execute(  # type: ignore[attr-defined]
            "SELECT count(*) FROM items WHERE session_id = %s", (b,)).fetchone()[0] == 0
        assert mem.index(now=NOW).sessions_summarized == 1
        assert len(mem.store.session_items(a, kind="summary")) == 1


def test_a_merge_and_an_indexer_claiming_both_sessions_lock_them_in_one_order(
        pg_url: str) -> None:
    """Sessions 1 (10:00-10:03, closed by the gap) and 2 (9:00-9:03, a late session of its
    own) wait for the indexer. A message at 9:30 joins 2 (the nearer) and merges 1 into it,
    while an indexer claims the batch [1, 2] (rows locked in id order). The merge locked 2
    (the session the message went to), then 1, the indexer 1, then 2: a deadlock, and
    PostgreSQL failed the user's message. Held here between the two (by the scope's facts
    lock, which the merge takes before the other sessions' rows) until the indexer waits."""
    with _memory(pg_url) as mem, _memory(pg_url) as indexer, _memory(pg_url) as writer:
        for start in (T0 + timedelta(minutes=60), T0):
            for i, text in enumerate(["I moved to Porto last week", "nice, the harbour?",
                                      "yes, my sister Ana lives there", "lovely"]):
                mem.add_message("chat", "user" if i % 2 == 0 else "assistant", text,
                                at=start + timedelta(minutes=i))
        mem.add_message("chat", "user", "a new day", at=T0 + timedelta(hours=5))
        one, two, _ = sorted(s.id for s in mem.sessions("chat"))
        assert mem.session(one).started_at == T0 + timedelta(minutes=60)
        errors: list[BaseException] = []

        def run(target: Any) -> None:
            try:
                target()
            except BaseException as e:  # noqa: BLE001 - reported by the assertion below
                errors.append(e)

        db = mem.store.db  # type: ignore[attr-defined]
        threads = []
        with db.atomic():  # the facts lock, held by this test until both wait
            db.execute("SELECT pg_advisory_xact_lock(1835794436, hashtext('chat'))")
            for target in (lambda: writer.add_message("chat", "user", "we sailed out",
                                                      at=T0 + timedelta(minutes=30)),
                           lambda: indexer.index(now=T0 + timedelta(hours=5, minutes=1))):
                threads.append(threading.Thread(target=run, args=(target,)))
                threads[-1].start()
                deadline = time.monotonic() + 30
                while (lock_waits(writer) < len(threads) and time.monotonic() < deadline
                       and threads[-1].is_alive()):
                    time.sleep(0.05)
        for t in threads:
            t.join(60)
        assert not any(t.is_alive() for t in threads)
        assert errors == []
        assert [s.message_count for s in mem.sessions("chat")] == [1, 9]
        mem.index(now=NOW)
        assert [s.message_count for s in mem.sessions("chat")] == [1, 9]
        [merged] = [s for s in mem.sessions("chat") if s.message_count == 9]
        assert len(mem.store.session_items(merged.id, kind="turn")) == 9
