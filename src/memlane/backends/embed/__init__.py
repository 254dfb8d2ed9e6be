"""Embedders: text -> unit float32 vectors (see ``memlane.protocols.Embedder``).

========  ==================  =====  ==============================================
short     class               dim    what
========  ==================  =====  ==============================================
static    StaticEmbedder      256    per-token table distilled from MiniLM (default)
minilm    MiniLMEmbedder      384    all-MiniLM-L6-v2 forward pass in numpy
minilm-onnx OnnxMiniLMEmbedder 384   all-MiniLM-L6-v2 int8 on ONNX Runtime (``meaning`` extra)
hashing   HashingEmbedder     256    feature hashing, no model (tests)
openai    OpenAIEmbedder      (API)  any OpenAI-compatible /embeddings endpoint
========  ==================  =====  ==============================================

``get_embedder("minilm", max_tokens=128)`` builds one by short name; ``CachedEmbedder``
wraps any embedder with a process-local cache keyed by the text's sha256.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from memlane.backends.embed.hashing import HashingEmbedder
from memlane.backends.embed.minilm import MiniLMEmbedder
from memlane.backends.embed.onnx import OnnxMiniLMEmbedder
from memlane.backends.embed.openai import OpenAIEmbedder
from memlane.backends.embed.static import StaticEmbedder, ensure_static_table
from memlane.errors import ConfigError, EmbeddingError
from memlane.protocols import Embedder

__all__ = [
    "DEFAULT_EMBEDDER",
    "CachedEmbedder",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "OnnxMiniLMEmbedder",
    "OpenAIEmbedder",
    "StaticEmbedder",
    "available_embedders",
    "clear_caches",
    "ensure_static_table",
    "get_embedder",
    "register_embedder",
]

DEFAULT_EMBEDDER = "static"

_REGISTRY: dict[str, Callable[..., Embedder]] = {
    "static": StaticEmbedder,
    "minilm": MiniLMEmbedder,
    "minilm-onnx": OnnxMiniLMEmbedder,
    "hashing": HashingEmbedder,
    "openai": OpenAIEmbedder,
}


def register_embedder(name: str, factory: Callable[..., Embedder]) -> None:
    """Make ``get_embedder(name, **options)`` call ``factory(**options)``."""
    _REGISTRY[name] = factory


def available_embedders() -> list[str]:
    """The short names ``get_embedder`` accepts."""
    return sorted(_REGISTRY)


def get_embedder(name: str = DEFAULT_EMBEDDER, **options: Any) -> Embedder:
    """Build an embedder by short name (``static``, ``minilm``, ``hashing``, ``openai``).

    Raises:
        ConfigError: unknown name, or options the backend does not take.
        BackendUnavailable: the backend's package or weights are not installed.
    """
    factory = _REGISTRY.get(name)
    if factory is None:
        raise ConfigError(
            f"unknown embedder {name!r}; choose one of {', '.join(available_embedders())}"
        )
    try:
        return factory(**options)
    except TypeError as exc:
        raise ConfigError(f"bad options for embedder {name!r}: {exc}") from exc
    except ValueError as exc:
        raise ConfigError(f"bad options for embedder {name!r}: {exc}") from exc


# name of the inner embedder -> sha256(text) -> vector; shared by every CachedEmbedder
_CACHES: dict[str, OrderedDict[bytes, np.ndarray]] = {}
_CACHES_LOCK = threading.Lock()


def clear_caches() -> None:
    """Drop every process-local embedding cache. Each is emptied in place: a live
    ``CachedEmbedder`` holds its cache itself, and kept every vector when the table was
    only forgotten (session 22: an erase calls this)."""
    with _CACHES_LOCK:
        for cache in _CACHES.values():
            cache.clear()
        _CACHES.clear()


class CachedEmbedder:
    """Wrap an embedder with a process-local cache keyed by sha256 of the text.

    The cache is shared by all wrappers of embedders with the same ``name``. Each call
    embeds only the texts not cached (each distinct text once) in a single inner batch
    and returns rows in input order. ``hits`` and ``misses`` count texts served from
    the cache and texts sent to the inner embedder, for this wrapper.

    Args:
        inner: the embedder to wrap.
        max_items: bound on the shared cache's size (least recently used dropped
            first); None for no bound.
    """

    def __init__(self, inner: Embedder, max_items: int | None = None) -> None:
        if max_items is not None and max_items < 0:
            raise ValueError(f"max_items must be >= 0 or None, got {max_items}")
        self.inner = inner
        self.name = inner.name
        self.max_items = max_items
        self.hits = 0
        self.misses = 0
        with _CACHES_LOCK:
            self._cache = _CACHES.setdefault(inner.name, OrderedDict())

    @property
    def dim(self) -> int:  # type: ignore[override]
        """The inner embedder's width (an API embedder may learn it on first use)."""
        return self.inner.dim

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Return the inner embedder's vectors for ``texts``, embedding only misses."""
        texts = list(texts)
        keys = [hashlib.sha256(t.encode("utf-8", "surrogatepass")).digest() for t in texts]
        found: dict[bytes, np.ndarray] = {}
        todo: dict[bytes, str] = {}
        with _CACHES_LOCK:
            for key, text in zip(keys, texts):
                vec = self._cache.get(key)
                if vec is not None:
                    self._cache.move_to_end(key)
                    found[key] = vec
                elif key not in found:
                    todo.setdefault(key, text)
        if todo:
            vecs = np.asarray(self.inner.embed_batch(list(todo.values())), dtype=np.float32)
            if vecs.ndim != 2 or vecs.shape[0] != len(todo):
                raise EmbeddingError(
                    f"{self.name} returned shape {vecs.shape} for {len(todo)} texts"
                )
            fresh = dict(zip(todo, vecs))
            for v in fresh.values():
                v.flags.writeable = False
            found.update(fresh)
            with _CACHES_LOCK:
                self._cache.update(fresh)
                if self.max_items is not None:
                    while len(self._cache) > self.max_items:
                        self._cache.popitem(last=False)
        self.misses += len(todo)
        self.hits += len(texts) - len(todo)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)

    def __repr__(self) -> str:
        return f"CachedEmbedder({self.inner!r}, max_items={self.max_items})"
