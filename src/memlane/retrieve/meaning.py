"""The meaning tier: a transformer re-scores the best few dozen candidates (a cascade).

The static embedder and BM25 find candidates fast; the transformer (MiniLM on ONNX
Runtime, or the numpy MiniLM without the ``meaning`` extra: see
``memlane.backends.embed.onnx``) embeds only the top ``meaning_candidates`` of them, and its
cosine to the query is added to their relevance (``meaning_weight ×`` cosine above the
pool's lowest) before stage one ranks sessions, so it moves sessions and turns alike.

A text's transformer vector is computed at most once: it is looked up by the sha256 of
the text in the store's embedding cache (``embed_cache``, keyed by model name and text
hash), computed lazily for the misses at query time and written back, and computed ahead
of time by the index worker (``MeaningTier.warm``) for turns of recently indexed sessions.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from memlane.index.embed import text_hash
from memlane.protocols import Embedder
from memlane.types import Item

__all__ = ["RESCORED_KINDS", "MeaningTier", "shared_tier"]

RESCORED_KINDS = frozenset({"turn", "observation", "fact", "summary", "preference", "decision"})


class MeaningTier:
    """The transformer vectors of items and queries, cached by content hash.

    ``computed`` counts texts this tier sent to the transformer; ``cached`` the ones it
    found in the store.
    """

    def __init__(self, embedder: Embedder, lru: int = 256) -> None:
        self.embedder = embedder
        self.computed = 0
        self.cached = 0
        self._lru: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lru_max = lru
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return self.embedder.name

    def query_vector(self, text: str) -> np.ndarray:
        with self._lock:
            vec = self._lru.get(text)
            if vec is not None:
                self._lru.move_to_end(text)
                return vec
        vec = np.asarray(self.embedder.embed_batch([text]), dtype=np.float32)[0]
        with self._lock:
            self._lru[text] = vec
            if len(self._lru) > self._lru_max:
                self._lru.popitem(last=False)
        return vec

    def vectors(self, store: Any, texts: Sequence[str]) -> list[np.ndarray]:
        """One vector per text: from the store's cache, else computed once and stored."""
        hashes = [text_hash(t) for t in texts]
        found = store.cached_vectors(self.model, list(set(hashes))) if hashes else {}
        missing = list(dict.fromkeys(h for h in hashes if h not in found))
        self.cached += len(set(hashes)) - len(missing)
        if missing:
            first = {h: t for h, t in zip(hashes, texts, strict=True)}
            vecs = np.asarray(self.embedder.embed_batch([first[h] for h in missing]),
                              dtype=np.float32)
            self.computed += len(missing)
            new = list(zip(missing, vecs, strict=True))
            with store.atomic():
                store.cache_vectors(self.model, new)
            found.update(new)
        return [found[h] for h in hashes]

    def cosines(self, store: Any, query: str, items: Sequence[Item]) -> dict[int, float]:
        """Cosine of each item's transformer vector to the query's."""
        if not items:
            return {}
        q = self.query_vector(query)
        vecs = self.vectors(store, [it.text for it in items])
        return {it.id: float(v @ q) for it, v in zip(items, vecs, strict=True)}

    def warm(self, store: Any, session_ids: Iterable[int], batch: int = 64) -> int:
        """Compute (and cache) the vectors of these sessions' turns not cached yet.

        What the index worker calls after indexing; returns how many it computed.
        """
        before = self.computed
        texts: list[str] = []
        for sid in session_ids:
            texts.extend(it.text for it in store.session_items(sid) if it.kind in RESCORED_KINDS
                         and it.text.strip())
        for i in range(0, len(texts), batch):
            self.vectors(store, texts[i : i + batch])
        return self.computed - before


_SHARED: dict[int, MeaningTier] = {}
_SHARED_LOCK = threading.Lock()


def shared_tier(max_tokens: int = 128) -> MeaningTier:
    """One tier per process and token limit (the model loads once, whatever the Memory)."""
    from memlane.backends.embed.onnx import meaning_embedder

    with _SHARED_LOCK:
        tier = _SHARED.get(max_tokens)
        if tier is None:
            tier = _SHARED[max_tokens] = MeaningTier(meaning_embedder(max_tokens))
        return tier
