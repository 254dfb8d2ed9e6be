"""SQLite store: vectors (the source of truth of the in-memory index) and the embedding cache."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from memlane.store.filters import Filters
from memlane.store.sql.base import SqlStore
from memlane.store.sqlite.db import Database
from memlane.store.sqlite.rows import chunks
from memlane.store.vector_index import VectorIndex

__all__ = ["VectorsMixin"]


class VectorsMixin(SqlStore):
    """Vectors and the embedding cache on SQLite."""

    db: Database
    _indexes: dict[str, VectorIndex]
    _index_lock: threading.Lock
    _synced: threading.local
    """Per thread, within ``reading()``: the models whose index this block brought up to
    the change log (None outside a block)."""

    @contextmanager
    def reading(self, *, superseded: bool = False) -> Iterator[None]:
        """One search's reads (``Memory.search`` holds it around a search): within it,
        ``item_vectors`` answers from the model's in-memory index as the block's first
        sync left it, without asking the change log again (a search asks 6 times, after
        ``vector_search`` synced a moment before): the vectors as of the search's start,
        as PostgreSQL's ``reading()`` answers. Nested blocks share the outermost's."""
        local = self._synced
        if getattr(local, "models", None) is not None:
            yield
            return
        local.models = set()
        try:
            yield
        finally:
            local.models = None

    # -- vectors ------------------------------------------------------------------------
    def put_vectors(self, model: str, pairs: Sequence[tuple[int, np.ndarray]]) -> None:
        """Store item vectors (call inside the item's transaction)."""
        self.db.executemany(
            "INSERT INTO vectors (item_id, model, dim, vec) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (item_id) DO UPDATE SET model = excluded.model, dim = excluded.dim,"
            " vec = excluded.vec",
            [(i, model, len(v), np.asarray(v, dtype=np.float32).tobytes()) for i, v in pairs],
        )

    def _sync_index(self, model: str, dim: int) -> VectorIndex:
        """Bring the model's in-memory index up to the database's change log."""
        with self._index_lock:
            index = self._indexes.get(model)
            # Two subqueries: SQLite answers a lone min() or max() from the primary key in
            # O(log n), but scans the whole log for ``SELECT min(seq), max(seq)``.
            row = self.db.execute(
                "SELECT (SELECT min(seq) FROM vector_log), (SELECT max(seq) FROM vector_log)"
            ).fetchone()
            lo, hi = row[0] or 0, row[1] or 0
            if index is None or index.dim != dim or (index.synced_seq and index.synced_seq < lo - 1):
                index = VectorIndex(dim)  # missing or too stale: rebuild from the table
                with self.db.unmapped():  # every vector once: not worth keeping mapped
                    # rows per scope first, so that each scope's rows lie side by side in memory
                    counts = dict(self.db.execute(
                        "SELECT i.scope, count(*) FROM vectors v LEFT JOIN items i ON i.id = v.item_id"
                        " WHERE v.model = ? GROUP BY i.scope", (model,)
                    ).fetchall())
                    rows = self.db.execute(
                        "SELECT v.item_id, v.vec, i.scope FROM vectors v LEFT JOIN items i"
                        " ON i.id = v.item_id WHERE v.model = ? AND v.dim = ?", (model, dim)
                    )
                    index.load(((r[0], np.frombuffer(r[1], dtype=np.float32), r[2]) for r in rows),
                               counts)
                index.synced_seq = hi
                self._indexes[model] = index
            elif hi > index.synced_seq:
                rows = self.db.execute(
                    "SELECT l.item_id, v.vec, v.model, i.scope FROM"
                    " (SELECT DISTINCT item_id FROM vector_log WHERE seq > ? AND seq <= ?) l"
                    " LEFT JOIN vectors v ON v.item_id = l.item_id"
                    " LEFT JOIN items i ON i.id = l.item_id",
                    (index.synced_seq, hi),
                )
                index.apply(
                    (r[0], np.frombuffer(r[1], dtype=np.float32) if r[1] is not None and r[2] == model else None,
                     r[3])
                    for r in rows
                )
                index.synced_seq = hi
            models = getattr(self._synced, "models", None)
            if models is not None:
                models.add(model)
            return index

    def vector_search(
        self, model: str, query: np.ndarray, f: Filters, limit: int
    ) -> list[tuple[int, float]]:
        """Cosine search: ``(item_id, cosine)``, best first, honouring filters exactly.

        Exact within a scope or a session; over all scopes exact below ``ANN_ABOVE``
        vectors, approximate (IVF, re-scored exactly) above once its index is built.
        """
        if limit <= 0:
            return []
        index = self._sync_index(model, len(query))
        if len(index) == 0:
            return []
        query = np.asarray(query, dtype=np.float32)
        if f.session_id is not None:
            return index.search(query, limit, allowed=self.filter_ids(f))
        # Most items of a scope (or of all) usually pass the other filters, so rank the
        # scope's rows (the index keeps them per scope) or all rows, check the best
        # ``pool`` in SQL, and fall back to an exact filtered pass only when too few pass.
        pool = limit + limit // 2 + 16
        got = index.search(query, pool, scope=f.scope) if f.scope is not None else index.search(query, pool)
        keep = self._allowed(f, [i for i, _ in got])
        out = [(i, s) for i, s in got if i in keep]
        if len(out) >= limit or len(got) < pool:
            return out[:limit]
        return index.search(query, limit, allowed=self.filter_ids(f))

    def _allowed(self, f: Filters, ids: Sequence[int]) -> set[int]:
        # NOT INDEXED: look the ids up by rowid. Given a scope, SQLite's planner would
        # rather walk the scope's entries of items_scope_kind_at (10k rows at 1M items in
        # 100 scopes) and test each against the ids: 2-30 ms against 2-4 ms for 316 ids.
        where, params = self._where(f)
        out: set[int] = set()
        for cond, chunk in self._id_batches("i.id", list(ids)):
            rows = self.db.execute(
                f"SELECT i.id FROM items i NOT INDEXED WHERE {self.db.portable(cond)} AND {where}",
                (*chunk, *params),
            ).fetchall()
            out.update(r[0] for r in rows)
        return out

    def ensure_vector_index(self, model: str, dim: int) -> bool:
        """Nothing to build on disk: the in-memory index builds itself. Always False."""
        return False

    def warm_vector_index(self, model: str, dim: int, *, wait: bool = False) -> bool:
        """Load the model's vectors into memory and, if the store is large enough for the
        IVF index, start its build (and, with ``wait``, wait for it): what the first
        searches would otherwise do. True if unfiltered searches are approximate now."""
        index = self._sync_index(model, dim)
        index.start_ann()
        return index.wait_for_ann() if wait else index.ann_ready

    def prune_vector_log(self, keep: int = 100_000) -> int:
        cur = self.db.execute(
            "DELETE FROM vector_log WHERE seq <= (SELECT max(seq) FROM vector_log) - ?", (keep,)
        )
        return cur.rowcount

    # -- embedding cache ----------------------------------------------------------------
    def cached_vectors(self, model: str, hashes: Sequence[bytes]) -> dict[bytes, np.ndarray]:
        out: dict[bytes, np.ndarray] = {}
        for chunk in chunks(list(hashes), 500):
            marks = ",".join("?" * len(chunk))
            for h, v in self.db.execute(
                f"SELECT hash, vec FROM embed_cache WHERE model = ? AND hash IN ({marks})",
                (model, *chunk),
            ):
                out[bytes(h)] = np.frombuffer(v, dtype=np.float32)
        return out

    def cache_vectors(self, model: str, pairs: Sequence[tuple[bytes, np.ndarray]]) -> None:
        self.db.executemany(
            "INSERT OR IGNORE INTO embed_cache (model, hash, vec) VALUES (?, ?, ?)",
            [(model, h, np.asarray(v, dtype=np.float32).tobytes()) for h, v in pairs],
        )

    # -- retrieval helpers --------------------------------------------------------------
    def item_vectors(self, model: str, ids: Iterable[int]) -> dict[int, np.ndarray]:
        """The stored vectors of the given items under ``model`` (items without one are absent).

        Read from the model's in-memory index once a search has loaded it (brought up to
        the change log first, so writes of other processes are seen), else from the table:
        a search reads its candidates' and its top sessions' turn vectors this way six
        times, and the table's 1 KB blobs cost about 10 µs a row to read and push the
        lexical index's pages out of SQLite's cache (docs/scaling.md, fifth round).
        """
        index = self._indexes.get(model)
        if index is not None:
            if model in (getattr(self._synced, "models", None) or ()):
                return index.vectors(ids)  # synced in this reading() block
            return self._sync_index(model, index.dim).vectors(ids)
        out: dict[int, np.ndarray] = {}
        for cond, chunk in self._id_batches("item_id", list(dict.fromkeys(ids))):
            for item_id, vec in self._run(
                f"SELECT item_id, vec FROM vectors WHERE model = %s AND {cond}", (model, *chunk)
            ):
                out[item_id] = np.frombuffer(vec, dtype=np.float32)
        return out
