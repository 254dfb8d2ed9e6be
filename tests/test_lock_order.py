"""The one lock order on PostgreSQL (docs/store.md, "Session 27: locks and their order").

Each test makes a pair of writers that took two of the same locks in opposite orders meet
deterministically: the first is held by the store's own tracer just after it took one
lock, the second runs until it waits (``pg_stat_activity``), then the first goes on and
asks for the other. Before the fix PostgreSQL found "deadlock detected" and failed one
side (a 503 from serve); now the second waits at the first lock they share and both end.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from collections.abc import Callable
from typing import Any

import pytest

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder
from tests.pg_race import memlane_waiting, race, wait_then

psycopg = pytest.importorskip("psycopg")


def _memory(url: str, tracer: Any = None) -> Memory:
    return Memory(config=load_config(environ={}, overrides={"db": url}), tracer=tracer,
                  embedder=HashingEmbedder(dim=64))


def _hold_after(prefix: str, held: threading.Event, go: threading.Event,
                thread: str = "first") -> Callable[..., None]:
    """A tracer holding ``thread`` just before its first statement after one starting with
    ``prefix`` (that statement has run: its locks are held)."""
    state = {"seen": False}

    def tracer(kind: str, sql: str, params: Any = None) -> None:
        if threading.current_thread().name != thread or held.is_set():
            return
        if state["seen"]:
            held.set()
            go.wait(60)
        elif sql.startswith(prefix):
            state["seen"] = True

    return tracer


def _cached(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        return int(conn.execute("SELECT count(*) FROM embed_cache").fetchone()[0])


def _seed_shared_text(url: str) -> None:
    """Scopes ``a`` and ``b`` hold the same session, so the same texts (a turn, a summary, a
    fact's item): the embedding cache's rows of them are both scopes' (the cache is keyed
    by model and text, not scope)."""
    with _memory(url) as seed:
        for scope in ("a", "b"):
            seed.add_message(scope, "user", "I live in Lisbon", at="2024-05-01T10:00:00Z")
            seed.close_session(scope)
        seed.index(now="2024-06-01T00:00:00Z")
    assert _cached(url) > 0


def _fact_of(url: str, scope: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        return int(conn.execute("SELECT id FROM facts WHERE scope = %s ORDER BY id LIMIT 1",
                                (scope,)).fetchone()[0])


ERASERS: dict[str, Callable[[Memory, str], Any]] = {
    "forget_scope": lambda m, url: m.forget_scope("a"),
    "forget_session": lambda m, url: m.forget_session(m.sessions("a")[0].id),
}

FORGETTERS: dict[str, Callable[[Memory, str], Any]] = {
    "forget_fact": lambda m, url: m.forget_fact(_fact_of(url, "b")),
    "forget_item": lambda m, url: m.forget_item(m.store.get_fact(_fact_of(url, "b")).item_id),
}


@pytest.mark.parametrize("eraser", sorted(ERASERS))
@pytest.mark.parametrize("forgetter", sorted(FORGETTERS))
def test_an_erase_and_a_forget_of_another_scope_sharing_a_cached_text_both_finish(
        pg_url: str, eraser: str, forgetter: str) -> None:
    """Seen after session 26's stress: an erase of scope ``a`` deleted the embedding
    cache's rows of its texts, then asked for the change log sequencer's lock to blank
    its records; ``forget_fact`` (or ``forget_item``) of scope ``b`` took the sequencer's
    lock to blank its records, then deleted the cache's row of its text, the same row:
    "deadlock detected". The erase is held after its cache delete; the forget runs until
    it waits."""
    _seed_shared_text(pg_url)
    held, go = threading.Event(), threading.Event()
    with _memory(pg_url, _hold_after("DELETE FROM embed_cache", held, go)) as first, \
            _memory(pg_url) as second:
        errors = race(lambda: ERASERS[eraser](first, pg_url),
                      lambda: FORGETTERS[forgetter](second, pg_url),
                      name="first", held=held, go=go, waiting=lambda: memlane_waiting(pg_url))
    assert not errors, errors
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM sessions WHERE scope = 'a'").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM items WHERE scope = 'b'"
                            " AND kind = 'fact'").fetchone()[0] == 0


@pytest.mark.parametrize("held", ["scope", "facts"])
def test_a_batch_of_two_scopes_takes_their_locks_in_the_one_order(pg_url: str, held: str) -> None:
    """``add_messages`` of rows of scopes ``b`` then ``a`` (HTTP ``POST /v1/messages``, an
    import of a file of several scopes) took ``b``'s lock at its first row, then ``a``'s,
    and a late row's facts lock likewise in the batch's order. The test's transaction
    plays a writer taking them in the one order (an erase of sessions of both scopes: the
    message locks; hygiene: the facts locks): it holds ``a``'s, the batch runs until it
    waits, then the transaction asks for ``b``'s. Before: "deadlock detected"."""
    from memlane.store.postgres.db import LOCK_FACTS, LOCK_SCOPE

    space = LOCK_SCOPE if held == "scope" else LOCK_FACTS
    with _memory(pg_url) as mem:
        for scope in ("a", "b"):  # closed sessions: the batch's rows are late
            mem.add_message(scope, "user", "I live in Lisbon", at="2024-05-10T10:00:00Z")
            mem.close_session(scope)
        with psycopg.connect(pg_url) as other:
            other.execute("SELECT pg_advisory_xact_lock(%s, hashtext('a'))", (space,))

            def go_on() -> None:
                other.execute("SELECT pg_advisory_xact_lock(%s, hashtext('b'))", (space,))
                other.commit()

            errors = wait_then(pg_url, lambda: mem.add_messages([
                {"scope": s, "role": "user", "text": f"I moved to Porto ({s})",
                 "at": "2024-05-01T10:00:00Z"} for s in ("b", "a")]), go_on, what="the batch")
    assert not errors, errors
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM messages WHERE text LIKE 'I moved to Porto%'"
                            ).fetchone()[0] == 2


