"""The SQLite implementation of memlane's store contract (``memlane.store.contract``).

Every public method is backend-neutral in its signature; SQL stays in this package or in
the shared ``memlane.store.sql``. Times cross this boundary as UTC epoch seconds (floats).
The class is assembled from one module per role, the same modules as PostgreSQL's:
``sessions`` (sessions, messages, the intelligence queue), this one (items, counters and
the dialect hooks of the shared SQL), ``search`` (FTS5), ``facts`` (entities, facts,
relations), ``vectors``, ``transfer``, ``changes`` (the live stream's change log);
hygiene, API keys and the inspector's listings are all shared SQL.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from memlane.store.sql.browse import BrowseMixin
from memlane.store.sql.hygiene import HygieneMixin
from memlane.store.sql.keys import KeysMixin
from memlane.store.sql.items import ITEM_INSERT_COLUMNS, ItemsMixin, item_values
from memlane.store.sqlite.changes import ChangesMixin
from memlane.store.sqlite.db import Database, Tracer
from memlane.store.sqlite.erase import SqliteErase
from memlane.store.sqlite.facts import SqliteFacts
from memlane.store.sqlite.rows import LEXICAL_POSTINGS, fts_query
from memlane.store.sqlite.search import SqliteSearch
from memlane.store.sqlite.sessions import SqliteSessions
from memlane.store.sqlite.transfer import SqliteTransfer
from memlane.store.sqlite.vectors import VectorsMixin
from memlane.store.vector_index import VectorIndex

__all__ = ["LEXICAL_POSTINGS", "SqliteStore", "fts_query"]

_FRESH_ID = ("max(coalesce((SELECT max(id) FROM {table}), 0), coalesce((SELECT value FROM"
             " id_floor WHERE name = '{table}'), 0)) + 1")
"""An id above every id ``table`` ever had (migration 0011, ``id_floor``)."""

_INSERT_ITEM = (
    f"INSERT INTO items (id, {', '.join(ITEM_INSERT_COLUMNS)})"
    f" VALUES ({_FRESH_ID.format(table='items')}, {', '.join(['%s'] * len(ITEM_INSERT_COLUMNS))})"
)


class SqliteStore(SqliteSessions, ItemsMixin, SqliteSearch, SqliteFacts, HygieneMixin,
                  VectorsMixin, SqliteTransfer, ChangesMixin, BrowseMixin, KeysMixin, SqliteErase):
    """Sessions, messages, items, their lexical and vector indexes, in one SQLite file."""

    backend = "sqlite"
    db: Database

    def __init__(self, path: str | Path, *, tracer: Tracer | None = None,
                 read_only: bool = False) -> None:
        self.db = Database(path, tracer=tracer, read_only=read_only)
        self.url = self.db.path
        self._indexes: dict[str, VectorIndex] = {}
        self._index_lock = threading.Lock()
        self._doc_counts = threading.local()
        self._synced = threading.local()

    @property
    def read_only(self) -> bool:
        """Whether the file is opened read-only (``?mode=ro``, a read-only file or mount):
        reads work; a write fails naming the file (session 22)."""
        return self.db.read_only

    # -- dialect hooks of the shared SQL ------------------------------------------------
    def _id_batches(self, column: str, ids: Sequence[int]) -> Iterator[tuple[str, list[Any]]]:
        """``column IN ids`` as one condition with one parameter, the ids as a JSON array
        read by ``json_each``: the same statement text for any number of ids, so SQLite
        prepares it once per connection (its statement cache) where a list of ``?`` marks
        made a new statement for every length. Measured hydrating 300-420 items of a 1M
        store: 5.5-7.3 against 7.5-8.6 ms of CPU a call (docs/scaling.md, fifth round)."""
        if ids:
            yield f"{column} IN (SELECT value FROM json_each(%s))", [json.dumps(list(ids), default=int)]

    def _fresh_id(self, table: str) -> tuple[str, str]:
        """Above every id ``table`` ever had: SQLite's own rule (the largest id + 1) gave the
        id of a deleted newest row to the next (migration 0011, ``id_floor``)."""
        return "id, ", _FRESH_ID.format(table=table) + ", "

    def _scope_matches(self, pattern: str) -> tuple[str, str]:
        # GLOB is case-sensitive (LIKE is not, for ASCII); its [ ] sets are escaped
        return "scope GLOB %s", "".join("[[]" if c == "[" else c for c in pattern)

    def _json_list_holds(self, column: str) -> str:
        return f"EXISTS (SELECT 1 FROM json_each(items.{column}) WHERE value = %s)"

    # -- items --------------------------------------------------------------------------
    def insert_items(self, rows: Sequence[dict[str, Any]]) -> list[int]:
        """Insert items (dicts of column values); returns their ids in order."""
        now = time.time()
        return [self._insert_id(_INSERT_ITEM, item_values(r, now)) for r in rows]

    # -- counters ---------------------------------------------------------------------
    def bump(self, name: str, n: int = 1) -> None:
        self.db.execute(
            "INSERT INTO counters (name, value) VALUES (?, ?)"
            " ON CONFLICT (name) DO UPDATE SET value = value + excluded.value",
            (name, n),
        )

    def fold_counters(self) -> int:
        """Nothing to fold: SQLite keeps one row per counter."""
        return 0
