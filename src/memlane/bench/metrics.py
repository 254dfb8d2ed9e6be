"""LongMemEval's official retrieval metrics, as pure functions over id lists.

For a ranking (best first) and a set of gold ids, at cut-off k:

- ``recall_any@k``: 1 if any gold id is in the first k, else 0;
- ``recall_all@k``: 1 if every gold id is in the first k, else 0;
- ``ndcg_any@k``: binary-relevance NDCG with ``DCG = rel_1 + sum_{i=2..k} rel_i / log2(i)``
  (positions 1 and 2 weigh the same) and the ideal ranking putting all gold ids first.

These copy ``src/retrieval/eval_utils.py`` of the LongMemEval repository. A turn-granular
ranking (``<session id>_<turn index>``) is scored at session level by mapping each turn id
to its session and taking the first k distinct sessions (``sessions_from_turns``).
Rankings are de-duplicated (first occurrence kept) before scoring. Questions without gold
(abstention, or no user turn with ``has_answer``) are left out of the averages by the
callers; ``aggregate`` averages per group and overall.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence

from memlane.bench.datasets import session_of_turn

__all__ = [
    "KS",
    "METRICS",
    "aggregate",
    "dcg",
    "dedupe",
    "metric_names",
    "ndcg_any",
    "recall_all",
    "recall_any",
    "score_ranking",
    "sessions_from_turns",
]

KS: tuple[int, ...] = (1, 3, 5, 10, 30, 50)
METRICS: tuple[str, ...] = ("recall_any", "recall_all", "ndcg_any")


def metric_names(ks: Sequence[int] = KS) -> list[str]:
    """``["recall_any@1", "recall_all@1", "ndcg_any@1", "recall_any@3", ...]``."""
    return [f"{m}@{k}" for k in ks for m in METRICS]


def _check_k(k: int) -> None:
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")


def dedupe(ids: Iterable[str]) -> list[str]:
    """The ids in order, each kept at its first occurrence."""
    seen: set[str] = set()
    out = []
    for i in ids:
        if i not in seen:
            seen.add(i)
            out.append(i)
    return out


def sessions_from_turns(turn_ids: Iterable[str]) -> list[str]:
    """Map turn ids to their sessions; distinct sessions in first-occurrence order."""
    return dedupe(session_of_turn(t) for t in turn_ids)


def recall_any(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    _check_k(k)
    top = set(ranked[:k])
    return float(any(g in top for g in gold))


def recall_all(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """1.0 if every gold id is in the first k. (With no gold, 1.0, as the official code.)"""
    _check_k(k)
    top = set(ranked[:k])
    return float(all(g in top for g in gold))


def dcg(relevances: Sequence[float], k: int) -> float:
    """``rel_1 + sum_{i=2..k} rel_i / log2(i)``."""
    _check_k(k)
    rel = list(relevances)[:k]
    if not rel:
        return 0.0
    return float(rel[0]) + sum(float(r) / math.log2(i) for i, r in enumerate(rel[1:], start=2))


def ndcg_any(ranked: Sequence[str], gold: Collection[str], k: int) -> float:
    """Binary NDCG@k; the ideal ranking puts all gold first. 0.0 when there is no gold."""
    _check_k(k)
    gold_set = set(gold)
    actual = dcg([1.0 if i in gold_set else 0.0 for i in ranked[:k]], k)
    ideal = dcg([1.0] * min(k, len(gold_set)), k) if gold_set else 0.0
    return 0.0 if ideal == 0 else actual / ideal


def score_ranking(
    ranked: Iterable[str], gold: Collection[str], ks: Sequence[int] = KS
) -> dict[str, float]:
    """Every metric at every k for one ranking (de-duplicated first)."""
    r = dedupe(ranked)
    out: dict[str, float] = {}
    for k in ks:
        out[f"recall_any@{k}"] = recall_any(r, gold, k)
        out[f"recall_all@{k}"] = recall_all(r, gold, k)
        out[f"ndcg_any@{k}"] = ndcg_any(r, gold, k)
    return out


def aggregate(
    rows: Iterable[tuple[str, Mapping[str, float]]], *, overall: bool = True
) -> dict[str, dict[str, float]]:
    """Mean of each metric per group (e.g. question type) and over all rows.

    ``rows`` are ``(group, metrics)``. Returns ``{group: {metric: mean, "n": count}}``
    with groups sorted and ``"overall"`` last.
    """
    sums: dict[str, dict[str, float]] = {}
    counts: dict[str, int] = {}
    for group, metrics in rows:
        keys = [group, "overall"] if overall else [group]
        for g in keys:
            acc = sums.setdefault(g, {})
            counts[g] = counts.get(g, 0) + 1
            for name, value in metrics.items():
                acc[name] = acc.get(name, 0.0) + float(value)
    out: dict[str, dict[str, float]] = {}
    for g in sorted(x for x in sums if x != "overall") + (["overall"] if "overall" in sums else []):
        n = counts[g]
        out[g] = {name: total / n for name, total in sums[g].items()}
        out[g]["n"] = n
    return out
