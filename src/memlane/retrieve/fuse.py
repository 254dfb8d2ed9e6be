"""Reciprocal-rank fusion: pure functions over ``(id, score)`` lists."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from operator import itemgetter

__all__ = ["rrf"]


def rrf(
    rankings: Sequence[Sequence[tuple[Hashable, float]]],
    weights: Sequence[float] | None = None,
    k: int = 60,
) -> list[tuple[Hashable, float]]:
    """Weighted textbook RRF: ``score(d) = sum_i w_i / (k + rank_i(d))``, ranks 1-based.

    Returns ``(id, fused score)`` best first; ties keep first-seen order.
    """
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError("weights: need one weight per ranking")
    scores: dict[Hashable, float] = {}
    get = scores.get
    for ranking, w in zip(rankings, weights, strict=True):
        for rank, (doc, _score) in enumerate(ranking, start=1):
            scores[doc] = get(doc, 0.0) + w / (k + rank)
    # best first, equals in first-seen order (a stable sort, reversed or not)
    return sorted(scores.items(), key=itemgetter(1), reverse=True)