def test_a_batch_of_late_rows_of_two_scopes_takes_their_sessions_in_id_order(pg_url: str) -> None:
    """A batch's late row of ``b``, then one of ``a``, locked the closed session each joins
    in the batch's order: ``b``'s (the newer id), then ``a``'s; an index claim locks the
    sessions it indexes in id order. The test's transaction plays the claim: it holds
    ``a``'s session, the batch runs until it waits, then it asks for ``b``'s. Before:
    "deadlock detected" (the batch or the claim failed)."""
    with _memory(pg_url) as mem:
        for scope in ("a", "b"):
            mem.add_message(scope, "user", "I live in Lisbon", at="2024-05-01T10:00:00Z")
            mem.close_session(scope)
        sessions = {s: mem.sessions(s)[0].id for s in ("a", "b")}
        assert sessions["a"] < sessions["b"]
        with psycopg.connect(pg_url) as claim:
            claim.execute("SELECT id FROM sessions WHERE id = %s FOR NO KEY UPDATE",
                          (sessions["a"],))

            def go_on() -> None:
                claim.execute("SELECT id FROM sessions WHERE id = %s FOR NO KEY UPDATE",
                              (sessions["b"],))
                claim.commit()

            errors = wait_then(pg_url, lambda: mem.add_messages([
                {"scope": s, "role": "user", "text": f"and I work at Acme ({s})",
                 "at": "2024-05-01T09:55:00Z"} for s in ("b", "a")]), go_on, what="the batch")
        assert not errors, errors
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for scope, sid in sessions.items():  # each late row joined its scope's session
            assert conn.execute("SELECT array_agg(session_id ORDER BY seq) FROM messages"
                                " WHERE scope = %s", (scope,)).fetchone()[0] == [sid, sid]


