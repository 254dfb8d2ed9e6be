"""Item vectors (pgvector, an HNSW index per model and width) and the embedding cache.

A mixin of ``PostgresStore``: it needs ``self.db``, ``self._hnsw`` (with its lock),
``self._no_hnsw`` and ``self._where`` (the item filters as SQL).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sequence

import numpy as np
import psycopg

from memlane.errors import StoreError
from memlane.store.filters import Filters
from memlane.store.postgres import search
from memlane.store.postgres.db import Database, Vector
from memlane.store.postgres.rows import id_array, vector_bytes

from memlane.store.sql.base import SqlStore

__all__ = ["NO_HNSW_TTL", "VectorsMixin"]

# How long a search trusts that a (model, dim) has no HNSW index yet (seconds).
NO_HNSW_TTL = 10.0


class VectorsMixin(SqlStore):
    db: Database
    _hnsw: set[tuple[str, int]]
    _hnsw_lock: threading.Lock
    _no_hnsw: dict[tuple[str, int], float]

    # -- vectors ------------------------------------------------------------------------
    def put_vectors(self, model: str, pairs: Sequence[tuple[int, np.ndarray]]) -> None:
        """Store item vectors (call inside the item's transaction).

        No HNSW index is created here: inserting into a graph costs a walk per vector, so
        ``ensure_vector_index`` builds it in one pass once a bulk load (indexing,
        ``memlane copy``) is done; an existing index takes new vectors as they come.
        """
        if not pairs:
            return
        rows = [(i, model, len(v), Vector(v)) for i, v in pairs]
        self.db.executemany(
            "INSERT INTO vectors (item_id, model, dim, vec) VALUES (%s, %s, %s, %b)"
            " ON CONFLICT (item_id) DO UPDATE SET model = excluded.model, dim = excluded.dim,"
            " vec = excluded.vec",
            rows,
        )

    def ensure_vector_index(self, model: str, dim: int) -> bool:
        """Build the HNSW index of ``(model, dim)`` once it holds ``HNSW_ABOVE`` vectors.

        True if the index exists (now or before). Below that size every search is an
        exact scan, which is fast and never wrong; building the graph in one pass after a
        bulk load is several times cheaper than growing it one insert at a time. Every call
        (the end of each indexing run, a copy's load) also merges the full-text index's
        pending entries (``_merge_pending_text``).
        """
        self._merge_pending_text()
        key = (model, dim)
        if key in self._hnsw or self._has_hnsw(model, dim):
            return True
        n = self.db.execute(
            "SELECT count(*) FROM (SELECT 1 FROM vectors WHERE model = %s AND dim = %s LIMIT %s) s",
            (model, dim, search.HNSW_ABOVE),
        ).fetchone()[0]
        if n < search.HNSW_ABOVE:
            return False
        if search.ensure_hnsw(self.db, model, dim):
            if not self.db.in_transaction:
                with self._hnsw_lock:
                    self._hnsw.add(key)
            return True
        return False

    def _merge_pending_text(self) -> None:
        """Merge the full-text index's pending entries into the index proper.

        A GIN index takes new rows into a pending list (up to ``gin_pending_list_limit``,
        4 MB by default) that every full-text search then reads in full, row by row, until
        vacuum merges it. Right after a bulk load that list is at its longest: measured on
        a freshly indexed 2,000-item store, a search's server CPU was 4.7-5.0 ms with it
        and 2.8-3.0 ms once merged. Merging in bulk here is the work vacuum would do later.
        """
        try:
            with self.db.atomic():
                self.db.execute("SELECT gin_clean_pending_list('items_tsv'::regclass)")
        except StoreError as e:
            if not isinstance(e.__cause__, psycopg.errors.InsufficientPrivilege):
                raise
            # not the index's owner (a role without MAINTAIN): autovacuum merges it later

    def warm_vector_index(self, model: str, dim: int, *, wait: bool = False) -> bool:
        """Nothing to load: the HNSW index lives in the database. True if it exists."""
        return self._has_hnsw(model, dim)

    def _has_hnsw(self, model: str, dim: int) -> bool:
        key = (model, dim)
        if key in self._hnsw:
            return True
        row = self.db.execute(
            "SELECT 1 FROM vector_indexes WHERE model = %s AND dim = %s", (model, dim)
        ).fetchone()
        if row is not None and not self.db.in_transaction:
            with self._hnsw_lock:
                self._hnsw.add(key)
        return row is not None

    def vector_search(
        self, model: str, query: np.ndarray, f: Filters, limit: int
    ) -> list[tuple[int, float]]:
        """Cosine search: ``(item_id, cosine)``, best first, honouring filters exactly."""
        if limit <= 0 or len(query) == 0:
            return []
        where, params = self._where(f)
        reads = self._reads()  # within one search's reads, keep the ranked vectors too
        return search.vector_search(
            self.db, model, query, where, params, limit,
            scoped=f.scope is not None or f.session_id is not None,
            indexed=self._searchable_hnsw(model, len(query)), small=f.session_id is not None,
            vectors=None if reads is None else reads.vectors.setdefault(model, {}),
        )

    def _searchable_hnsw(self, model: str, dim: int) -> bool:
        """``_has_hnsw`` for a search, which also remembers a "no" for NO_HNSW_TTL seconds.

        A database below HNSW_ABOVE vectors has no index and every search asked again (a
        round trip each). If another process builds the index meanwhile, searches here stay
        exact, as correct, for at most that long.
        """
        key = (model, dim)
        if key in self._hnsw:
            return True
        now = time.monotonic()
        if self._no_hnsw.get(key, 0.0) > now:
            return False
        if self._has_hnsw(model, dim):
            return True
        self._no_hnsw[key] = now + NO_HNSW_TTL
        return False

    def item_vectors(self, model: str, ids: Iterable[int]) -> dict[int, np.ndarray]:
        """The stored vectors of the given items under ``model`` (items without one are absent)."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        rows = self.db.execute(
            # by key only (``model || ''``: see ``search._exact``), in binary
            "SELECT item_id, vec FROM vectors WHERE model || '' = %s AND item_id = ANY(%s::bigint[])",
            (model, id_array(ids)), binary=True,
        ).fetchall()
        return {int(r[0]): vector_bytes(r[1]) for r in rows}

    def prune_vector_log(self, keep: int = 100_000) -> int:
        """No change log exists: pgvector indexes follow the table. Always 0."""
        return 0

    # -- embedding cache ----------------------------------------------------------------
    def cached_vectors(self, model: str, hashes: Sequence[bytes]) -> dict[bytes, np.ndarray]:
        if not hashes:
            return {}
        rows = self.db.execute(
            "SELECT hash, vec FROM embed_cache WHERE model = %s AND hash = ANY(%s::bytea[])",
            (model, [bytes(h) for h in hashes]),
        )
        return {bytes(h): np.frombuffer(bytes(v), dtype=np.float32) for h, v in rows}

    def cache_vectors(self, model: str, pairs: Sequence[tuple[bytes, np.ndarray]]) -> None:
        if not pairs:
            return
        self.db.executemany(
            "INSERT INTO embed_cache (model, hash, vec) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
            [(model, bytes(h), np.asarray(v, dtype=np.float32).tobytes()) for h, v in pairs],
        )
