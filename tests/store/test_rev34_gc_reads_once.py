"""``gc`` reads a session's messages once while they are the ones read (rev34; docs/facts.md,
"Session 34: the cost of gc's reading grows with a session's length").

Session 33's sweep reads a session with the offline patterns when its summary cannot say
whether a relation's end was a node; a relation whose ends the reading does not name (a
fact's long object) stays, so the same session was read on every ``gc``: 1.6 s of CPU a run
for one session of 8,000 messages. The relation now keeps the answer (``relation_reads``: the
session's ``summarized_at`` read), and ``gc`` reads the session again only when its
messages changed (a late message queues it again and a new ``summarized_at`` is written).
The work is counted (the sessions the reading is given), never timed; what ``gc`` removes
is checked against a sweep that reads every session afresh. Both stores."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.index.hygiene import offline_entity_keys
from memlane.index.normalize import name_key
from memlane.memory import Memory
from memlane.testing import memory
from memlane.types import Message

NOW = datetime(2024, 6, 1, tzinfo=UTC)
_SCOPES = itertools.count()
STATEMENTS = ["I live in Lisbon, yes.", "I work at Zqbake Corp in Lisbon as a baker.",
              "My sister Quillan lives in Porto.", "I moved to Porto last spring."]
NAMES = ["Lisbon", "Porto", "Quillan"]


class Reader:
    """``offline_entity_keys``, counting the sessions it is given."""

    def __init__(self) -> None:
        self.sessions: list[int] = []

    def __call__(self, messages: Sequence[Message]) -> set[str]:
        self.sessions.append(messages[0].session_id)
        return offline_entity_keys(messages)


def _session(mem: Memory, scope: str, days: int, text: str) -> int:
    """A closed, indexed session: ``text``, and an answer two minutes later."""
    mem.add_message(scope, "user", text, at=NOW - timedelta(days=days))
    mem.add_message(scope, "assistant", "Noted.", at=NOW - timedelta(days=days, minutes=-2))
    mem.close_session(scope)
    mem.index(now=NOW)
    return max(s.id for s in mem.sessions(scope))


def _late(mem: Memory, scope: str, session_id: int) -> None:
    """A message a minute after the session's first, before its answer: late, it joins the
    session, which is queued again and indexed anew (a new ``summarized_at``)."""
    first = mem.store.session_messages(session_id)[0]
    mem.add_message(scope, "assistant", "I see.",
                    at=datetime.fromtimestamp(first.at.timestamp() + 60, UTC))
    mem.index(now=NOW)


def _evict(mem: Memory, scope: str, name: str) -> None:
    """What hygiene did in sessions 28 to 30: the entity items and the node deleted, the
    relations naming it kept."""
    run = mem.store._run
    with mem.store.atomic():
        run("DELETE FROM items WHERE scope = %s AND kind = 'entity' AND text LIKE %s",
            (scope, f"{name} (%"))
        run("DELETE FROM entities WHERE scope = %s AND norm_name = %s", (scope, name_key(name)))


def _relations(mem: Memory, scope: str) -> set[int]:
    return {int(r[0]) for r in mem.store._run("SELECT id FROM relations WHERE scope = %s",
                                               (scope,))}


def _triples(mem: Memory, scope: str) -> set[tuple[str, str, str]]:
    return {(str(a), str(b), str(c)) for a, b, c in mem.store._run(
        "SELECT source_entity, relation, target_entity FROM relations WHERE scope = %s",
        (scope,))}


class _Undo(Exception):
    pass


def _fresh(mem: Memory, scope: str) -> set[int]:
    """The relations a sweep that reads every session afresh takes: the kept answers
    cleared in a transaction rolled back."""
    got: set[int] = set()
    try:
        with mem.store.atomic():
            mem.store._run("DELETE FROM relation_reads", ())
            got = set(mem.store.unnoded_relations(scope, read=offline_entity_keys).get(scope, ()))
            got |= set(mem.store.dangling_relations(scope).get(scope, ()))
            raise _Undo
    except _Undo:
        return got


def test_a_session_is_read_once_until_its_messages_change(db_url: str) -> None:
    mem = memory(db_url)
    try:
        scope = f"once-{next(_SCOPES)}"
        work = _session(mem, scope, 3, "I work at Zqbake Corp in Lisbon as a baker.")
        kept = _triples(mem, scope)
        reader = Reader()
        assert mem.store.remove_dangling_relations(read=reader) == 0
        assert reader.sessions == [work]  # read: the long object is no node
        for _ in range(3):  # read on every run before
            assert mem.store.remove_dangling_relations(read=reader) == 0
        assert reader.sessions == [work]
        _late(mem, scope, work)  # its messages changed: read again, once
        for _ in range(2):
            assert mem.store.remove_dangling_relations(read=reader) == 0
        assert reader.sessions == [work, work]
        assert _triples(mem, scope) == kept  # (written anew: PostgreSQL gives a new id)
    finally:
        mem.close()


def test_an_end_evicted_after_the_answer_was_kept_is_still_swept(db_url: str) -> None:
    """The answer is kept of both ends: "Lisbon", a node when the session was read, is
    named by the reading; evicted afterwards, its relation goes."""
    mem = memory(db_url)
    try:
        scope = f"evicted-{next(_SCOPES)}"
        _session(mem, scope, 4, "I live in Lisbon, yes.")
        _session(mem, scope, 3, "I work at Zqbake Corp in Lisbon as a baker.")
        before = _relations(mem, scope)
        assert mem.store.remove_dangling_relations(read=Reader()) == 0
        _evict(mem, scope, "Lisbon")
        want = _fresh(mem, scope)
        assert want, "the relation to Lisbon is the sweep's"
        assert mem.store.remove_dangling_relations(read=Reader()) == len(want)
        assert _relations(mem, scope) == before - want
    finally:
        mem.close()


STEPS = st.lists(st.one_of(
    st.tuples(st.just("session"), st.sampled_from(STATEMENTS)),
    st.tuples(st.just("evict"), st.sampled_from(NAMES)),
    st.tuples(st.just("late"), st.integers(0, 5)),
    st.tuples(st.just("gc"), st.just(0))), min_size=1, max_size=8)


def test_gc_with_kept_answers_removes_what_a_fresh_reading_removes(db_url: str) -> None:
    """Any sequence of sessions, evictions, late messages and gc runs: each run removes
    exactly what a sweep reading every session afresh removes, and a run right after
    another reads no session."""
    mem = memory(db_url)

    @settings(max_examples=12 if "postgres" in db_url else 20, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(steps=STEPS)
    def run(steps: list[tuple[str, Any]]) -> None:
        scope = f"prop-{next(_SCOPES)}"
        sessions: list[int] = []
        for n, (kind, arg) in enumerate([*steps, ("gc", 0)]):
            if kind == "session":
                sessions.append(_session(mem, scope, 30 - n, arg))
            elif kind == "evict":
                _evict(mem, scope, arg)
            elif kind == "late" and sessions:
                _late(mem, scope, sessions[arg % len(sessions)])
            elif kind == "gc":
                want = _fresh(mem, scope)
                before = _relations(mem, scope)
                assert mem.store.remove_dangling_relations(read=Reader()) == len(want)
                assert _relations(mem, scope) == before - want
                again = Reader()
                assert mem.store.remove_dangling_relations(read=again) == 0
                assert again.sessions == []

    try:
        run()
    finally:
        mem.close()
