"""Candidate generation: lexical and vector lists fused by RRF, as plain records.

Both stages of retrieval start here: the same two lists (BM25 over text and expansion
keys; cosine over item vectors), optionally a third from HyDE, fused with weighted
textbook RRF. ``relevance`` is the fused score divided by the best score an item could
have (first in every list), so it lies in (0, 1] whatever the weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memlane.retrieve.fuse import rrf

__all__ = ["Candidate", "fuse_lists"]


@dataclass(slots=True)
class Candidate:
    """One item in the fused candidate lists, with its component scores and ranks."""

    id: int
    rrf: float
    relevance: float
    lexical: float | None = None
    lexical_rank: int | None = None
    vector: float | None = None
    vector_rank: int | None = None
    hyde_rank: int | None = None
    feedback_rank: int | None = None
    """Rank in the feedback list (``memlane.retrieve.feedback``), when it was there."""
    lifted_from: int | None = None
    """The fact or observation whose relevance this turn took (``source_lift``)."""
    meaning: float | None = None
    graph_hop: int | None = None
    """0 or 1 when the entity graph brought this item (it was not a fused candidate)."""
    """The transformer's cosine to the query (the meaning tier), when it re-scored this one."""


def fuse_lists(
    lexical: Sequence[tuple[int, float]],
    vector: Sequence[tuple[int, float]],
    weights: tuple[float, float],
    rrf_k: int,
    hyde: Sequence[tuple[int, float]] = (),
    hyde_weight: float = 0.0,
) -> list[Candidate]:
    """Fuse the lists; every candidate keeps its lexical/vector score and 1-based rank."""
    lists = [lexical, vector]
    w = [weights[0], weights[1]]
    if hyde and hyde_weight > 0:
        lists.append(hyde)
        w.append(hyde_weight)
    fused = rrf(lists, w, k=rrf_k)
    best = sum(x for x, lst in zip(w, lists, strict=True) if lst) / (rrf_k + 1) or 1.0
    lex = {i: (r, s) for r, (i, s) in enumerate(lexical, start=1)}
    vec = {i: (r, s) for r, (i, s) in enumerate(vector, start=1)}
    hy = {i: r for r, (i, _s) in enumerate(hyde, start=1)}
    lex_get, vec_get, hy_get = lex.get, vec.get, hy.get
    out = []
    for item_id, score in fused:  # each candidate in one call (a search fuses ~400)
        lx, vc = lex_get(item_id), vec_get(item_id)
        out.append(Candidate(int(item_id), score, min(1.0, score / best),  # type: ignore[call-overload]
                             None if lx is None else lx[1], None if lx is None else lx[0],
                             None if vc is None else vc[1], None if vc is None else vc[0],
                             hy_get(item_id)))
    return out
