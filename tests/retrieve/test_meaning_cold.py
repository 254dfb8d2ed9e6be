"""The meaning tier's bounded cold query (``retrieval.meaning_cold``, session 32): at most N
uncached passages embedded in a query, the rest queued for the worker's next round."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import ConfigError, load_config
from memlane.index.embed import text_hash
from memlane.retrieve.candidates import Candidate
from memlane.retrieve.explain import explain, explain_lines
from memlane.retrieve.meaning import shared_tier
from memlane.retrieve.search import _cold_lifts
from memlane.testing import add_sessions, memory

from tests.retrieve.test_meaning import NOW, SESSIONS  # the same three conversations

QUERIES = ["What kind of animal lives with me?", "repainting cabinets in the kitchen",
           "tax spreadsheet for the accountant", "the hinges squeak", "chew toys for the dog"]


def _mem(path: Path, cold: int) -> object:
    return add_sessions(memory(path, retrieval={"meaning_candidates": 14, "meaning_cold": cold}),
                        SESSIONS, now=NOW)


def _texts(m) -> list[str]:
    return sorted({it.text for s in m.store.list_sessions(scope="chat")
                   for it in m.store.session_items(s.id) if it.text.strip()})


def _cached(m, texts: list[str]) -> int:
    tier = shared_tier(m.config.retrieval.meaning_max_tokens)
    return len(m.store.cached_vectors(tier.model, [text_hash(t) for t in texts]))


@pytest.fixture
def cold3(tmp_path: Path) -> Iterator[object]:
    m = _mem(tmp_path / "c.db", 3)
    yield m
    m.close()


def test_a_cold_query_embeds_at_most_meaning_cold_passages(cold3) -> None:
    tier = shared_tier(cold3.config.retrieval.meaning_max_tokens)
    assert _cached(cold3, _texts(cold3)) == 0
    before, skipped = tier.computed, tier.skipped
    hits = cold3.search("repainting cabinets in the kitchen", scope="chat", k=5, now=NOW,
                        preset="meaning")
    assert hits
    assert tier.computed - before == 3  # the limit, not the 14 candidates
    assert _cached(cold3, _texts(cold3)) == 3
    assert tier.skipped - skipped == tier.pending(cold3.store) > 0  # queued, by item
    # the next query embeds the next best uncached ones, again at most 3
    cold3.search("kitchen cabinet colour", scope="chat", k=5, now=NOW, preset="meaning")
    assert tier.computed - before <= 6


def test_the_worker_round_computes_what_a_cold_query_left(cold3) -> None:
    tier = shared_tier(cold3.config.retrieval.meaning_max_tokens)
    q = "repainting cabinets in the kitchen"
    first = cold3.search(q, scope="chat", k=10, now=NOW, preset="meaning")
    assert any("meaning_skipped" in h.scores for h in first)
    left = {h.item.text for h in first if "meaning_skipped" in h.scores}
    assert _cached(cold3, sorted(left)) == 0
    assert cold3.store.sessions_to_index(limit=10) == []  # nothing to index: only the queue
    cold3.work_once(now=NOW)
    assert tier.pending(cold3.store) == 0
    assert _cached(cold3, sorted(left)) == len(left)  # cached after the worker's round
    before = tier.computed
    again = cold3.search(q, scope="chat", k=10, now=NOW, preset="meaning")
    assert tier.computed == before  # nothing left to embed
    assert not any("meaning_skipped" in h.scores for h in again)


def test_an_item_erased_before_the_round_is_not_embedded(cold3) -> None:
    tier = shared_tier(cold3.config.retrieval.meaning_max_tokens)
    cold3.search("repainting cabinets in the kitchen", scope="chat", k=10, now=NOW,
                 preset="meaning")
    assert tier.pending(cold3.store) > 0
    cold3.forget_scope("chat")
    before = tier.computed
    cold3.work_once(now=NOW)
    assert tier.computed == before and tier.pending(cold3.store) == 0


def test_explain_says_a_hit_was_not_rescored_this_time(tmp_path: Path) -> None:
    m = _mem(tmp_path / "e.db", 1)
    try:
        hits = m.search("repainting cabinets in the kitchen", scope="chat", k=10, now=NOW,
                        preset="meaning", explain=True)
        left = [h for h in hits if "meaning_skipped" in h.scores]
        scored = [h for h in hits if "meaning" in h.scores]
        assert left and scored
        for h in left:
            assert "meaning" not in h.scores
            assert any("not re-scored this time" in line for line in explain_lines(h))
            assert "retrieval.meaning_cold" in explain(h)["notes"][0]
        assert all("notes" not in explain(h) for h in scored)
    finally:
        m.close()


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    m = _mem(tmp_path_factory.mktemp("warm") / "w.db", 0)
    tier = shared_tier(m.config.retrieval.meaning_max_tokens)
    tier.warm(m.store, [s.id for s in m.store.list_sessions(scope="chat")])
    yield m
    m.close()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.sampled_from(QUERIES), cold=st.integers(1, 20))
def test_with_a_warm_cache_the_ranking_is_the_unbounded_one(warm, query: str, cold: int) -> None:
    def run(n: int) -> list[tuple[int, float]]:
        warm.config = replace(warm.config, retrieval=replace(warm.config.retrieval,
                                                             meaning_cold=n))
        hits = warm.search(query, scope="chat", k=10, now=NOW, preset="meaning", explain=True)
        assert not any("meaning_skipped" in h.scores for h in hits)
        return [(h.item.id, round(h.score, 9)) for h in hits]

    assert run(cold) == run(0)


@pytest.mark.parametrize("value", ["-1", "10001", "eight", "2.5"])
def test_a_bad_meaning_cold_is_refused_naming_the_key(value: str) -> None:
    with pytest.raises(ConfigError, match=r"retrieval\.meaning_cold.*MEMLANE_RETRIEVAL_MEANING_COLD"):
        load_config(environ={"MEMLANE_RETRIEVAL_MEANING_COLD": value})


def test_meaning_cold_is_read_from_the_environment() -> None:
    assert load_config(environ={"MEMLANE_RETRIEVAL_MEANING_COLD": "0"}).retrieval.meaning_cold == 0
    assert load_config(environ={"MEMLANE_RETRIEVAL_MEANING_COLD": "16"}).retrieval.meaning_cold == 16


def _cand(i: int, relevance: float) -> Candidate:
    return Candidate(id=i, rrf=relevance, relevance=relevance)


@given(st.lists(st.floats(0, 1), min_size=2, max_size=30, unique=True), st.data())
def test_an_uncached_candidate_gets_the_median_lift(rels: list[float], data) -> None:
    top = [_cand(i, r) for i, r in enumerate(sorted(rels, reverse=True))]
    n = data.draw(st.integers(1, len(top) - 1))
    lifts = {c.id: data.draw(st.floats(0, 1)) for c in top[:n]}
    fill = _cold_lifts(top, lifts)
    assert set(fill) == {c.id for c in top[n:]}
    low, high = min(lifts.values()), max(lifts.values())
    # neither pushed below every scored one's lift nor above: the middle of them
    assert all(low <= v <= high for v in fill.values())
    assert sum(v < fill[top[n].id] for v in lifts.values()) <= len(lifts) / 2
    assert sum(v > fill[top[n].id] for v in lifts.values()) <= len(lifts) / 2
