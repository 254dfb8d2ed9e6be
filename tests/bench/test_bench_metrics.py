"""LongMemEval metrics against hand-computed cases."""

from __future__ import annotations

import math
import os
from datetime import datetime
from pathlib import Path

import pytest

from memlane.bench.datasets import HaystackSession, LMEQuestion, LMETurn, session_of_turn
from memlane.bench.metrics import (
    aggregate,
    dcg,
    dedupe,
    metric_names,
    ndcg_any,
    recall_all,
    recall_any,
    score_ranking,
    sessions_from_turns,
)

# The LongMemEval_S dev file is not part of the project: point this at your copy to run the
# loader's check on it (skipped otherwise).
DEV = Path(os.environ.get("MEMLANE_LONGMEMEVAL_DEV", "longmemeval_s_dev.json.xz"))


def test_recall_any_and_all_at_k() -> None:
    ranked = ["s1", "g1", "s2", "g2", "s3"]
    gold = {"g1", "g2"}
    assert recall_any(ranked, gold, 1) == 0.0
    assert recall_any(ranked, gold, 2) == 1.0
    assert recall_all(ranked, gold, 3) == 0.0
    assert recall_all(ranked, gold, 4) == 1.0
    assert recall_all(ranked, gold, 50) == 1.0  # k beyond the ranking's length


def test_gold_missing_from_ranking_is_never_recalled() -> None:
    assert recall_any(["a", "b"], {"z"}, 50) == 0.0
    assert recall_all(["a", "b", "z"], {"z", "y"}, 50) == 0.0


def test_dcg_positions_one_and_two_weigh_the_same() -> None:
    assert dcg([1, 0], 2) == dcg([0, 1], 2) == 1.0
    assert dcg([0, 0, 1], 3) == pytest.approx(1 / math.log2(3))
    assert dcg([1, 1, 1], 2) == 2.0  # cut at k
    assert ndcg_any(["g", "x"], {"g"}, 2) == 1.0
    assert ndcg_any(["x", "g"], {"g"}, 2) == 1.0


def test_ndcg_hand_computed() -> None:
    # gold at positions 2 and 4 of 5; ideal puts both first: 1 + 1/log2(2) = 2
    ranked = ["x", "g1", "y", "g2", "z"]
    actual = 1 / math.log2(2) + 1 / math.log2(4)  # = 1.5
    assert ndcg_any(ranked, {"g1", "g2"}, 5) == pytest.approx(actual / 2.0)
    # at k=3 only g1 is in, ideal is still two gold at the top
    assert ndcg_any(ranked, {"g1", "g2"}, 3) == pytest.approx(1.0 / 2.0)
    # three gold at k=1: ideal is one relevant item
    assert ndcg_any(["g1", "x"], {"g1", "g2", "g3"}, 1) == 1.0
    assert ndcg_any(["x", "y"], set(), 5) == 0.0


def test_k_must_be_positive() -> None:
    with pytest.raises(ValueError, match="k must be >= 1"):
        recall_any(["a"], {"a"}, 0)


def test_turn_to_session_mapping_takes_first_k_distinct_sessions() -> None:
    turns = ["sharegpt_a_0_3", "sharegpt_a_0_1", "answer_b_2", "s9_4", "answer_b_6", "s7_1"]
    assert session_of_turn("sharegpt_a_0_3") == "sharegpt_a_0"
    sessions = sessions_from_turns(turns)
    assert sessions == ["sharegpt_a_0", "answer_b", "s9", "s7"]
    # at k=2 the second distinct session is answer_b, although it is the 3rd turn
    assert recall_any(sessions, {"answer_b"}, 2) == 1.0
    assert recall_all(sessions, {"answer_b", "s7"}, 3) == 0.0
    assert recall_all(sessions, {"answer_b", "s7"}, 4) == 1.0
    with pytest.raises(ValueError, match="not a turn id"):
        session_of_turn("no-index")


