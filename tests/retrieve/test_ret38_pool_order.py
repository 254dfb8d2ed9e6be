"""Which hit is a session's best does not depend on the order the pool holds them in
(session 38).

``_openers``, ``_continues`` and ``_newest_first`` read each session's best hit from stage
two's pool, which is not sorted yet: it holds the sessions' turns in the order the store's
candidate lists and turn reads brought them. A strict ``>`` on the score kept the first of
two equal hits, so a tie went to whichever the store listed first, which may differ between
SQLite and PostgreSQL. Now the best is the first by ``order.by_score`` (score, the score it
earned before a floor, id), as every sort of the search orders.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.retrieve.options import search_options
from memlane.retrieve.order import by_score
from memlane.retrieve.search import (
    _best_of_each,
    _continues,
    _Ctx,
    _newest_first,
    _openers,
    _Scored,
    question_terms,
)
from memlane.retrieve.timeparse import time_windows
from memlane.retrieve.twostage import SessionScore
from memlane.store.filters import Filters
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
ADVICE = "Any suggestions on what to do in Denver? I'm planning a trip there soon."
NEWEST = "What is my current favourite park in Denver?"
# one session of four user turns; the first and the third will tie as its best hit
CHAT = [(3, [("user", "I loved the parks of Denver on my last trip."),
             ("assistant", "Denver has lovely parks."),
             ("user", "I like hiking trails in the mountains."),
             ("assistant", "Try the foothills."),
             ("user", "My favourite park in Denver was Washington Park."),
             ("assistant", "A fine choice."),
             ("user", "I also like craft breweries downtown."),
             ("assistant", "There are many.")]),
        (40, [("user", "My favourite park in Denver was City Park back then."),
              ("assistant", "City Park is big."),
              ("user", "I walked there every morning."),
              ("assistant", "Nice habit.")])]


def _setup(m, query: str) -> tuple[_Ctx, list, list[int]]:
    """A search context on ``m``'s real store and embeddings for ``query``; the sessions
    ranked as stage one ranks them (newest first); the user turns of the newest session."""
    opts = search_options(m.config)
    ctx = _Ctx(m.store, m.embeddings, m.config.search, opts, query, question_terms(query),
               time_windows(query, NOW), NOW, Filters.build(scope=m.store.list_sessions()[0].scope))
    sessions = sorted(m.store.list_sessions(), key=lambda s: s.started_at, reverse=True)
    top = [SessionScore(s.id, score=1.0 - i / 10, rank=i + 1) for i, s in enumerate(sessions)]
    users = [it for it in ctx.turns_of(sessions[0].id) if it.role == "user"]
    for s in sessions:
        ctx.items.update({it.id: it for it in ctx.turns_of(s.id)})
    return ctx, top, [it.id for it in users]


def _pool(ctx: _Ctx, rows: list[tuple[int, float]]) -> list[_Scored]:
    """Scored hits (item id, score) of the context's items, in the order given."""
    out = []
    for item_id, score in rows:
        key = ctx.items[item_id].session_id
        out.append(_Scored(item_id, score, {"relevance": score, "session": 1.0}, None, key, {}))
    return out


@pytest.mark.parametrize("where", ["sqlite", "postgres"])
def test_the_turn_continued_is_the_same_whatever_order_the_pool_holds_tied_best_turns_in(
        where, tmp_path, request):
    """The first and third user turns tie as the session's best; the user's next turn after
    the smaller id (the second) is lifted, in every order of the pool. On ``f72f89ca`` the
    turn after whichever tied turn came first was lifted: the fourth when the third led."""
    db = request.getfixturevalue("pg_url") if where == "postgres" else tmp_path / "m.db"
    m = add_sessions(memory(db), CHAT, now=NOW)
    try:
        ctx0, top, users = _setup(m, ADVICE)
        first, second, third, fourth = users
        rows = [(first, 1.25), (third, 1.25), (second, 0.5)]
        lifted = set()
        for order in permutations(rows):
            ctx, top, _ = _setup(m, ADVICE)
            pool = _pool(ctx, list(order))
            added = _continues(ctx, pool, top, {}, {}, 1.0, {}, 1.0)
            raised = {x.id: x.score for x in [*pool, *added] if "continues" in x.signals}
            lifted.add(tuple(sorted(raised.items())))
        assert lifted == {((second, ctx0.opts.continue_lift * 1.25),)}, lifted
        assert fourth not in dict(next(iter(lifted)))
    finally:
        m.close()


