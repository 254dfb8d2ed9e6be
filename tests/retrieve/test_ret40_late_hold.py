"""A session's late turns (``retrieval.late_turns``: its turns past the best
``turns_per_session``) take none of the first ``LATE_HOLD`` places while another hit is
left, whatever their scores (session 40, ret40b).

The benches showed it (LoCoMo's @1-@5 unchanged over 1,047 questions); the search-level
test in ``test_ret40_turns_per_session.py`` cannot fail on its chat, where no late turn
outscores the others. Here the scores are drawn, so a late turn is often the best hit, and
stage two's final choice (``_select``, greedy with the coverage penalty, and
``_hold_late``, the order MMR gives) must still keep it out of the first places.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.retrieve.options import search_options
from memlane.retrieve.search import _Ctx, _hold_late, _join, _Scored, _select, question_terms
from memlane.retrieve.timeparse import time_windows
from memlane.store.filters import Filters
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
HOLD = 5
"""The places held (``search.LATE_HOLD``), as the docs say: a late turn fills the 6th to 10th."""
QUERY = "Where did Ana swim in the river?"
CHAT = [(day, [(role, f"{who} turn {i} of day {day}: the river, the swim, the bank.")
               for i, (role, who) in enumerate([("user", "Ana"), ("assistant", "Bot")] * 5)])
        for day in (3, 10, 20)]


@pytest.fixture(scope="module")
def ctx(tmp_path_factory):
    m = add_sessions(memory(tmp_path_factory.mktemp("late") / "m.db"), CHAT, now=NOW)
    opts = search_options(m.config)
    c = _Ctx(m.store, m.embeddings, m.config.search, opts, QUERY, question_terms(QUERY),
             time_windows(QUERY, NOW), NOW, Filters.build(scope=m.store.list_sessions()[0].scope))
    for s in m.store.list_sessions():
        c.items.update({it.id: it for it in c.turns_of(s.id)})
    yield c
    m.close()


def _pool(ctx: _Ctx, scores: list[float]) -> list[_Scored]:
    ids = sorted(ctx.items)[: len(scores)]
    return [_Scored(i, s, {"relevance": s}, None, ctx.items[i].session_id, {}) for i, s in zip(ids, scores)]


_SCORES = st.lists(st.floats(0.0, 2.0, allow_nan=False), min_size=1, max_size=30)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scores=_SCORES, data=st.data())
def test_no_late_turn_takes_a_first_place_while_another_hit_is_left(ctx, scores, data):
    pool = _pool(ctx, scores)
    late = set(data.draw(st.sets(st.sampled_from([x.id for x in pool]))))
    n = data.draw(st.integers(1, len(pool)))
    out = _select(ctx, [_Scored(x.id, x.score, dict(x.signals), None, x.key, {}) for x in pool], n, late)
    assert len(out) == n and len({x.id for x in out}) == n
    early = len([x for x in pool if x.id not in late])
    head = out[: min(HOLD, early, n)]
    assert not [x.id for x in head if x.id in late], (scores, late)


@given(order=st.lists(st.integers(0, 40), unique=True, max_size=25), data=st.data())
def test_the_order_mmr_gives_keeps_its_late_turns_out_of_the_first_places(order, data):
    late = set(data.draw(st.sets(st.sampled_from(order)))) if order else set()
    hits = [_Scored(i, 1.0, {}, None, None, {}) for i in order]
    out = [x.id for x in _hold_late(hits, late)]
    assert sorted(out) == sorted(order)
    early = [i for i in order if i not in late]
    assert out[: min(HOLD, len(early))] == early[:HOLD]
    assert [i for i in out if i in late] == [i for i in order if i in late]


@given(order=st.lists(st.integers(0, 40), unique=True, max_size=25), data=st.data())
def test_a_lift_joined_to_the_pool_leaves_the_callers_late_turns_as_they_were(order, data):
    """``_join`` returns the late turns without the lift's hits, and the set it was given is
    not changed (session 41: it took them out in place, behind its caller's back)."""
    late = set(data.draw(st.sets(st.sampled_from(order)))) if order else set()
    lifted_ids = data.draw(st.sets(st.sampled_from(order))) if order else set()
    pool = [_Scored(i, 1.0, {}, None, None, {}) for i in order]
    lifted = [_Scored(i, 2.0, {}, None, None, {}) for i in sorted(lifted_ids)]
    given_late = set(late)
    joined, left = _join(pool, lifted, late)
    assert late == given_late
    assert left == given_late - lifted_ids
    assert sorted(x.id for x in joined) == sorted(order)
    assert [x.score for x in joined if x.id in lifted_ids] == [2.0] * len(lifted_ids)
