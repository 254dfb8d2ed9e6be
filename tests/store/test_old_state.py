"""A database written by an older memlane holds rows today's code never leaves, and an erase
must still take the erased words from them (docs/hardening.md, "Session 30: upgrades
walked"). Each older state is written here with the SQL the older code ran, on real SQLite
files and the PostgreSQL the tests start."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlane.errors import NotFoundError
from memlane.memory import Memory
from memlane.testing import memory
from tests.test_erase import _rows_with

NOW = datetime(2024, 6, 1, tzinfo=UTC)
COUSIN = "My cousin Zqdora lives in Evora."


def _old_gc(mem: Memory) -> None:
    """What ``gc`` with the semantic and profile lanes capped at 0 did before session 28
    (``evict_lowest``): the items marked ``evicted``, then deleted; the graph's nodes they
    named were kept, each with the sentence it was read in as its context. Then ``gc`` a
    week and a day later: the change log's records of those items pruned."""
    with mem.store.atomic():
        mem.store._run("UPDATE items SET status = 'evicted' WHERE lane IN ('semantic', 'profile')"
                       " AND NOT pinned AND status = 'active'")
        mem.store._run("DELETE FROM items WHERE status = 'evicted'")
    assert mem.gc(now=datetime.now(UTC) + timedelta(days=8)).changes_pruned


def _session(mem: Memory, scope: str, days: int, turns: list[tuple[str, str]]) -> int:
    at = NOW - timedelta(days=days)
    for i, (role, text) in enumerate(turns):
        mem.add_message(scope, role, text, at=at + timedelta(minutes=i))
    mem.close_session(scope)
    mem.index(now=NOW)
    return max(s.id for s in mem.sessions(scope))


@pytest.mark.parametrize("erase", ["turn", "session"])
def test_an_erase_takes_the_nodes_an_older_hygiene_left_without_items(db_url: str, erase: str) -> None:
    """A session's entity items evicted by the older ``gc`` (their nodes kept, holding the
    cousin's name and her sentence), then the cousin's turn (or her session) erased with
    today's code: no row holds her name, the graph has no node of hers, and the nodes of a
    kept session (with their items) are as they were."""
    mem = memory(db_url)
    try:
        sid = _session(mem, "alice", 3, [("user", COUSIN), ("assistant", "Cool."),
                                         ("user", "I love chess."), ("assistant", "Good.")])
        _old_gc(mem)
        kept = _session(mem, "alice", 1, [("user", "My sister Zqmarko lives in Porto."),
                                          ("assistant", "Nice.")])
        assert mem.graph("Zqdora")["entity"]          # the node an older memlane left
        nodes = {n.name: n for n in mem.graph("Zqmarko")["entity"]}
        if erase == "turn":
            [turn] = [i.id for i in mem.store.session_items(sid, kind="turn") if i.text == COUSIN]
            mem.forget_item(turn)
        else:
            mem.forget_session(sid)
        assert _rows_with(mem.store, "zqdora") == {}
        with pytest.raises(NotFoundError):
            mem.graph("Zqdora")
        assert {n.name: n for n in mem.graph("Zqmarko")["entity"]} == nodes
        assert kept in {s.id for s in mem.sessions("alice")}
    finally:
        mem.close()


def test_a_turn_erase_takes_the_marks_of_an_old_database_that_name_only_its_words(db_url: str) -> None:
    """A session of four messages of one time (one batch), both facts forgotten, written
    before ``fact_events.message_id``: the migration cannot tell which turn made each mark
    (several messages have its time). The sister's turn erased: the marks that keep her
    name (``zqmarko lives_in``), a name no kept message of that time holds, go with it; the
    work turn's marks stay, so its fact stays forgotten when the session is read again."""
    from tests.test_erase_same_time import SISTER, _column_dropped, _memory, _one_batch, _turn_of

    mem = _memory(db_url)
    sid = _one_batch(mem)
    for f in mem.facts("alice"):
        mem.forget_fact(f.id)
    work = [e["kind"] for e in mem.forgotten_facts("user", "works_at", scope="alice")]
    _column_dropped(mem)
    mem.close()
    mem = _memory(db_url)
    try:
        assert not [r for r in mem.store.db.execute(
            "SELECT message_id FROM fact_events WHERE object = ''") if r[0] is not None]
        mem.forget_item(_turn_of(mem, sid, SISTER))
        assert _rows_with(mem.store, "zqmarko") == {}
        assert [e["kind"] for e in mem.forgotten_facts("user", "works_at", scope="alice")] == work
        mem.index(now=NOW)
        assert not [f for f in mem.facts("alice", include_superseded=True)
                    if "Quexcorp" in f.object]
    finally:
        mem.close()
