"""Hybrid search: lexical (BM25) and vector candidates fused by weighted RRF."""

from __future__ import annotations

import time
from typing import Any

from memlane.config import SearchConfig
from memlane.index.embed import Embeddings
from memlane.retrieve.fuse import rrf
from memlane.retrieve.text import query_terms
from memlane.store.filters import Filters
from memlane.types import Hit

__all__ = ["hybrid_search"]


def hybrid_search(
    store: Any,
    embeddings: Embeddings,
    cfg: SearchConfig,
    query: str,
    filters: Filters,
    k: int,
    timings: dict[str, float] | None = None,
) -> list[Hit]:
    """The ``k`` best items for ``query``; each hit carries every score component.

    ``scores`` holds ``lexical`` (BM25, higher is better) and ``lexical_rank``,
    ``vector`` (cosine) and ``vector_rank``, and ``rrf`` (the fused score). A missing
    component means the item was not a candidate of that list.
    """
    if not query or not query.strip():
        return []
    n = max(cfg.candidates, k)
    t0 = time.perf_counter()
    lexical = store.lexical_search(query_terms(query), filters, n) if cfg.lexical_weight > 0 else []
    t1 = time.perf_counter()
    vector: list[tuple[int, float]] = []
    if cfg.vector_weight > 0:
        qvec = embeddings.for_query(query)
        if qvec.any():
            vector = store.vector_search(embeddings.model, qvec, filters, n)
    t2 = time.perf_counter()
    fused = rrf([lexical, vector], [cfg.lexical_weight, cfg.vector_weight], k=cfg.rrf_k)[:k]
    t3 = time.perf_counter()
    items = store.get_items([i for i, _ in fused])
    sessions = store.get_sessions(it.session_id for it in items.values() if it.session_id)
    lex = {i: (r, s) for r, (i, s) in enumerate(lexical, start=1)}
    vec = {i: (r, s) for r, (i, s) in enumerate(vector, start=1)}
    hits = []
    for rank, (item_id, score) in enumerate(fused, start=1):
        item = items.get(item_id)
        if item is None:
            continue  # deleted between the two reads
        scores = {"rrf": score, "rank": float(rank)}
        if item_id in lex:
            scores["lexical_rank"], scores["lexical"] = float(lex[item_id][0]), lex[item_id][1]
        if item_id in vec:
            scores["vector_rank"], scores["vector"] = float(vec[item_id][0]), vec[item_id][1]
        hits.append(Hit(item=item, score=score, scores=scores,
                        session=sessions.get(item.session_id) if item.session_id else None))
    if timings is not None:
        timings.update(
            lexical_ms=(t1 - t0) * 1e3, vector_ms=(t2 - t1) * 1e3, fusion_ms=(t3 - t2) * 1e3,
            hydrate_ms=(time.perf_counter() - t3) * 1e3,
        )
    return hits
