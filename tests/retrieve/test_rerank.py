"""Each reranking signal against values computed by hand."""

from __future__ import annotations

import math
from datetime import datetime

import pytest

from memlane.retrieve import rerank as sig
from memlane.retrieve.timeparse import TimeWindow


def test_half_lives_follow_durability_kind_and_decisions() -> None:
    assert sig.half_life_hours("note", "short") == 6.0
    assert sig.half_life_hours("note", "long") == 168.0
    assert sig.half_life_hours("turn", "long") == 72.0
    assert sig.half_life_hours("decision", "long") == 720.0
    assert sig.half_life_hours("decision", "short") == 720.0


def test_recency_halves_every_half_life() -> None:
    assert sig.recency(0.0, 72.0) == 1.0
    assert sig.recency(72.0, 72.0) == 0.5
    assert sig.recency(144.0, 72.0) == 0.25
    assert sig.recency(-5.0, 6.0) == 1.0  # from the future: not boosted past 1
    with pytest.raises(ValueError, match="half_life"):
        sig.recency(1.0, 0.0)


def test_graph_relevance_needs_every_word_of_an_entity() -> None:
    terms = ["where", "Ana", "Silva", "live"]
    assert sig.graph_relevance(terms, ["Ana Silva"]) == 1.0
    assert sig.graph_relevance(terms, ["Ana Costa"]) == 0.0
    assert sig.graph_relevance(terms, []) == 0.0
    assert sig.graph_relevance(terms, ["ana silva", "Lisbon"]) == 1.0


def test_token_overlap_is_share_of_distinct_query_terms() -> None:
    assert sig.token_overlap(["cat", "name", "Cat"], {"my", "cat", "is", "luna"}) == 0.5
    assert sig.token_overlap([], {"x"}) == 0.0


def test_summary_coverage_trust_kind() -> None:
    assert sig.summary_bonus("summary") == 1.0
    assert sig.summary_bonus("turn") == 0.0
    assert [sig.coverage_penalty(n) for n in range(4)] == [0.0, 0.5, 0.75, 0.875]
    assert sig.trust(1.7) == 1.0
    assert sig.trust(-0.2) == 0.0
    assert sig.trust(0.4) == 0.4
    assert sig.kind_bonus("decision", {"decision": 0.5}) == 0.5
    assert sig.kind_bonus("turn", {"decision": 0.5}) == 0.0
    assert sig.kind_bonus("fact", {"fact": 3.0}) == 1.0


def test_time_match_inside_and_decaying_outside() -> None:
    w = [TimeWindow(datetime(2023, 3, 1), datetime(2023, 4, 1), "in March")]
    assert sig.time_match(datetime(2023, 3, 15), w) == 1.0
    # 31-day window: tolerance max(3, 3.1) = 3.1 days; 2 days after the end
    assert sig.time_match(datetime(2023, 4, 3), w) == pytest.approx(math.exp(-2 / 3.1))
    assert sig.time_match(datetime(2023, 4, 3), []) == 0.0
    day = [TimeWindow(datetime(2023, 3, 1), datetime(2023, 3, 2), "yesterday")]
    assert sig.time_match(datetime(2023, 3, 4), day) == pytest.approx(math.exp(-2 / 3.0))
