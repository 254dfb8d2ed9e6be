"""Embedding with a content-hash cache, so no text is embedded twice by one model."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from memlane.errors import EmbeddingError
from memlane.protocols import Embedder
from memlane.store.contract import Store

__all__ = ["Embeddings", "text_hash"]


def text_hash(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class Embeddings:
    """The store's embedding cache in front of an embedder.

    ``for_index`` reads and fills the persistent cache in the store; ``for_query`` uses a
    small in-process LRU so that searching never writes to the database.
    """

    def __init__(self, store: Store, embedder: Embedder, batch_size: int = 256, lru: int = 1024) -> None:
        self.store = store
        self.embedder = embedder
        self.batch_size = batch_size
        self._lru: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lru_max = lru
        # the service's handler threads share this LRU, and an erase empties it
        # (``textcaches.forget_cached_text``, under this lock): a search between its
        # ``get`` and ``move_to_end`` failed with KeyError (session 22 review)
        self._lock = threading.Lock()
        self.embedded = 0
        self.cache_hits = 0

    @property
    def model(self) -> str:
        return self.embedder.name

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        out = []
        for i in range(0, len(texts), self.batch_size):
            chunk = list(texts[i : i + self.batch_size])
            vecs = np.asarray(self.embedder.embed_batch(chunk), dtype=np.float32)
            if vecs.shape != (len(chunk), self.embedder.dim):
                raise EmbeddingError(
                    f"embedder {self.embedder.name} returned shape {vecs.shape}, "
                    f"expected {(len(chunk), self.embedder.dim)}"
                )
            out.append(vecs)
        self.embedded += len(texts)
        return np.concatenate(out) if out else np.zeros((0, self.embedder.dim), np.float32)

    def for_index(self, texts: Sequence[str],
                  cache_later: list[tuple[bytes, np.ndarray]] | None = None) -> np.ndarray:
        """Vectors for texts to be stored; new ones are written to the cache table.

        Call outside a write transaction: embedding may be slow, and the cache write is
        a short transaction of its own; or, with ``cache_later``, added to that list for
        the caller to write (``store.cache_vectors``) in the transaction that stores them.
        """
        hashes = [text_hash(t) for t in texts]
        found = self.store.cached_vectors(self.model, list(set(hashes)))
        missing = list(dict.fromkeys(h for h in hashes if h not in found))
        self.cache_hits += len(texts) - sum(1 for h in hashes if h not in found)
        if missing:
            first = {h: t for h, t in zip(hashes, texts, strict=True)}
            vecs = self._embed([first[h] for h in missing])
            new = list(zip(missing, vecs, strict=True))
            if cache_later is not None:
                cache_later.extend(new)
            else:
                with self.store.atomic():
                    self.store.cache_vectors(self.model, new)
            found.update(new)
        if not texts:
            return np.zeros((0, self.embedder.dim), np.float32)
        return np.stack([found[h] for h in hashes]).astype(np.float32, copy=False)

    def for_query(self, text: str) -> np.ndarray:
        with self._lock:
            vec = self._lru.get(text)
            if vec is not None:
                self._lru.move_to_end(text)
                return vec
        vec = self._embed([text])[0]  # outside the lock: a model call
        with self._lock:
            self._lru[text] = vec
            if len(self._lru) > self._lru_max:
                self._lru.popitem(last=False)
        return vec
