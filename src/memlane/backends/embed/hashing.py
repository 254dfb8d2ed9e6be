"""A deterministic feature-hashing embedder: no model, no files, for tests and fallbacks.

Each lowercased word (``\\w+``) and, optionally, each character trigram of it is hashed
with BLAKE2b (keyed by ``seed``) to a bucket and a sign; the text's vector is the signed
bucket counts, L2-normalised. Vectors are identical across processes and machines.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

__all__ = ["HashingEmbedder"]

_WORD = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    """Signed feature hashing of word unigrams (and optionally char trigrams).

    Args:
        dim: vector width (number of hash buckets).
        seed: varies the hash function; different seeds give unrelated vectors.
        char_trigrams: also hash the character trigrams of each ``#word#``.
    """

    def __init__(self, dim: int = 256, seed: int = 0, char_trigrams: bool = False) -> None:
        if dim < 1:
            raise ValueError(f"dim must be >= 1, got {dim}")
        self.dim = int(dim)
        self.seed = int(seed)
        self.char_trigrams = bool(char_trigrams)
        self.name = f"hashing-d{self.dim}-s{self.seed}" + ("-c3" if self.char_trigrams else "")
        self._key = self.seed.to_bytes(8, "little", signed=True)
        self._memo: dict[str, tuple[int, float]] = {}

    def _bucket(self, feature: str) -> tuple[int, float]:
        hit = self._memo.get(feature)
        if hit is None:
            digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8, key=self._key).digest()
            value = int.from_bytes(digest, "little")
            hit = (value % self.dim, 1.0 if (value >> 63) & 1 else -1.0)
            if len(self._memo) < 1_000_000:
                self._memo[feature] = hit
        return hit

    def _features(self, text: str) -> list[str]:
        words = _WORD.findall(text.lower())
        if not self.char_trigrams:
            return words
        feats = list(words)
        for w in words:
            padded = f"#{w}#"
            feats.extend("3:" + padded[i : i + 3] for i in range(len(padded) - 2))
        return feats

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Return a float32 ``(len(texts), dim)`` array of unit rows (zero row if no words)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            vec = out[row]
            for feat in self._features(text):
                idx, sign = self._bucket(feat)
                vec[idx] += sign
            norm = float(np.linalg.norm(vec))
            if norm > 0.0:
                vec /= norm
        return out

    def __repr__(self) -> str:
        return (
            f"HashingEmbedder(dim={self.dim}, seed={self.seed}, char_trigrams={self.char_trigrams})"
        )
