"""Erasing a session's first message leaves its time nowhere in where the meaning
backfill's walks stand (session 36, rev36).

A walk's place is the last session it passed, as ``[started_at, id]`` (``store.walks``).
Session 35 moved a walk off a session an erase deletes (rev35), but ``erase_messages`` of a
session's first message keeps the session and moves its start to the next message
(``_renumber``, session 24: "it showed when the erased one was sent"): the walk standing
at that session kept the erased message's time as its place, in the erase and in a round
that stored its place after the erase."""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.index.embed import text_hash
from memlane.retrieve.meaning import (
    BACKFILL_REST,
    RESCORED_KINDS,
    MeaningTier,
    _walk_key,
    passages,
)
from memlane.testing import HashingEmbedder

from tests.store.test_rev35_erase_walks import (
    _clocked_tier,
    _every_passage_reached,
    _noting,
    _texts,
    _two_scopes,
    _uncached,
    _walked_into_alice,
    _walks,
)

_seeds = itertools.count(3700)


def _first_message(m: Any, session_id: int) -> tuple[int, float]:
    """The id and time of the session's first message (its start)."""
    first = m.messages(session_id)[0]
    return first.id, first.at.timestamp()


def _no_trace(m: Any, at: float) -> None:
    """No walk row holds the time ``at`` (as stored, or as any spelling of the float)."""
    for key, w in _walks(m.store).items():
        after = w.get("after") or [None]
        assert after[0] is None or abs(float(after[0]) - at) > 1e-3, (key, w)
        assert repr(at) not in json.dumps(w) and str(at) not in json.dumps(w), (key, w)


def _everything_cached(m: Any, emb: Any) -> None:
    tier = MeaningTier(emb)
    while tier.backfill(m.store, 5):
        pass
    rest = _texts(m.store, "alice") | _texts(m.store, "bob")
    assert len(m.store.cached_vectors(emb.name, [text_hash(t) for t in rest])) == len(rest)


def test_erasing_a_sessions_first_message_moves_the_walks_off_its_time(db_url: str) -> None:
    emb = HashingEmbedder(dim=8, seed=next(_seeds))
    with _two_scopes(db_url) as m:
        alone = HashingEmbedder(dim=8, seed=next(_seeds))
        alice = _walked_into_alice(m, emb, alone)
        message, at = _first_message(m, alice[0][1])
        assert abs(at - alice[0][0]) < 1e-3  # the walks stand at the message's time
        m.store.erase_messages([message])
        assert m.store.get_sessions([alice[0][1]])  # the session is kept, its start moved
        _no_trace(m, at)
        _everything_cached(m, emb)


def test_a_forget_item_of_a_first_turn_moves_the_walks_off_its_time(db_url: str) -> None:
    """``Memory.forget_item`` of the first turn (``memlane forget --item``): the same erase."""
    emb = HashingEmbedder(dim=8, seed=next(_seeds))
    with _two_scopes(db_url) as m:
        alice = _walked_into_alice(m, emb, HashingEmbedder(dim=8, seed=next(_seeds)))
        message, at = _first_message(m, alice[0][1])
        turn = next(it for it in m.store.session_items(alice[0][1])
                    if it.kind == "turn" and it.message_id == message)
        m.forget_item(turn.id)
        _no_trace(m, at)
        _everything_cached(m, emb)


def test_a_first_message_erased_during_a_round_is_not_stored_as_its_place(db_url: str) -> None:
    """A round passed alice's newest session; the erase of its first message commits; then
    the round stores its place: the place read before the erase held the erased time."""
    emb = HashingEmbedder(dim=8, seed=next(_seeds))
    with _two_scopes(db_url) as m:
        newest = m.store.list_sessions(scope="alice")[0]
        tier, key = MeaningTier(emb), _walk_key(emb.name, None)
        walk = tier._take(m.store, key)
        assert walk is not None
        tier._walk(m.store, walk, 5, None, 64, lease=True)
        assert walk.after is not None and walk.after[1] == newest.id
        message, at = _first_message(m, newest.id)
        m.store.erase_messages([message])
        tier._give(m.store, key, walk, 5)  # its place, after the erase
        _no_trace(m, at)
        _everything_cached(m, emb)


