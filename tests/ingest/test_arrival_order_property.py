"""A session is its messages, whatever happened to them (session 24).

Random conversations (messages at random minutes, three speakers) delivered in a random
order, one at a time or in batches, with index runs between them, then turns forgotten
(``forget_item``) between more index runs, on a SQLite file and on PostgreSQL. After every
step each session's span (``started_at``, ``ended_at``) is its messages' first and last
time and its ``participants`` its messages' speakers; after every index run each turn's
lexical keys are those ``index.indexer.turn_keys`` computes from its session's messages as
they are stored (a short turn carries the previous message's words, so a late message placed
between two turns changes the next one's keys).

Before session 24, forgetting a session's first or last turn left its span stretched to the
erased message, forgetting a speaker's only turn left the speaker among its participants, and
a late message placed mid-session left the next turn keyed by its old neighbour's words.
"""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.index.indexer import turn_keys
from memlane.memory import Memory
from memlane.testing import HashingEmbedder
from tests.test_erase import NOW, OVERRIDES

BASE = NOW - timedelta(days=3)
LATER = BASE + timedelta(days=2)
WORDS = ["parrot", "lake", "tea", "violin", "garden", "train", "ok", "sure", "yes"]


def _open(url: str) -> Memory:
    return Memory(url, config=load_config(environ={}, overrides=OVERRIDES),
                  embedder=HashingEmbedder(dim=64))


def check_sessions(mem: Memory, scope: str, *, indexed: bool,
                   erased: bool = False) -> list[frozenset[str]]:
    """Every invariant of the scope's sessions; their messages' texts, one set a session.
    ``erased``: right after a ``forget_item``, whose erase keys the turns of a session still
    marked indexed again at once (``rekey_turns``)."""
    out = []
    for s in mem.sessions(scope, limit=10_000):
        msgs = mem.messages(s.id)
        assert msgs, s
        assert (s.started_at, s.ended_at) == (min(m.at for m in msgs), max(m.at for m in msgs)), (
            s, msgs)
        assert sorted(s.participants) == sorted({m.speaker or m.role for m in msgs}), (s, msgs)
        assert len(set(s.participants)) == len(s.participants), s
        if (indexed and s.status != "open") or (erased and s.indexed):
            keys = dict(mem.store._run(  # type: ignore[attr-defined]
                "SELECT message_id, keys FROM items WHERE session_id = %s AND kind = 'turn'",
                (s.id,)).fetchall())
            assert keys == turn_keys(msgs), (s, msgs, keys)
        out.append(frozenset(m.text for m in msgs))
    return out


