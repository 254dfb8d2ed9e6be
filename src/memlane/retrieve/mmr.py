"""Maximal marginal relevance: greedy selection against the already-selected set.

Pure function over ``(id, score)`` pairs and item vectors (Carbonell & Goldstein, 1998):
at each step pick ``argmax  lam * rel(d) - (1 - lam) * max_{s in selected} sim(d, s)``.
Relevance is the given score min-max normalised over the pool so that it is on the same
[0, 1] scale as cosine similarity; an item without a vector is similar to nothing.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import numpy as np

__all__ = ["mmr_order"]

K = TypeVar("K", bound=Hashable)


def mmr_order(
    scored: Sequence[tuple[K, float]],
    vectors: Mapping[K, np.ndarray],
    lam: float,
    n: int,
) -> list[K]:
    """The first ``n`` ids in MMR order (``lam`` 1: by score; 0: most diverse)."""
    if not 0.0 <= lam <= 1.0:
        raise ValueError(f"lam must be between 0 and 1, got {lam}")
    if not scored or n <= 0:
        return []
    ids = [i for i, _ in scored]
    s = np.asarray([x for _, x in scored], dtype=np.float64)
    span = s.max() - s.min()
    rel = (s - s.min()) / span if span > 0 else np.ones_like(s)
    dim = next((len(v) for v in vectors.values()), 0)
    mat = np.zeros((len(ids), dim), dtype=np.float32)
    for r, i in enumerate(ids):
        v = vectors.get(i)
        if v is not None and dim:
            norm = float(np.linalg.norm(v))
            mat[r] = v / norm if norm > 0 else 0.0
    sims = mat @ mat.T if dim else np.zeros((len(ids), len(ids)), dtype=np.float32)
    max_sim = np.zeros(len(ids))
    left = list(range(len(ids)))
    out: list[K] = []
    while left and len(out) < n:
        values = [lam * rel[j] - (1.0 - lam) * max_sim[j] for j in left]
        pick = left.pop(int(np.argmax(values)))  # first maximum: ties keep score order
        out.append(ids[pick])
        max_sim = np.maximum(max_sim, sims[pick])
    return out
