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

Past ``ANN_ABOVE`` live vectors an exact scan of everything costs too much per query
(about 80-120 ms at 1M on idle cores, several times that on busy ones), so unfiltered
searches go through an inverted-file index (faiss ``IndexIVFScalarQuantizer``, int8 codes, when the optional
``faiss-cpu`` is installed): built once from the float32 rows (k-means on a sample, then
one assignment pass: seconds, where an HNSW graph of 1M vectors takes 10+ minutes on 2
cores), kept up to date as rows arrive, probed in ``nprobe`` lists, and its candidates
re-scored exactly from the float32 rows. Filtered searches (a scope, a session) stay
exact over the allowed rows. Measurements: docs/scaling.md.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import numpy as np

__all__ = ["ANN_ABOVE", "VectorIndex", "ann_available"]

ANN_ABOVE = 200_000
"""Live vectors from which unfiltered searches use the IVF index (when faiss is installed)."""


def ann_available() -> bool:
    """Whether the optional faiss-cpu package is importable."""
    try:
        import faiss  # noqa: F401
    except ImportError:
        return False
    return True


class _Ivf:
    """An IVF index over the rows of a ``VectorIndex`` (faiss ids are row numbers)."""

    def __init__(self, mat: np.ndarray, n: int) -> None:
        import faiss

        faiss.omp_set_num_threads(1)  # a single query gains nothing from threads on busy cores
        dim = mat.shape[1]
        self.nlist = max(16, int(2 * np.sqrt(n)))  # build cost ~ nlist; query cost ~ nprobe/nlist
        self.nprobe = max(8, self.nlist // 10)  # recall@10 0.999 on clustered data (//32: 0.96)
        self.trained_on = n
        quantizer = faiss.IndexFlatIP(dim)
        # int8 codes in the lists (a quarter of float32's memory): candidates are re-scored
        # from the float32 rows anyway
        index = faiss.IndexIVFScalarQuantizer(quantizer, dim, self.nlist, faiss.ScalarQuantizer.QT_8bit,
                                              faiss.METRIC_INNER_PRODUCT)
        rng = np.random.default_rng(0)
        sample = mat[np.sort(rng.choice(n, size=min(n, 40 * self.nlist), replace=False))]
        index.cp.niter = 10
        index.train(np.ascontiguousarray(sample))
        index.nprobe = self.nprobe
        self.index, self._quantizer = index, quantizer
        self.added = 0
        self.add_upto(mat, n)

    def add_upto(self, mat: np.ndarray, n: int) -> None:
        """Add rows ``added..n`` (rows are append-only; see ``VectorIndex.apply``)."""
        step = 65_536
        for lo in range(self.added, n, step):
            hi = min(n, lo + step)
            self.index.add_with_ids(np.ascontiguousarray(mat[lo:hi]), np.arange(lo, hi, dtype=np.int64))
        self.added = max(self.added, n)

    def readd(self, mat: np.ndarray, rows: np.ndarray) -> None:
        """Rows whose vector changed in place: drop and add them again."""
        self.index.remove_ids(rows)  # type: ignore[arg-type]  # faiss's Python wrapper accepts id arrays
        self.index.add_with_ids(np.ascontiguousarray(mat[rows]), rows)

    def candidates(self, query: np.ndarray, count: int) -> np.ndarray:
        _, rows = self.index.search(query[None, :], count)
        rows = rows[0]
        return rows[rows >= 0]


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
        self.ann_above = ANN_ABOVE
        """Live vectors from which unfiltered searches use the IVF index."""
        self._ivf: _Ivf | None = None
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
            changed: list[int] = []
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
                elif self._ivf is not None and row < self._ivf.added:
                    changed.append(row)
                self._mat[row] = vec
                self._alive[row] = True
            if self._n > 1024 and len(self._row) < self._n // 2:
                self._compact()
            elif self._ivf is not None:
                if changed:
                    self._ivf.readd(self._mat, np.unique(np.asarray(changed, dtype=np.int64)))
                self._ivf.add_upto(self._mat, self._n)

    def _compact(self) -> None:
        keep = np.flatnonzero(self._alive[: self._n])
        self._mat = self._mat[keep].copy()
        self._ids = self._ids[keep].copy()
        self._alive = np.ones(len(keep), dtype=bool)
        self._n = len(keep)
        self._row = {int(i): r for r, i in enumerate(self._ids)}
        self._sorted = bool(np.all(self._ids[1:] > self._ids[:-1]))
        self._ivf = None  # row numbers moved: rebuilt on the next large search

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
            elif (ivf := self._ann()) is not None:
                got = self._search_ivf(ivf, query, limit)
                if got is not None:
                    return got
                n = self._n
                scores = np.einsum("ij,j->i", self._mat[:n], query)
                ids = self._ids[:n]
                dead = ~self._alive[:n]
                if dead.any():
                    scores[dead] = -np.inf
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

    def _ann(self) -> _Ivf | None:
        """The IVF index if this many live vectors call for one (built or rebuilt here)."""
        live = len(self._row)
        if live < self.ann_above or not ann_available():
            return None
        if self._ivf is None or self._n >= 4 * self._ivf.trained_on:
            self._ivf = _Ivf(self._mat, self._n)  # centroids from a quarter of the data: retrain
        return self._ivf

    def _search_ivf(self, ivf: _Ivf, query: np.ndarray, limit: int) -> list[tuple[int, float]] | None:
        """Candidates from the IVF lists, re-scored exactly; None if too few are alive."""
        rows = ivf.candidates(query, max(4 * limit, 100))
        rows = rows[self._alive[rows]]
        if len(rows) < limit:
            return None
        scores = np.einsum("ij,j->i", self._mat[rows], query)
        top = np.argsort(-scores, kind="stable")[:limit]
        return list(zip(self._ids[rows[top]].tolist(), scores[top].tolist(), strict=True))