@pytest.mark.parametrize("where", ["sqlite", "postgres"])
def test_newest_first_lifts_the_same_hit_whatever_order_the_pool_holds_tied_best_hits_in(
        where, tmp_path, request):
    """Two hits of the newest session tie as its best; the newest-first bonus goes to the
    smaller id in every order of the pool (on ``f72f89ca``, to whichever came first)."""
    db = request.getfixturevalue("pg_url") if where == "postgres" else tmp_path / "m.db"
    m = add_sessions(memory(db), CHAT, now=NOW)
    try:
        _, _, users = _setup(m, NEWEST)
        first, _, third, _ = users
        older = [it.id for it in m.store.session_items(
            sorted(m.store.list_sessions(), key=lambda s: s.started_at)[0].id, kind="turn")
            if it.role == "user"][0]
        rows = [(first, 1.0), (third, 1.0), (older, 1.0)]
        got = set()
        for order in permutations(rows):
            ctx, _, _ = _setup(m, NEWEST)
            pool = _pool(ctx, list(order))
            with m.store.reading(superseded=True):
                _newest_first(ctx, pool, ctx.opts.newest_weight)
            got.add(tuple(sorted((x.id, x.score) for x in pool)))
        assert len(got) == 1, got
        scores = dict(next(iter(got)))
        assert scores[min(first, third)] > 1.0 == scores[max(first, third)]
    finally:
        m.close()


@pytest.mark.parametrize("where", ["sqlite", "postgres"])
def test_openers_floor_at_the_same_score_whatever_order_the_pool_comes_in(
        where, tmp_path, request):
    """``_openers`` reads each session's best score (a value: it was order-free before too;
    the test keeps it so)."""
    db = request.getfixturevalue("pg_url") if where == "postgres" else tmp_path / "m.db"
    m = add_sessions(memory(db), CHAT, now=NOW)
    try:
        _, _, users = _setup(m, ADVICE)
        rows = [(users[2], 1.25), (users[3], 1.25), (users[1], 0.5)]
        got = set()
        for order in permutations(rows):
            ctx, top, _ = _setup(m, ADVICE)
            pool = _pool(ctx, list(order))
            added = _openers(ctx, pool, top, {}, {}, 1.0, {}, 1.0)
            got.add(tuple(sorted((x.id, x.score) for x in [*pool, *added])))
        assert len(got) == 1, got
        assert dict(next(iter(got)))[users[0]] == pytest.approx(0.9 * 1.25)
    finally:
        m.close()


FEW = st.sampled_from([0.5, 1.0, 1.0, 1.25, float("nan")])


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from([1, 2, 3]), FEW, st.none() | FEW),
                     min_size=1, max_size=10),
       seed=st.integers(0, 2**32 - 1))
def test_each_sessions_best_is_the_first_by_score_earned_and_id_whatever_the_order(rows, seed):
    hits = []
    for i, (key, score, earned) in enumerate(rows, start=1):
        x = _Scored(i, score, {}, None, key, {})
        x.earned = earned
        hits.append(x)
    shuffled = list(hits)
    random.Random(seed).shuffle(shuffled)
    a = {k: x.id for k, x in _best_of_each(hits).items()}
    b = {k: x.id for k, x in _best_of_each(shuffled).items()}
    assert a == b
    for key, best in a.items():
        own = [x for x in hits if x.key == key]
        assert best == min(own, key=by_score).id

