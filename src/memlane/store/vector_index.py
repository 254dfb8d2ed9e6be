"""An exact in-memory vector index kept in step with the database.

The database is the source of truth; this index is a cache of it. A store feeds it
``(item_id, vector | None)`` changes (``None`` = deleted) read from its change log, so the
index stays correct under inserts, updates and deletes made by any process. Search is an
exact inner product over unit vectors: measured at about 4-5 ms a query for 100k 256-d
vectors, which beats an approximate index's build cost below a few hundred thousand
vectors and is never wrong.

Scores are computed with ``np.einsum`` rather than BLAS (``@``): a matrix-vector product is
bound by memory bandwidth, so one thread is as fast as several, and OpenBLAS's threads
spin against whatever else shares the cores (measured on 2 busy cores: ``@`` p50 9.7 /
p95 20 ms, ``einsum`` 7.4 / 11 ms; on idle cores both about 4.5 ms).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import numpy as np

__all__ = ["VectorIndex"]


class VectorIndex:
    """Exact cosine search over unit vectors, with incremental updates."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._mat = np.zeros((0, dim), dtype=np.float32)
        self._ids = np.zeros(0, dtype=np.int64)
        self._alive = np.zeros(0, dtype=bool)
        self._row: dict[int, int] = {}
        self._n = 0
        self._sorted = True
        """Whether ``_ids[:_n]`` is increasing (ids usually arrive in order), so rows are
        found by binary search instead of one dict lookup per id."""
        self._lock = threading.Lock()
        self.synced_seq = 0
        """The change-log position this index reflects."""

    def __len__(self) -> int:
        return len(self._row)

    def _grow(self, need: int) -> None:
        cap = len(self._ids)
        if need <= cap:
            return
        new_cap = max(need, cap * 2, 1024)
        mat = np.zeros((new_cap, self.dim), dtype=np.float32)
        mat[: self._n] = self._mat[: self._n]
        ids = np.full(new_cap, -1, dtype=np.int64)
        ids[: self._n] = self._ids[: self._n]
        alive = np.zeros(new_cap, dtype=bool)
        alive[: self._n] = self._alive[: self._n]
        self._mat, self._ids, self._alive = mat, ids, alive

    def apply(self, changes: Iterable[tuple[int, np.ndarray | None]]) -> None:
        """Upsert ``(id, vector)`` pairs; ``(id, None)`` removes the id."""
        with self._lock:
            for item_id, vec in changes:
                row = self._row.get(item_id)
                if vec is None:
                    if row is not None:
                        self._alive[row] = False
                        del self._row[item_id]
                    continue
                if vec.shape != (self.dim,):
                    continue  # a vector of another width belongs to another model
                if row is None:
                    self._grow(self._n + 1)
                    row = self._n
                    if row and item_id <= self._ids[row - 1]:
                        self._sorted = False
                    self._n += 1
                    self._row[item_id] = row
                    self._ids[row] = item_id
                self._mat[row] = vec
                self._alive[row] = True
            if self._n > 1024 and len(self._row) < self._n // 2:
                self._compact()

    def _compact(self) -> None:
        keep = np.flatnonzero(self._alive[: self._n])
        self._mat = self._mat[keep].copy()
        self._ids = self._ids[keep].copy()
        self._alive = np.ones(len(keep), dtype=bool)
        self._n = len(keep)
        self._row = {int(i): r for r, i in enumerate(self._ids)}
        self._sorted = bool(np.all(self._ids[1:] > self._ids[:-1]))

    def _rows_of(self, allowed: Iterable[int]) -> np.ndarray:
        """The live rows holding the given item ids (ids not in the index are skipped)."""
        if not self._sorted:
            return np.fromiter(
                (r for i in allowed if (r := self._row.get(i)) is not None), dtype=np.int64
            )
        want = np.fromiter(allowed, dtype=np.int64)
        if want.size == 0 or self._n == 0:
            return np.zeros(0, dtype=np.int64)
        ids = self._ids[: self._n]
        rows = np.minimum(np.searchsorted(ids, want), self._n - 1)
        hit = (ids[rows] == want) & self._alive[rows]
        return rows[hit]

    def search(
        self, query: np.ndarray, limit: int, allowed: Iterable[int] | None = None
    ) -> list[tuple[int, float]]:
        """The ``limit`` best ``(item_id, cosine)`` pairs, best first.

        ``allowed`` restricts the search to those item ids (exactly, not by overfetch).
        """
        query = np.asarray(query, dtype=np.float32)
        with self._lock:
            if allowed is not None:
                rows = self._rows_of(allowed)
                if rows.size == 0:
                    return []
                scores = np.einsum("ij,j->i", self._mat[rows], query)
                ids = self._ids[rows]
            else:
                n = self._n
                scores = np.einsum("ij,j->i", self._mat[:n], query)
                ids = self._ids[:n]
                dead = ~self._alive[:n]
                if dead.any():
                    scores[dead] = -np.inf
        limit = min(limit, int(np.isfinite(scores).sum()))
        if limit <= 0:
            return []
        top = np.argpartition(-scores, limit - 1)[:limit] if limit < len(scores) else np.arange(len(scores))
        top = top[np.argsort(-scores[top], kind="stable")]
        return list(zip(ids[top].tolist(), scores[top].tolist(), strict=True))
