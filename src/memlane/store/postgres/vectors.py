"""Item vectors (pgvector, an HNSW index per model and width) and the embedding cache.

A mixin of ``PostgresStore``: it needs ``self.db``, ``self._hnsw`` (with its lock),
``self._no_hnsw`` and ``self._where`` (the item filters as SQL).
"""

from __future__ import annotations

import struct
import threading
import time
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import psycopg

from memlane.errors import StoreError
from memlane.store.filters import Filters
from memlane.store.postgres import search
from memlane.store.postgres.db import Database, Vector
from memlane.store.postgres.rows import id_array, vector_bytes

from memlane.store.sql.base import SqlStore

__all__ = ["COPY_FROM", "NO_HNSW_TTL", "VectorsMixin"]

# How long a search trusts that a (model, dim) has no HNSW index yet (seconds).
NO_HNSW_TTL = 10.0
# ``put_vectors`` of this many vectors or more: DELETE + binary COPY instead of upserts.
COPY_FROM = 32

_COPY_VECTORS = "COPY vectors (item_id, model, dim, vec) FROM STDIN (FORMAT BINARY)"
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_COPY_TRAILER = struct.pack(">h", -1)


def _copy_vectors(model: str, vectors: dict[int, np.ndarray]) -> bytes:
    """Rows of ``vectors`` in COPY's binary format: four fields a row (item_id int8, model
    text, dim int4, vec in pgvector's binary form: int16 dim, int16 0, float4s), all
    big-endian, between the format's header and trailer."""
    name = model.encode("utf-8")
    head = struct.pack(">hi", 4, 8)  # the field count, then item_id's length
    parts = [_COPY_HEADER]
    for item_id, v in vectors.items():
        a = np.asarray(v, dtype=">f4").reshape(-1)
        dim = a.shape[0]
        parts.append(head + struct.pack(">qi", item_id, len(name)) + name
                     + struct.pack(">iiiHH", 4, dim, 4 + 4 * dim, dim, 0) + a.tobytes())
    parts.append(_COPY_TRAILER)
    return b"".join(parts)


class VectorsMixin(SqlStore):
    db: Database
    _hnsw: set[tuple[str, int]]
    _hnsw_lock: threading.Lock
    _no_hnsw: dict[tuple[str, int], float]

    indexers_elsewhere: Callable[[], bool]  # PostgresSessions

    # -- vectors ------------------------------------------------------------------------
    def put_vectors(self, model: str, pairs: Sequence[tuple[int, np.ndarray]]) -> None:
        """Store item vectors (call inside the item's transaction).

        No HNSW index is created here: inserting into a graph costs a walk per vector, so
        ``ensure_vector_index`` builds it in one pass once a bulk load (indexing,
        ``memlane copy``) is done; an existing index takes new vectors as they come.

        A few vectors are upserted with one INSERT each (pipelined); a batch (an indexing
        batch is hundreds) is one DELETE of any rows the ids already have and one binary
        ``COPY``: no statement a row for the server to parse, bind and plan, and no text
        form of a float on either side (see ``_copy_vectors``).
        """
        if not pairs:
            return
        if len(pairs) < COPY_FROM:
            rows = [(i, model, len(v), Vector(v)) for i, v in pairs]
            self.db.executemany(
                "INSERT INTO vectors (item_id, model, dim, vec) VALUES (%s, %s, %s, %b)"
                " ON CONFLICT (item_id) DO UPDATE SET model = excluded.model, dim = excluded.dim,"
                " vec = excluded.vec",
                rows,
            )
            return
        last = {int(i): v for i, v in pairs}  # an id given twice: the last vector wins, as upserts do
        data = _copy_vectors(model, last)
        if self.db.in_transaction:
            self._replace_vectors(list(last), data)
        else:
            with self.db.atomic():
                self._replace_vectors(list(last), data)

    def _replace_vectors(self, ids: list[int], data: bytes) -> None:
        self.db.execute("DELETE FROM vectors WHERE item_id = ANY(%s::bigint[])", (ids,))
        self.db.copy_in(_COPY_VECTORS, data)

    def ensure_vector_index(self, model: str, dim: int) -> bool:
        """Build the HNSW index of ``(model, dim)`` once it holds ``HNSW_ABOVE`` vectors.

        True if the index exists (now or before). Below that size every search is an
        exact scan, which is fast and never wrong; building the graph in one pass after a
        bulk load is several times cheaper than growing it one insert at a time. While
        another indexer holds reservations (``indexers_elsewhere``) the build waits for
        that indexer's own call at the end of its run: False meanwhile. Every call
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
        if self.indexers_elsewhere():
            # Another indexer is in the middle of a batch and calls this at the end of its
            # run: the last one to finish builds the graph. Built now, the CREATE INDEX
            # would block the others' inserts while it runs, and their last batches would
            # then go into the graph one insert at a time.
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
        return self._vector_search(model, query, f, limit)

    def _vector_search(
        self, model: str, query: np.ndarray, f: Filters, limit: int,
        item_rows: list[Sequence[object]] | None = None, facts: bool = False,
    ) -> list[tuple[int, float]]:
        """``vector_search``; with ``item_rows``, a graph walk's ranked items come too, as
        rows of ``ITEM_FIELDS`` (and with ``facts`` each one's superseded flags, as
        ``reads._ITEMS_SUPERSEDED`` gives them) appended there (``search.vector_search``)."""
        if limit <= 0 or len(query) == 0:
            return []
        where, params = self._where(f)
        reads = self._reads()  # within one search's reads, keep the ranked vectors too
        return search.vector_search(
            self.db, model, query, where, params, limit,
            scoped=f.scope is not None or f.session_id is not None,
            indexed=self._searchable_hnsw(model, len(query)), small=f.session_id is not None,
            vectors=None if reads is None else reads.vectors.setdefault(model, {}),
            item_rows=item_rows, facts=facts,
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
        """Add embeddings to the cache (a hash already there is left as it is): one
        statement for the lot, the hashes and vectors as two binary ``bytea`` arrays.

        The rows go in the order of their hashes, one order for every writer: a session's
        rows are inserted in the transaction that writes the session (perf25), and two
        workers inserting shared texts in opposite orders each held a row the other
        waited for: PostgreSQL failed one session with a deadlock (session 25)."""
        if not pairs:
            return
        self.db.execute(
            "INSERT INTO embed_cache (model, hash, vec) SELECT %b, h, v"
            " FROM unnest(%b::bytea[], %b::bytea[]) AS u(h, v) ORDER BY h ON CONFLICT DO NOTHING",
            (model, [bytes(h) for h, _ in pairs],
             [np.asarray(v, dtype=np.float32).tobytes() for _, v in pairs]),
        )
