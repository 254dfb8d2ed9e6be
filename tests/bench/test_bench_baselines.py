"""Baseline rankers and the runner's choice of 'now'."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from memlane.bench.baselines import BM25Ranker, DenseRanker
from memlane.bench.datasets import HaystackSession, LMEQuestion, LMETurn
from memlane.bench.longmemeval import question_now, select_questions


def test_bm25_ranks_matching_document_first_and_keeps_all_ids() -> None:
    docs = ["the weather is sunny", "I redeemed a coupon at Target", "", "coupons are great"]
    ids = ["a", "b", "c", "d"]
    ranked = BM25Ranker().rank(docs, ids, "Where did I redeem a coupon?")
    assert ranked[0] == "b"
    assert sorted(ranked) == ids
    # nothing matches: corpus order is kept
    assert BM25Ranker().rank(docs, ids, "zebra") == ids


def test_bm25_length_mismatch() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        BM25Ranker().rank(["a"], ["1", "2"], "a")


class _AxisEmbedder:
    name = "axis"
    dim = 3

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        table = {"x": [1, 0, 0], "y": [0, 1, 0], "xy": [0.7071, 0.7071, 0]}
        return np.asarray([table[t] for t in texts], dtype=np.float32)


def test_dense_orders_by_cosine() -> None:
    ranked = DenseRanker(_AxisEmbedder()).rank(["y", "xy", "x"], ["t1", "t2", "t3"], "x")
    assert ranked == ["t3", "t2", "t1"]


def _question(qtype: str, qdate: datetime, session_dates: list[datetime]) -> LMEQuestion:
    sessions = tuple(
        HaystackSession(f"s{i}", d, "", (LMETurn(f"s{i}_1", 1, "user", "x", False),))
        for i, d in enumerate(session_dates)
    )
    return LMEQuestion("q", qtype, "?", qdate, "", "a", (), sessions)


def test_question_now_modes() -> None:
    q = _question("t", datetime(2023, 5, 1), [datetime(2023, 4, 1), datetime(2023, 6, 1)])
    assert question_now(q) == datetime(2023, 5, 1)
    assert question_now(q, "latest") == datetime(2023, 6, 1)
    with pytest.raises(ValueError, match="now_mode"):
        question_now(q, "tomorrow")


def test_select_questions_filters_types_then_limits() -> None:
    d = datetime(2023, 5, 1)
    qs = [_question(t, d, [d]) for t in ["a", "b", "a", "a"]]
    assert [q.question_type for q in select_questions(qs, ["a"], 2)] == ["a", "a"]
    assert len(select_questions(qs)) == 4