message = st.tuples(st.integers(0, 60 * 6), st.sampled_from([None, "ann", "bob"]),
                    st.sampled_from(WORDS))


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_span_participants_and_keys_follow_the_messages(request: pytest.FixtureRequest,
                                                        tmp_path: Any, backend: str) -> None:
    counter = itertools.count()

    @settings(max_examples=30 if backend == "sqlite" else 12, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(msgs=st.lists(message, min_size=2, max_size=14),
           order=st.randoms(use_true_random=False),
           index_after=st.sets(st.integers(0, 13), max_size=3),
           batched=st.booleans(),
           forgets=st.lists(st.tuples(st.integers(0, 10**6), st.booleans()), min_size=1,
                            max_size=5))
    def run(msgs: list[Any], order: Any, index_after: set[int], batched: bool,
            forgets: list[tuple[int, bool]]) -> None:
        n = next(counter)
        url = str(tmp_path / f"h{n}.db") if backend == "sqlite" else str(
            request.getfixturevalue("pg_url"))
        scope = f"s{n}"
        rows = [{"scope": scope, "role": "user" if i % 2 == 0 else "assistant",
                 "speaker": who, "text": f"m{i} {word}", "at": BASE + timedelta(minutes=minute)}
                for i, (minute, who, word) in enumerate(msgs)]
        order.shuffle(rows)
        with _open(url) as mem:
            for i, row in enumerate(rows):
                if batched:
                    mem.add_messages([row])
                else:
                    mem.add_message(**row)
                if i in index_after:
                    mem.index(now=LATER)
                    check_sessions(mem, scope, indexed=True)
                else:
                    check_sessions(mem, scope, indexed=False)
            mem.index(now=LATER)
            check_sessions(mem, scope, indexed=True)
            for pick, index in forgets:
                turns = [t for s in mem.sessions(scope, limit=10_000)
                         for t in mem.store.session_items(s.id, kind="turn")]
                if not turns:
                    break
                mem.forget_item(turns[pick % len(turns)].id)
                check_sessions(mem, scope, indexed=False, erased=True)
                if index:
                    mem.index(now=LATER)
                    check_sessions(mem, scope, indexed=True)
            ran.append(len(rows))

    ran: list[int] = []
    run()
    assert len(ran) >= 8, ran


def test_a_speaker_erased_in_one_process_is_listed_again_when_speaking_in_another(
        db_url: str) -> None:
    """Two memories on one database (two processes): one forgets bob's only turn of the
    open session, the other, which had stored it, stores bob's next message there. Before
    session 24 the second skipped the participants' update from its own cache of them (bob
    was "known"), and the session listed only ann."""
    with _open(db_url) as writer, _open(db_url) as other:
        writer.add_message("chat", "user", "hi from ann", at=BASE, speaker="ann")
        writer.add_message("chat", "user", "hi from bob", at=BASE + timedelta(minutes=1),
                           speaker="bob")
        writer.add_message("chat", "user", "bye from ann", at=BASE + timedelta(minutes=4),
                           speaker="ann")
        writer.close_session("chat")
        writer.index(now=LATER)
        [sid] = [s.id for s in writer.sessions("chat")]
        [bobs] = [t for t in other.store.session_items(sid, kind="turn") if "bob" in t.text]
        other.forget_item(bobs.id)
        assert other.session(sid).participants == ("ann",)
        # bob again, late into the same session (between ann's two), through the first
        # memory
        writer.add_message("chat", "user", "bob again", at=BASE + timedelta(minutes=2),
                           speaker="bob")
        assert sorted(writer.session(sid).participants) == ["ann", "bob"]
        check_sessions(writer, "chat", indexed=False)


def _by_gap(rows: list[dict[str, Any]], gap_minutes: float) -> list[frozenset[str]]:
    """The sessions a time gap cuts: runs of messages, in time order, no more than the gap
    apart."""
    out: list[set[str]] = []
    last = None
    for row in sorted(rows, key=lambda r: r["at"]):
        if last is None or (row["at"] - last).total_seconds() > gap_minutes * 60:
            out.append(set())
        out[-1].add(row["text"])
        last = row["at"]
    return [frozenset(s) for s in out]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_the_same_messages_in_any_order_give_the_same_sessions(
        request: pytest.FixtureRequest, tmp_path: Any, backend: str) -> None:
    """Two arrival orders of one conversation, each with index runs (which close idle
    sessions) at their own places: the same sessions, those the gap cuts. Before session 24
    a message within the gap of two sessions joined one of them (14:00, 14:50, then 14:25
    gave two sessions), and one within the gap after a session an index run had closed
    opened another."""
    counter = itertools.count()

    @settings(max_examples=30 if backend == "sqlite" else 12, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(msgs=st.lists(message, min_size=2, max_size=12),
           orders=st.lists(st.randoms(use_true_random=False), min_size=2, max_size=2),
           index_after=st.lists(st.sets(st.integers(0, 11), max_size=3), min_size=2,
                                max_size=2),
           batched=st.booleans())
    def run(msgs: list[Any], orders: list[Any], index_after: list[set[int]],
            batched: bool) -> None:
        n = next(counter)
        url = str(tmp_path / f"o{n}.db") if backend == "sqlite" else str(
            request.getfixturevalue("pg_url"))
        got = []
        with _open(url) as mem:
            gap = mem.config.ingest.session_gap_minutes
            for k, (order, indexes) in enumerate(zip(orders, index_after, strict=True)):
                scope = f"p{n}.{k}"
                rows = [{"scope": scope, "role": "user", "speaker": who, "text": f"m{i} {word}",
                         "at": BASE + timedelta(minutes=minute)}
                        for i, (minute, who, word) in enumerate(msgs)]
                order.shuffle(rows)
                for i, row in enumerate(rows):
                    if batched:
                        mem.add_messages([row])
                    else:
                        mem.add_message(**row)
                    if i in indexes:
                        mem.index(now=LATER)
                        check_sessions(mem, scope, indexed=True)
                mem.index(now=LATER)
                got.append(sorted(check_sessions(mem, scope, indexed=True), key=sorted))
            assert got[0] == got[1] == sorted(_by_gap(rows, gap), key=sorted), got
        ran.append(len(msgs))

    ran: list[int] = []
    run()
    assert len(ran) >= 8, ran
