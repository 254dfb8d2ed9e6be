"""A session is summarized only after its turns are indexed. ``claim_for_summary`` took any
closed session: one closed between the worker's two stages (a ``sessions.close`` request,
MCP ``summarize``, another process on PostgreSQL) was summarized before it had turn items,
so its facts and observations had no turn to point at (``parents``, through which a hit on
a fact lifts its turn in search) and never got one. Now such a session waits for the
indexer's next pass, and its facts point at their turns."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memlane.index.pipeline import process_queue
from memlane.testing import memory

T0 = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)
LINES = ["I moved to Lisbon last spring and I drink green tea every morning.",
         "Lisbon is lovely in spring.", "My sister Hana lives in Kyoto.", "Nice!"]


def test_a_session_closed_after_the_indexers_pass_waits_for_its_turns(db_url):
    with memory(db_url) as mem:
        for i, text in enumerate(LINES):
            mem.add_message("s", "user" if i % 2 == 0 else "assistant", text,
                            T0 + timedelta(minutes=i))
        session = mem.close_session("s")  # closed after the worker's indexing stage
        run = process_queue(mem.store, mem.embeddings, mem.intelligence, mem.config)
        assert (run.summarized, run.failed) == (0, 0)
        s = mem.session(session.id)
        assert (s.status, s.indexed, s.summarized, s.attempts) == ("closed", False, False, 0)
        mem.index(now="2024-06-01T00:00:00Z")  # the next round: turns, then the summary
        assert mem.session(session.id).summarized
        turns = {it.id for it in mem.store.session_items(session.id, kind="turn")}
        derived = [it for it in mem.store.session_items(session.id)
                   if it.kind in ("fact", "observation") and it.seq is not None]
        assert derived, "the offline backend reads facts from these lines"
        for it in derived:
            assert it.parents and it.parents[0] in turns, (it.kind, it.text, it.parents)
