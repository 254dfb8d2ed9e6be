"""The seams of memlane, as ``typing.Protocol`` classes. Nothing has to subclass them.

- ``Embedder``: turns texts into unit-length float32 vectors, one batch at a time.
- ``TokenCounter``: counts tokens of a text for a target model.
- ``Tracer``: a callable that sees every SQL statement and model call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["Embedder", "TokenCounter", "Tracer"]


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to vectors.

    ``name`` identifies the model and its settings (it keys the embedding cache, so two
    embedders that can give different vectors must have different names); ``dim`` is the
    vector width. ``embed_batch`` returns a float32 array of shape ``(len(texts), dim)``
    whose rows are L2-normalised (a zero row for an empty text). Batching across calls,
    caching by content hash and retries live outside the embedder.
    """

    name: str
    dim: int

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray: ...


@runtime_checkable
class TokenCounter(Protocol):
    """Counts tokens the way a target model's tokenizer would."""

    name: str

    def count(self, text: str) -> int: ...


class Tracer(Protocol):
    """Sees each SQL statement (``kind='sql'``) and model call (``kind='embed'``...)."""

    def __call__(self, kind: str, detail: str, params: Any = None) -> None: ...