def test_an_erase_of_a_text_a_kept_item_holds_is_walked_again_after_the_rest(
        db_url: str) -> None:
    """walk47: bob's newest session says what alice's newest says. A walk passed alice's;
    an erase of one of bob's messages deletes its texts' cached vectors, alice's same text's
    too (``_forget_cached``: the cache only saves embedding it again). The walk goes on to
    its end without it (it passed alice's session); after its rest it walks from the newest
    again and computes it, and nothing else."""
    emb = HashingEmbedder(dim=8, seed=next(_seeds))
    clock = [1_000.0]

    def tier() -> MeaningTier:
        return _clocked_tier(emb, clock)

    with _two_scopes(db_url) as m:
        alice = m.store.list_sessions(scope="alice")[0]
        bob = m.store.list_sessions(scope="bob")[0]  # says what alice's newest says
        message = m.messages(bob.id)[1]
        turn = next(it for it in m.store.session_items(bob.id)
                    if it.kind == "turn" and it.message_id == message.id)
        first = len(_held(m.store, [alice.id]))
        tier().backfill(m.store, first + 1)
        assert _walks(m.store)[_walk_key(emb.name, None)]["after"][1] == alice.id
        assert turn.text in _held(m.store, [alice.id]) - _uncached(m.store, emb)
        m.store.erase_messages([message.id])
        others = _held(m.store, [s.id for s in m.store.list_sessions(limit=100)
                                 if s.id != alice.id])
        behind = _uncached(m.store, emb) - others  # only alice's newest holds them
        assert turn.text in behind  # the erase took alice's vector of her same turn
        t = tier()
        while t.backfill(m.store, 5):
            pass
        assert _uncached(m.store, emb) == behind  # the walk had passed them
        assert not tier().backfill(m.store, 5)  # it rests
        clock[0] += BACKFILL_REST + 1.0
        t = tier()
        while t.backfill(m.store, 5):
            pass
        assert not _uncached(m.store, emb) and t.computed == len(behind)


def _held(store: Any, session_ids: list[int]) -> set[str]:
    """The passages the sessions' items re-scored hold."""
    return {p for sid in session_ids for it in store.session_items(sid)
            if it.kind in RESCORED_KINDS and it.status == "active" and it.text.strip()
            for p in passages(it.text, 0)}


_STEPS = st.lists(st.one_of(
    st.tuples(st.just("round"), st.sampled_from(["alice", "bob", None]), st.integers(1, 9)),
    st.tuples(st.just("message"), st.sampled_from(["alice", "bob"]), st.integers(0, 11)),
    st.tuples(st.just("raced"), st.sampled_from(["alice", "bob"]), st.integers(0, 11))),
    min_size=1, max_size=10)


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=_STEPS)
@example(steps=[("round", "alice", 1), ("round", "alice", 1), ("round", "alice", 1),
                ("round", "alice", 2), ("raced", "bob", 1)])  # walk47
def test_every_walks_place_is_a_kept_messages_time(tmp_path_factory: Any, steps: list[Any]) -> None:
    """Rounds of walks of every scope and of one, between erasures of any message (the
    first of its session or not; ``raced``: between a round's read and its write): after
    each step every walk's place is a stored session at the time of a message still
    stored; and the walks still reach every passage left (those an erase took from the
    cache behind a walk on its next pass: ``_every_passage_reached``)."""
    emb = HashingEmbedder(dim=8, seed=next(_seeds))
    clock = [1_000.0]
    taken: set[str] = set()

    def tier() -> MeaningTier:
        return _clocked_tier(emb, clock)

    with _two_scopes(str(tmp_path_factory.mktemp("walks") / "w.db")) as m:
        for what, scope, n in steps:
            held = [msg for s in m.store.list_sessions(scope=scope) for msg in m.messages(s.id)]
            gone = [held[n % len(held)].id] if held else []
            if what == "round":
                tier().backfill(m.store, n, scope=scope)
            elif what == "message" and held:
                _noting(m.store, emb, taken, lambda: m.store.erase_messages(gone))
            elif what == "raced" and held:
                t, key = tier(), _walk_key(emb.name, None)
                walk = t._take(m.store, key)
                if walk is not None:
                    t._walk(m.store, walk, n, None, 64, lease=True)
                    _noting(m.store, emb, taken, lambda: m.store.erase_messages(gone))
                    t._give(m.store, key, walk, n)
            clock[0] += 1.0
            times = {msg.at.timestamp() for s in m.store.list_sessions(limit=100)
                     for msg in m.messages(s.id)}
            for key, w in _walks(m.store).items():
                if w.get("after"):
                    assert m.store.get_sessions([w["after"][1]]), (key, w)
                    assert float(w["after"][0]) in times, (key, w, sorted(times))
        _every_passage_reached(m.store, emb, clock, taken, tier)
