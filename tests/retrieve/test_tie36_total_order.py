"""Every ordering that decides what a user sees is total (session 36): equal scores come
out by id whatever order they came in, not in the order the rows came from a store.

With the 1,287-conversation sentence weights a turn and a summary tied at 0.21 for
"billing postgres decision" in team-backend, and SQLite and PostgreSQL packed them in
opposite orders: each sort on the score alone kept the tie in the order of each store's
candidate list (tests/pack/test_pack_session26.py::test_the_same_pack_on_both_stores).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.config import PackConfig
from memlane.pack.packer import build_pack, candidates_from
from memlane.pack.tokens import counter_for
from memlane.retrieve.candidates import Candidate
from memlane.retrieve.order import best_first, by_relevance, by_score, session_order
from memlane.retrieve.search import _Scored
from memlane.retrieve.twostage import StageParams, rank_sessions
from memlane.types import Item, Message

T0 = datetime(2024, 5, 1, tzinfo=UTC)
# few distinct values, so that most draws hold ties (and a NaN, which sorts last)
SCORES = st.sampled_from([0.0, 0.21, 0.21, 0.5, 1.0, float("nan")])


@settings(max_examples=60, deadline=None)
@given(scores=st.lists(SCORES, min_size=2, max_size=12), seed=st.integers(0, 2**32 - 1))
def test_candidates_tied_on_relevance_come_out_by_id_whatever_their_input_order(scores, seed):
    cands = [Candidate(id=i, rrf=0.0, relevance=s) for i, s in enumerate(scores, start=1)]
    shuffled = list(cands)
    random.Random(seed).shuffle(shuffled)
    a = [c.id for c in sorted(cands, key=by_relevance)]
    b = [c.id for c in sorted(shuffled, key=by_relevance)]
    assert a == b
    rel = {c.id: c.relevance for c in cands}
    numbers = [i for i in a if rel[i] == rel[i]]
    assert a[len(numbers):] == sorted(i for i in a if rel[i] != rel[i])  # NaN last, by id
    assert numbers == sorted(numbers, key=lambda i: (-rel[i], i))


def _items(sessions: list[int]) -> dict[int, Item]:
    """A user turn per entry, item ``i + 1`` in session ``sessions[i]`` (None: no session)."""
    return {i: Item(id=i, kind="turn", text=f"turn {i}", at=T0 + timedelta(minutes=i),
                    session_id=s, role="user")
            for i, s in enumerate(sessions, start=1)}


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from([None, 3, 5, 8, 13]),
                               st.sampled_from([0.2, 0.21, 0.5])), min_size=2, max_size=10),
       seed=st.integers(0, 2**32 - 1))
def test_sessions_tied_in_stage_one_come_out_by_session_id_whatever_the_candidate_order(rows, seed):
    items = _items([s for s, _ in rows])
    cands = [Candidate(id=i, rrf=0.0, relevance=r) for i, (_, r) in enumerate(rows, start=1)]
    shuffled = list(cands)
    random.Random(seed).shuffle(shuffled)
    a = rank_sessions(cands, items, StageParams())
    b = rank_sessions(shuffled, items, StageParams())
    assert [(s.key, s.score, s.rank) for s in a] == [(s.key, s.score, s.rank) for s in b]
    assert [s.key for s in a] == [s.key for s in sorted(a, key=lambda s: (
        best_first(s.score, 0)[0], session_order(s.key)))]


def test_a_turn_and_a_summary_at_one_score_are_ranked_by_id_whatever_their_input_order():
    """The failing example's tie: turn 19 and its session's summary 77 at 0.21."""
    turn = Candidate(id=19, rrf=0.0141, relevance=0.21)
    summary = Candidate(id=77, rrf=0.0139, relevance=0.21)
    assert sorted([summary, turn], key=by_relevance) == sorted([turn, summary], key=by_relevance)
    assert [c.id for c in sorted([summary, turn], key=by_relevance)] == [19, 77]


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 8), budget=st.sampled_from([30, 60, 120, 2000]),
       seed=st.integers(0, 2**32 - 1))
def test_recent_messages_of_one_time_and_seq_pack_alike_whatever_their_input_order(n, budget, seed):
    """Messages of two sessions of a scope can share a time and a seq: the recent slot
    orders them by id after those, not by the order the list came in."""
    recent = [Message(id=i, session_id=i % 2 + 1, scope="s", role="user",
                      text=f"message number {i} " + "word " * i, at=T0, seq=1)
              for i in range(1, n + 1)]
    shuffled = list(recent)
    random.Random(seed).shuffle(shuffled)
    cfg, counter = PackConfig(), counter_for("gpt-4")
    packs = [build_pack("q", budget, candidates_from([], r, [], cfg, {}), cfg, counter)
             for r in (recent, shuffled)]
    assert packs[0].text == packs[1].text
    decided = [{e.message_id: (e.kept, e.reason) for e in p.entries} for p in packs]
    assert decided[0] == decided[1]


FLOORS = st.sampled_from([0.5, 1.13, 1.13, 1.13, 2.0, float("nan")])
EARNED = st.one_of(st.none(), st.sampled_from([0.0, 0.35, 0.35, 1.07, 1.5, float("nan")]))


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(st.tuples(FLOORS, EARNED), min_size=2, max_size=12),
       seed=st.integers(0, 2**32 - 1))
def test_hits_at_one_score_come_by_what_they_earned_then_by_id_whatever_their_input_order(
        rows, seed):
    """Session 37: a floor or cap sets many scored hits to one score (``_Scored.earned``
    keeps what each earned before); equal scores go by that, then by id."""
    pool = [_Scored(id=i, score=s, signals={}, cand=None, earned=e)
            for i, (s, e) in enumerate(rows, start=1)]
    shuffled = list(pool)
    random.Random(seed).shuffle(shuffled)
    a = [x.id for x in sorted(pool, key=by_score)]
    assert a == [x.id for x in sorted(shuffled, key=by_score)]
    got = {x.id: x for x in pool}

    def down(v: float) -> float:  # higher first, a NaN after every number
        return -v if v == v else float("inf")

    assert a == sorted(a, key=lambda i: (
        down(got[i].score), down(got[i].score if got[i].earned is None else got[i].earned), i))
