"""A relation restates a fact when its target is the fact's value as a value is compared
(``normalize_value``: a name's key without a leading article), not only when the keys are
equal (session 32, rev32).

A model answers "The Hague" in one session and "Hague" in the next: the second statement
reinforces the fact (one value), and each session's relation keeps its own end key
(``the hague``, ``hague``). Session 31's sweeps compared a relation's end with a fact's
value by ``name_key``: ``memlane gc`` deleted the second session's relation as "without its
fact" although the fact holds; ``forget_fact`` (session 27's ``forget_relations_of``) left
it, so ``graph show user`` still showed the forgotten value; ``graph()`` listed it as
superseded by its own value. Real SQLite files and the PostgreSQL the tests start; the
model is a real loopback chat server (``memlane.testing.llm_server``)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memlane.errors import NotFoundError
from memlane.index.normalize import normalize_value
from memlane.memory import Memory
from memlane.testing import memory
from memlane.testing.llm_server import ChatServer

NOW = datetime(2024, 6, 1, tzinfo=UTC)
SPELLINGS = [("The Hague", "Hague"), ("Hague", "the Hague")]


def answer(place: str) -> dict[str, Any]:
    """The model's summary of a session where the user says they live in ``place``."""
    return {"topic": "where the user lives", "context": f"The user lives in {place}.",
            "decisions": [], "rationale": [], "open_questions": [], "next_steps": [],
            "action_items": [], "references": [], "topic_tags": [],
            "entities": [{"name": place, "type": "place"}],
            "facts": [{"subject": "user", "predicate": "lives_in", "object": place, "turn": 1}],
            "relations": [{"from": "user", "relation": "lives in", "to": place}]}


@pytest.fixture
def srv() -> Iterator[ChatServer]:
    with ChatServer() as server:
        yield server


def _memory(db_url: str, srv: ChatServer) -> Memory:
    return memory(db_url, indexing={"backend": "llm", "service": "local", "retry_base_seconds": 0},
                  llm_services={"local": {"base_url": srv.base_url, "model": "m",
                                          "timeout_seconds": 10, "max_retries": 1}})


def _say(mem: Memory, srv: ChatServer, days: int, place: str) -> None:
    at = NOW - timedelta(days=days)
    for i in range(4):
        mem.add_message("s", "user" if i % 2 == 0 else "assistant",
                        f"I live in {place} these days." if i == 0 else f"Reply {i} about {place}.",
                        at=at + timedelta(minutes=i))
    mem.close_session("s")
    srv.script_json(answer(place))
    assert mem.index(now=NOW).sessions_summarized == 1


def _relations(mem: Memory) -> list[tuple[str, str, str]]:
    return sorted((r[0], r[1], r[2]) for r in mem.store._run(
        "SELECT source_entity, relation, target_entity FROM relations"))


def _unsaid(mem: Memory) -> list[tuple[str, ...]]:
    """Relations read beside a fact with no fact of their scope saying their value."""
    said = {(sc, s, p, v) for sc, subj, s, p, v in mem.store._run(
        "SELECT scope, subject, norm_subject, norm_predicate, norm_object FROM facts")}
    return [r for r in mem.store._run(
        "SELECT scope, source_entity, relation, target_entity FROM relations"
        " WHERE message_id IS NOT NULL")
        if (r[0], r[1], r[2], normalize_value(r[3])) not in said]


@pytest.mark.parametrize(("first", "then"), SPELLINGS)
def test_gc_keeps_the_edge_of_a_value_said_again_in_another_spelling(
        db_url: str, srv: ChatServer, first: str, then: str) -> None:
    mem = _memory(db_url, srv)
    try:
        _say(mem, srv, 5, first)
        _say(mem, srv, 3, then)
        assert [(f.object, f.status) for f in mem.facts("s")] == [(first, "current")]
        before = _relations(mem)
        assert len(before) == 2 and _unsaid(mem) == []
        assert mem.gc(NOW).relations_removed == 0
        assert _relations(mem) == before
        # one value, said twice: neither spelling's edge is history
        assert mem.graph("user", "s")["superseded"] == []
    finally:
        mem.close()


@pytest.mark.parametrize(("first", "then"), SPELLINGS)
def test_forgetting_a_value_takes_its_edges_in_every_spelling(
        db_url: str, srv: ChatServer, first: str, then: str) -> None:
    mem = _memory(db_url, srv)
    try:
        _say(mem, srv, 5, first)
        _say(mem, srv, 3, then)
        mem.forget_fact(mem.facts("s")[0].id)
        assert _relations(mem) == []
        with pytest.raises(NotFoundError):
            mem.graph("user", "s")  # the forgotten value is no edge of the user's
    finally:
        mem.close()


def test_erasing_the_first_session_leaves_no_edge_without_its_value(
        db_url: str, srv: ChatServer) -> None:
    """The session that first said it erased: its fact goes, and the relation of the kept
    session that said it again goes until that session is read again (it is queued again),
    which brings back the fact and its edge."""
    mem = _memory(db_url, srv)
    try:
        _say(mem, srv, 5, "The Hague")
        _say(mem, srv, 3, "Hague")
        first = min(s.id for s in mem.sessions("s"))
        mem.forget_session(first)
        assert _unsaid(mem) == []
        assert _relations(mem) == []
        srv.script_json(answer("Hague"))
        assert mem.index(now=NOW).sessions_summarized == 1
        assert [f.object for f in mem.facts("s")] == ["Hague"]
        assert _relations(mem) == [("user", "lives_in", "hague")] and _unsaid(mem) == []
    finally:
        mem.close()
