"""Hygiene's eviction and a search's touch of its facts beside a worker writing the scope's
facts (PostgreSQL; session 26).

A worker writing a session's intelligence holds the scope's facts lock (an advisory lock)
and then the rows of the facts it supersedes or reinforces, in its own order. Hygiene's
eviction of a fact's item (a lane cap over ``profile`` or ``semantic``) deleted the fact
through the foreign key, then set free the fact it had superseded (``superseded_by`` set
to NULL); a search's touch (``confidence.touch_on_access``) updated its facts' rows in the
order its statement scanned them. Neither took the facts lock first: with the worker
holding the other row, PostgreSQL found a deadlock and failed one side. Hygiene's delete of
other derived items (entities', observations', summaries') met a worker's
``clear_intelligence`` deleting them in its own order the same way. Both now take the
facts lock of the scopes they touch before any row (the touch in shared mode, so searches
never wait for each other). Since session 54 the touch waits for no one: when it would, its
accesses are kept and written later.

The test's own transaction plays the worker: it takes the facts lock and updates one of
the two facts (in either order), the other side starts and waits, then the transaction
updates the other fact (as a worker superseding or reinforcing it would) and commits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from memlane.config import load_config
from memlane.memory import Memory
from memlane.store.postgres.db import LOCK_FACTS
from memlane.testing import HashingEmbedder
from tests.pg_race import wait_then

psycopg = pytest.importorskip("psycopg")


def _memory(url: str, **overrides: Any) -> Memory:
    return Memory(config=load_config(environ={}, overrides={"db": url, **overrides}),
                  embedder=HashingEmbedder(dim=64))


def _as_worker(url: str, held: int, then: int, side: Callable[[], Any],
               table: str = "facts") -> list[BaseException]:
    """The test's transaction takes scope ``u``'s facts lock and row ``held`` of ``table``
    (facts: updated; items: deleted, as ``clear_intelligence`` deletes a session's summary);
    ``side`` runs in a thread until it waits (60 s at most); then the transaction does the
    same to row ``then`` and commits. What ``side`` raised."""
    touch = ("UPDATE facts SET reinforcements = reinforcements + 1 WHERE id = %s"
             if table == "facts" else "DELETE FROM items WHERE id = %s")
    with psycopg.connect(url) as worker:
        worker.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_FACTS, "u"))
        worker.execute(touch, (held,))

        def go_on() -> None:
            worker.execute(touch, (then,))
            worker.commit()

        return wait_then(url, side, go_on)


@pytest.mark.parametrize("first", ["older", "newer"])
def test_evicting_a_facts_item_waits_for_a_worker_writing_its_scopes_facts(
        pg_url: str, first: str) -> None:
    with _memory(pg_url) as seed:
        for day, city in ((1, "Porto"), (2, "Lisbon")):
            seed.add_message("u", "user", f"I live in {city}", at=f"2024-05-0{day}T10:00:00Z")
            seed.close_session("u")
        seed.index(now="2024-06-01T00:00:00Z")
    with psycopg.connect(pg_url, autocommit=True) as conn:
        rows = conn.execute("SELECT f.id, f.item_id, lower(f.object), f.superseded_by, i.lane"
                            " FROM facts f JOIN items i ON i.id = f.item_id"
                            " WHERE f.scope = 'u'").fetchall()
    newer = next(r for r in rows if r[2] == "lisbon")
    older = next(r for r in rows if r[3] == newer[0])  # Porto, superseded by Lisbon
    held, then = (older, newer) if first == "older" else (newer, older)
    # a cap of 0 on the current fact's lane evicts it (the superseded one is not counted)
    with _memory(pg_url, hygiene={"lane_caps": [f"{newer[4]}=0"]}) as mem:
        errors = _as_worker(pg_url, held[0], then[0], lambda: mem.gc())
    assert not errors, errors
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM items WHERE id = %s",
                            (newer[1],)).fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM facts WHERE id = %s",
                            (newer[0],)).fetchone()[0] == 0
        assert conn.execute("SELECT superseded_by FROM facts WHERE id = %s",
                            (older[0],)).fetchone()[0] is None


def test_evicting_derived_items_waits_for_a_worker_deleting_them(pg_url: str) -> None:
    """Seen in the stress (session 26): hygiene's delete of a session's derived items (its
    lane capped) against a worker's ``clear_intelligence`` deleting them in the other
    order (here the entities' and the fact's items of the ``semantic`` lane)."""
    with _memory(pg_url) as seed:
        for day in (1, 2):
            for k, text in enumerate(["we planned the launch of the new billing service for June",
                                      "I will write the migration plan and Ana reviews it",
                                      "the launch date is June 12 and we deploy on Tuesdays"]):
                seed.add_message("u", "assistant" if k % 2 else "user", text,
                                 at=f"2024-05-0{day}T10:0{k}:00Z")
            seed.close_session("u")
        seed.index(now="2024-06-01T00:00:00Z")
    with psycopg.connect(pg_url, autocommit=True) as conn:
        evicted = [r[0] for r in conn.execute(
            "SELECT id FROM items WHERE lane = 'semantic' AND status = 'active' ORDER BY id")]
    assert len(evicted) >= 2, evicted
    # hygiene takes its rows in id order: the worker holds the last, then wants the first
    with _memory(pg_url, hygiene={"lane_caps": ["semantic=0"]}) as mem:
        errors = _as_worker(pg_url, evicted[-1], evicted[0], lambda: mem.gc(), table="items")
    assert not errors, errors
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM items WHERE lane = 'semantic'"
                            " AND status = 'active'").fetchone()[0] == 0


@pytest.mark.parametrize("first", [0, 1])
def test_a_search_touching_facts_leaves_them_to_a_worker_writing_its_scopes_facts(
        pg_url: str, first: int) -> None:
    """Session 54: the touch no longer waits (``atomic(wait=False)``): with the worker holding
    the facts lock and one of the rows, the search answers at once and keeps the accesses;
    the worker then updates the other row and commits (no deadlock: the touch holds
    nothing), and the next search writes them."""
    with _memory(pg_url) as seed:
        seed.add_message("u", "user", "I live in Lisbon and I work at Feedzai",
                         at="2024-05-01T10:00:00Z")
        seed.close_session("u")
        seed.index(now="2024-06-01T00:00:00Z")
    with psycopg.connect(pg_url, autocommit=True) as conn:
        facts = conn.execute("SELECT id, item_id FROM facts WHERE scope = 'u'"
                             " AND status = 'current' ORDER BY id").fetchall()
    assert len(facts) == 2, facts
    query = "where do I live and where do I work"
    with _memory(pg_url) as mem:
        mem._local.no_touch = True  # the search's hits, found without touching them
        hits = {h.item.id for h in mem.search(query, scope="u", k=20)}
        mem._local.no_touch = False
        assert {f[1] for f in facts} <= hits, "the search does not return both facts"
        held, then = facts[first][0], facts[1 - first][0]
        with psycopg.connect(pg_url) as worker:
            worker.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_FACTS, "u"))
            worker.execute("UPDATE facts SET reinforcements = reinforcements + 1 WHERE id = %s",
                           (held,))
            search = threading.Thread(target=lambda: mem.search(
                query, scope="u", k=20, now="2024-07-01T00:00:00Z"), daemon=True)
            search.start()
            search.join(30)
            assert not search.is_alive(), "the search waited for the worker"
            worker.execute("UPDATE facts SET reinforcements = reinforcements + 1 WHERE id = %s",
                           (then,))
            worker.commit()
            assert worker.execute(
                "SELECT count(*) FROM facts WHERE scope = 'u' AND last_accessed >= extract(epoch"
                " FROM timestamptz '2024-07-01')").fetchone()[0] == 0  # kept, not written
        mem.search(query, scope="u", k=20, now="2024-06-15T00:00:00Z")  # writes the kept ones
    with psycopg.connect(pg_url, autocommit=True) as conn:
        touched = conn.execute("SELECT count(*) FROM facts WHERE scope = 'u' AND last_accessed"
                               " >= extract(epoch FROM timestamptz '2024-07-01')").fetchone()[0]
    assert touched == 2


def test_an_erase_waits_for_the_change_logs_sequencer(pg_url: str) -> None:
    """Seen in the stress (session 26, before): the change log's sequencer (``prune_changes``
    in hygiene, ``live_read``) updates every unsequenced record under its table lock, while
    an erase blanked its records' documents row by row (``blank_changes``) with no lock
    first: "deadlock detected". The erase now takes the sequencer's lock before its first
    update of the change log. The test's transaction plays the sequencer: the lock, an item's
    record, then (once the erase waits) the session's record, which the erase blanks first."""
    with _memory(pg_url) as seed:
        seed.add_message("u", "user", "I live in Lisbon", at="2024-05-01T10:00:00Z")
        seed.close_session("u")
        seed.index(now="2024-06-01T00:00:00Z")  # its derived items have records
        sid = seed.sessions("u")[0].id
    with psycopg.connect(pg_url, autocommit=True) as conn:
        session_rec = conn.execute("SELECT max(id) FROM changes WHERE entity = 'session'"
                                   " AND entity_id = %s AND doc IS NOT NULL", (sid,)).fetchone()[0]
        item_rec = conn.execute("SELECT max(c.id) FROM changes c JOIN items i ON i.id = c.entity_id"
                                " WHERE c.entity = 'item' AND i.session_id = %s"
                                " AND c.doc IS NOT NULL", (sid,)).fetchone()[0]
    assert session_rec and item_rec
    with _memory(pg_url) as mem, psycopg.connect(pg_url) as sequencer:
        sequencer.execute("LOCK TABLE change_sequencer IN EXCLUSIVE MODE")
        sequencer.execute("UPDATE changes SET pos = pos WHERE id = %s", (item_rec,))

        def go_on() -> None:
            sequencer.execute("UPDATE changes SET pos = pos WHERE id = %s", (session_rec,))
            sequencer.commit()

        errors = wait_then(pg_url, lambda: mem.forget_session(sid), go_on, what="the erase")
    assert not errors, errors
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM sessions WHERE id = %s", (sid,)).fetchone()[0] == 0