def test_a_backfill_and_a_forget_of_one_of_its_items_both_finish(pg_url: str) -> None:
    """Session 27 (qa27d) made a backfill's batch write only the vectors of the items still
    stored, read in its write transaction: an erase in flight then (its delete not
    committed) still showed the item, the batch's vector waited for the erased row, and
    when the erase committed it failed on the foreign key (``vectors_item_id_fkey``: the
    backfill stopped). The batch now takes its items' scopes' facts locks first, as every
    erase does (``lock_items_facts``): it waits for the erase, then skips its item."""
    _seed_shared_text(pg_url)
    fact = _fact_of(pg_url, "b")
    held, go = threading.Event(), threading.Event()
    done: list[int] = []
    with _memory(pg_url, _hold_after("DELETE FROM items", held, go)) as first, \
            _memory(pg_url) as second:
        item = first.store.get_fact(fact).item_id
        errors = race(lambda: first.forget_fact(fact),
                      lambda: done.append(second.backfill_embeddings(missing_only=False)),
                      name="first", held=held, go=go, waiting=lambda: memlane_waiting(pg_url))
    assert not errors, errors
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM vectors WHERE item_id = %s",
                            (item,)).fetchone()[0] == 0
        assert done == [int(conn.execute("SELECT count(*) FROM items").fetchone()[0])]


@pytest.mark.parametrize("made", ["decision", "week"])
def test_a_compaction_and_an_erase_of_one_of_its_summaries(pg_url: str, made: str) -> None:
    """Session 27 (qa27d) made a compaction look for its summaries again under the scope's
    links lock before it writes a decision record or a weekly roll-up of them. An erase
    takes no links lock: one in flight (its delete not committed) still showed the summary,
    the record was written and its link to the summary waited for the erase, which had
    looked for the records made of its summaries before: the record of the erased
    summary's words stayed after the erase. A compaction now takes the scope's facts lock
    first, as every erase does (``lock_items_facts``), and skips what the erase took."""
    from memlane.testing import add_sessions

    now = datetime(2024, 9, 2, tzinfo=UTC)

    def talk(n: int) -> list[tuple[str, str]]:
        return [("user", f"I'm training for the Lisbon half marathon, week {n} of the plan."),
                ("assistant", "Nice. How did the long run go?"),
                ("user", "I ran 14 km on Sunday. I decided to add a rest day."),
                ("assistant", "Good call, keep the easy runs easy.")]

    with _memory(pg_url) as seed:  # old sessions of one topic; two of one past week
        days = (200, 199, 198) if made == "decision" else (10, 9)
        add_sessions(seed, [(d, talk(i)) for i, d in enumerate(days)], now=now, scope="a")
        doomed = seed.sessions("a")[0].id
    held, go = threading.Event(), threading.Event()
    reports: list[Any] = []
    with _memory(pg_url, _hold_after("DELETE FROM items", held, go)) as first, \
            _memory(pg_url) as second:
        errors = race(lambda: first.forget_session(doomed),
                      lambda: reports.append(second.compact(now=now)),
                      name="first", held=held, go=go, waiting=lambda: memlane_waiting(pg_url))
    assert not errors, errors
    with psycopg.connect(pg_url, autocommit=True) as conn:
        made_of = conn.execute("SELECT count(*) FROM items WHERE scope = 'a'"
                               " AND session_id IS NULL").fetchone()[0]
    if made == "week":  # one summary of the week is left: no roll-up
        assert made_of == 0
    else:  # two left, as young as they were: a record of those two, or none
        with psycopg.connect(pg_url, autocommit=True) as conn:
            rows = conn.execute("SELECT children, extra FROM items WHERE scope = 'a'"
                                " AND session_id IS NULL").fetchall()
            summaries = {int(r[0]) for r in conn.execute(
                "SELECT id FROM items WHERE kind = 'summary' AND scope = 'a'").fetchall()}
        for children, extra in rows:
            kids = json.loads(children) if isinstance(children, str) else children
            absorbed = (json.loads(extra) if isinstance(extra, str) else extra).get("absorbed")
            assert set(absorbed or kids or []) <= summaries, (rows, summaries)