def test_score_ranking_dedupes_and_names_every_metric() -> None:
    m = score_ranking(["g", "g", "x"], {"g", "x"})
    assert list(m) == metric_names()
    assert len(m) == 18
    assert m["recall_all@1"] == 0.0 and m["recall_all@3"] == 1.0
    assert dedupe(["a", "b", "a", "c", "b"]) == ["a", "b", "c"]


def test_aggregate_per_type_and_overall() -> None:
    rows = [("t1", {"r": 1.0}), ("t1", {"r": 0.0}), ("t2", {"r": 1.0})]
    agg = aggregate(rows)
    assert list(agg) == ["t1", "t2", "overall"]
    assert agg["t1"] == {"r": 0.5, "n": 2}
    assert agg["overall"]["r"] == pytest.approx(2 / 3)
    assert agg["overall"]["n"] == 3


def _q(
    qid: str, turns: list[tuple[str, bool]], answer_ids: tuple[str, ...] = ("answer_1",)
) -> LMEQuestion:
    d = datetime(2023, 5, 20)
    sess = HaystackSession(
        "answer_1",
        d,
        "",
        tuple(LMETurn(f"answer_1_{i}", i, r, "x", h) for i, (r, h) in enumerate(turns, 1)),
    )
    other = HaystackSession("s2", d, "", (LMETurn("s2_1", 1, "user", "y", False),))
    return LMEQuestion(qid, "multi-session", "q?", d, "", "a", answer_ids, (sess, other))


def test_gold_and_exclusion_rules() -> None:
    q = _q("q1", [("user", True), ("assistant", False), ("user", False)])
    assert q.gold_turn_ids == {"answer_1_1"}
    assert q.gold_session_ids == {"answer_1"}
    assert q.evaluable
    # abstention: excluded whatever its gold
    assert not _q("q1_abs", [("user", True)]).evaluable
    # evidence only in an assistant turn: no gold user turn -> excluded
    q2 = _q("q2", [("user", False), ("assistant", True)])
    assert q2.gold_turn_ids == frozenset() and q2.gold_session_ids == frozenset()
    assert not q2.evaluable
    # an answer session without a has_answer user turn is not gold (strict variant keeps it)
    q3 = _q("q3", [("user", True)], answer_ids=("answer_1", "s2"))
    assert q3.gold_session_ids == {"answer_1"}
    assert q3.strict_gold_session_ids == {"answer_1", "s2"}


@pytest.mark.skipif(not DEV.exists(), reason="LongMemEval dev split not present")
def test_dev_split_keeps_211_of_250() -> None:
    from memlane.bench.datasets import load_longmemeval

    qs = load_longmemeval(DEV)
    assert len(qs) == 250
    assert sum(q.evaluable for q in qs) == 211


def test_knowledge_update_newest_first_rate():
    from datetime import datetime
    from types import SimpleNamespace

    from memlane.bench.longmemeval import newest_first_rate

    def q(qid, qtype, dates, gold):
        sessions = [SimpleNamespace(id=f"s{i}", date=datetime(2024, 1, d)) for i, d in enumerate(dates)]
        return SimpleNamespace(question_id=qid, question_type=qtype, sessions=sessions,
                               gold_session_ids=set(gold))

    qs = [
        q("a", "knowledge-update", [1, 5, 9], ["s0", "s1"]),   # newest gold: s1
        q("b", "knowledge-update", [1, 5], ["s0", "s1"]),
        q("c", "knowledge-update", [3, 3], ["s0", "s1"]),      # same date: not counted
        q("d", "multi-session", [1, 5], ["s0", "s1"]),         # other type: not counted
    ]
    rankings = {"a": ["s2", "s1", "s0"], "b": ["s0", "s1"], "c": ["s0"], "d": ["s1"]}
    assert newest_first_rate(qs, rankings) == {"rate": 0.5, "n": 2, "missed": ["b"]}
    # a newest session missing from the ranking ranks last
    assert newest_first_rate(qs[:1], {"a": ["s0"]}) == {"rate": 0.0, "n": 1, "missed": ["a"]}
