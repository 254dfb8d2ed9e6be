"""Candidate generation: lexical and vector lists fused by RRF, as plain records.

Both stages of retrieval start here: the same two lists (BM25 over text and expansion
keys; cosine over item vectors), optionally a third from HyDE, fused with weighted
textbook RRF. ``relevance`` is the fused score divided by the best score an item could
have (first in every list), so it lies in (0, 1] whatever the weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from operator import attrgetter

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
    meaning_rank: int | None = None
    """Rank in the transformer's own list (the meaning tier's ``meaning_list``), when it
    was there; with no ``lexical_rank`` nor ``vector_rank``, that list brought the item."""
    speaker_rank: int | None = None
    """Rank in the named speaker's static list (``speaker_list``), when it was there."""


def fuse_lists(
    lexical: Sequence[tuple[int, float]],
    vector: Sequence[tuple[int, float]],
    weights: tuple[float, float],
    rrf_k: int,
    hyde: Sequence[tuple[int, float]] = (),
    hyde_weight: float = 0.0,
) -> list[Candidate]:
    """Fuse the lists; every candidate keeps its lexical/vector score and 1-based rank.

    ``rrf`` of the lists in one pass that also builds the candidates (a search fuses ~400):
    each id's fused score is the same sum in the same order (``0.0 +`` the first list's
    term, then the next lists'), the order the same stable sort of the first-seen order,
    and a list's score and rank those of the id's last place in it, as ``rrf`` and the
    lookups it replaced gave (``tests/retrieve/test_speed_same_answers.py``)."""
    wl, wv = weights[0], weights[1]
    use_hyde = bool(hyde) and hyde_weight > 0
    best = ((wl if lexical else 0) + (wv if vector else 0) + (hyde_weight if use_hyde else 0)) / (
        rrf_k + 1) or 1.0
    by_id: dict[int, Candidate] = {}
    get = by_id.get
    for r, (i, s) in enumerate(lexical, start=1):
        c = get(i)
        if c is None:
            by_id[i] = Candidate(int(i), 0.0 + wl / (rrf_k + r), 0.0, s, r)
        else:  # an id twice in one list: both places count, the last one's rank is kept
            c.rrf += wl / (rrf_k + r)
            c.lexical, c.lexical_rank = s, r
    for r, (i, s) in enumerate(vector, start=1):
        c = get(i)
        if c is None:
            by_id[i] = Candidate(int(i), 0.0 + wv / (rrf_k + r), 0.0, None, None, s, r)
        else:
            c.rrf += wv / (rrf_k + r)
            c.vector, c.vector_rank = s, r
    if use_hyde:
        for r, (i, _s) in enumerate(hyde, start=1):
            c = get(i)
            if c is None:
                by_id[i] = Candidate(int(i), 0.0 + hyde_weight / (rrf_k + r), 0.0)
            else:
                c.rrf += hyde_weight / (rrf_k + r)
            by_id[i].hyde_rank = r
    elif hyde:  # not fused (weight 0): its ranks are still reported
        for r, (i, _s) in enumerate(hyde, start=1):
            c = get(i)
            if c is not None:
                c.hyde_rank = r
    # best first, equals in first-seen order (a stable sort, reversed or not)
    out = sorted(by_id.values(), key=_by_rrf, reverse=True)
    for c in out:
        rel = c.rrf / best
        c.relevance = rel if rel < 1.0 else 1.0  # min(1.0, rel), NaN included
    return out


_by_rrf = attrgetter("rrf")
