"""``forget_item`` of a fact's item and ``forget_fact`` beside a worker writing the scope's
facts (PostgreSQL; session 25, second round).

A worker writing a session's intelligence holds the scope's facts lock (an advisory lock,
``clear_intelligence``/``current_facts``) and then the rows of the facts it supersedes or
reinforces. ``forget_item`` of a fact's item and ``forget_fact`` took no lock first: their
delete locked the fact, then the fact it had superseded (``superseded_by`` set to NULL),
which the worker held, while the worker went on to the fact being deleted: PostgreSQL
found a deadlock and failed one side (eight in a 40-second stress of live messages, index
runs and erases). They now take the scope's facts lock before any row, as every other
writer of facts does.

The test's own transaction plays the worker: it takes the facts lock and updates one of
the two facts (in either order), the erase starts and waits, then the transaction updates
the other (as a worker superseding or reinforcing it would) and commits.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memlane.memory import Memory
from memlane.store.postgres.db import LOCK_FACTS
from tests.pg_race import pg_memory, wait_then

psycopg = pytest.importorskip("psycopg")


ERASES: dict[str, Callable[[Memory, int, int], None]] = {
    "forget_item": lambda mem, fact_id, item_id: mem.forget_item(item_id),
    "forget_fact": lambda mem, fact_id, item_id: mem.forget_fact(fact_id),
}


@pytest.mark.parametrize("first", ["older", "newer"])
@pytest.mark.parametrize("erase", sorted(ERASES))
def test_forgetting_a_fact_waits_for_a_worker_writing_its_scopes_facts(
        pg_url: str, erase: str, first: str) -> None:
    with pg_memory(pg_url) as seed:
        for day, city in ((1, "Porto"), (2, "Lisbon")):
            seed.add_message("u", "user", f"I live in {city}", at=f"2024-05-0{day}T10:00:00Z")
            seed.close_session("u")
        seed.index(now="2024-06-01T00:00:00Z")
    with psycopg.connect(pg_url, autocommit=True) as conn:
        rows = conn.execute("SELECT id, item_id, lower(object), superseded_by FROM facts"
                            " WHERE scope = 'u'").fetchall()
    newer = next(r for r in rows if r[2] == "lisbon")
    older = next(r for r in rows if r[3] == newer[0])  # Porto, superseded by Lisbon
    held, then = (older, newer) if first == "older" else (newer, older)
    with pg_memory(pg_url) as mem, psycopg.connect(pg_url) as worker:
        # the worker: the scope's facts lock, then one fact's row
        worker.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_FACTS, "u"))
        worker.execute("UPDATE facts SET last_accessed = last_accessed WHERE id = %s",
                       (held[0],))

        def go_on() -> None:  # then the other, as a worker superseding or reinforcing it does
            worker.execute("UPDATE facts SET reinforcements = reinforcements + 1 WHERE id = %s",
                           (then[0],))
            worker.commit()

        errors = wait_then(pg_url, lambda: ERASES[erase](mem, newer[0], newer[1]), go_on,
                           what="the erase")
    assert not errors, errors
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM facts WHERE id = %s",
                            (newer[0],)).fetchone()[0] == 0
        assert conn.execute("SELECT superseded_by FROM facts WHERE id = %s",
                            (older[0],)).fetchone()[0] is None
