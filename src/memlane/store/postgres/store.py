"""The PostgreSQL + pgvector implementation of memlane's store contract
(``memlane.store.contract``).

The same public methods, signatures and semantics as ``SqliteStore``: times cross this
boundary as UTC epoch seconds (floats), rows come back as memlane's dataclasses, and
psycopg errors become ``StoreError``. Any number of processes may share one database:
``open_session_for`` serialises writers of one scope with an advisory lock, and
``claim_for_index`` / ``claim_for_summary`` hand each session to exactly one worker.

The class is assembled from one module per role, the same modules as SQLite's:
``sessions`` (sessions, messages, the intelligence queue), this one (items, counters and
the dialect hooks of the shared SQL), ``search`` (tsvector and pgvector search),
``facts`` (entities, facts, relations), ``vectors``, ``transfer`` and ``changes`` (the live
stream's change log); hygiene, API keys and the inspector's listings are all shared SQL
(``memlane.store.sql``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from memlane.errors import StoreError
from memlane.store.postgres import search
from memlane.store.postgres.changes import ChangesMixin
from memlane.store.postgres.db import Database, Tracer
from memlane.store.postgres.erase import PostgresErase
from memlane.store.postgres.facts import PostgresFacts
from memlane.store.postgres.reads import SearchReads
from memlane.store.postgres.rows import id_array
from memlane.store.postgres.search import PostgresSearch
from memlane.store.postgres.sessions import PostgresSessions
from memlane.store.postgres.transfer import PostgresTransfer
from memlane.store.postgres.vectors import VectorsMixin
from memlane.store.sql.browse import BrowseMixin
from memlane.store.sql.hygiene import HygieneMixin
from memlane.store.sql.keys import KeysMixin
from memlane.store.sql.items import ITEM_INSERT_COLUMNS, ItemsMixin, item_values

__all__ = ["PostgresStore"]

_ITEM_TYPES = {
    "at": "float8", "session_id": "bigint", "message_id": "bigint", "seq": "integer",
    "trust": "float8", "ttl_seconds": "bigint", "expires_at": "float8", "created_at": "float8",
    "updated_at": "float8", "pinned": "boolean",
}
_NAMES = ", ".join(ITEM_INSERT_COLUMNS)
_ARRAYS = ", ".join(f"%b::{_ITEM_TYPES.get(c, 'text')}[]" for c in ITEM_INSERT_COLUMNS)
# Many items in one statement and one round trip. Ids are drawn in the rows' order, then
# the rows are inserted with them, so the ids come back in input order by construction
# (not by relying on the order of RETURNING).
_INSERT_ITEMS = (
    "WITH src AS MATERIALIZED (SELECT nextval(pg_get_serial_sequence('items', 'id')) AS id,"
    f" u.* FROM unnest({_ARRAYS})"
    f" WITH ORDINALITY AS u({_NAMES}, ord)),"
    f" ins AS (INSERT INTO items (id, {_NAMES}) SELECT id, {_NAMES} FROM src)"
    " SELECT id FROM src ORDER BY ord"
)


class PostgresStore(SearchReads, PostgresSessions, ItemsMixin, PostgresSearch, PostgresFacts,
                    HygieneMixin, VectorsMixin, PostgresTransfer, ChangesMixin, BrowseMixin,
                    KeysMixin, PostgresErase):
    """Sessions, messages, items, their lexical and vector indexes, in one PostgreSQL database."""

    backend = "postgres"
    db: Database
    TEXT_ORDER = ' COLLATE "C"'
    SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"
    FOR_UPDATE = " FOR UPDATE"
    NOW = "extract(epoch FROM clock_timestamp())"
    FOR_NO_KEY_UPDATE = " FOR NO KEY UPDATE"

    def __init__(self, url: str, *, tracer: Tracer | None = None) -> None:
        self.db = Database(url, tracer=tracer)
        self.url = self.db.url
        self._hnsw: set[tuple[str, int]] = set()
        self._term_stats = search.TermStats()
        self._hnsw_lock = threading.Lock()
        self._no_hnsw: dict[tuple[str, int], float] = {}
        self._reserved = threading.local()

    READ_ONLY_SECONDS = 1.0
    """How long ``read_only``'s answer is taken as it is before it is asked again."""

    @property
    def read_only(self) -> bool:
        """Whether this connection may not write: a hot standby (a read replica), a role
        with ``default_transaction_read_only``, or one not granted UPDATE on facts or INSERT
        on packs. Reads work, and memlane skips the writes a read would make (session 22).

        Asked again once the answer is older than ``READ_ONLY_SECONDS``, and true at once
        when a statement is refused as read-only since (``Database.refusals``): a role whose
        rights are revoked or given while the store is open, a standby promoted (session 40:
        asked once per store, a role whose grants were revoked was taken for a writer, its
        searches and packs failing on their own writes, and one granted them for a reader,
        until the process started again)."""
        refusals = self.db.refusals
        known, asked, seen = self.__dict__.get("_read_only", (False, None, refusals))
        now = time.monotonic()
        if refusals != seen:
            known, asked = True, now
        elif asked is None or now - asked >= self.READ_ONLY_SECONDS:
            try:
                row = self._run("SELECT current_setting('transaction_read_only') = 'on'"
                                " OR NOT has_table_privilege('facts', 'UPDATE')"
                                " OR NOT has_table_privilege('packs', 'INSERT')").fetchone()
            except StoreError:
                if asked is None:
                    raise  # (never answered: as when it was asked once)
                return bool(known)  # the server unreachable: the last answer, asked again next
            known, asked = bool(row[0]), now
        self.__dict__["_read_only"] = (known, asked, refusals)
        return bool(known)

    def connection_slots(self) -> int:
        """The connections this role may open to this database at most: the server's
        ``max_connections`` less those it keeps for superusers (and ``reserved_connections``,
        PostgreSQL 16), or the role's or the database's ``CONNECTION LIMIT`` when lower.
        What ``memlane serve`` derives ``serve.db_connections`` from when it is 0."""
        row = self._run(
            "SELECT current_setting('max_connections')::int"
            " - current_setting('superuser_reserved_connections')::int"
            " - coalesce(current_setting('reserved_connections', true)::int, 0),"
            " (SELECT rolconnlimit FROM pg_roles WHERE rolname = current_user),"
            " (SELECT datconnlimit FROM pg_database WHERE datname = current_database())"
        ).fetchone()
        return min(int(v) for v in row if v is not None and int(v) >= 0)

    def progress(self) -> Any:
        return self.db.progress()

    def release_if_crowded(self) -> None:
        self.db.release_if_crowded()

    def lost_connection(self, exc: BaseException) -> bool:
        return self.db.lost(exc)

    def may_run_again(self, exc: BaseException, progress: Any, *, write: bool) -> bool:
        """A connection lost mid-call (session 25: it failed the call with 503 "terminating
        connection due to administrator command"): a read runs again if it sent no COMMIT
        (a pack's journal: one whose answer was lost may have committed); a write only if
        it sent no COMMIT and ran nothing outside a transaction before the failure, and the
        failure rolled back what it did (a transaction that did not commit, or a statement
        the server ended itself)."""
        if not self.db.lost(exc):
            return False
        commits, alone = self.db.progress()
        if not write:
            return bool(commits == progress[0])
        return bool((commits, alone) == tuple(progress)
                    and (getattr(exc, "rolled_back", False) or self.db.ended_before_commit(exc)))

    # -- dialect hooks of the shared SQL ------------------------------------------------
    def _id_batches(self, column: str, ids: Sequence[int]) -> Iterator[tuple[str, list[Any]]]:
        if ids:
            yield f"{column} = ANY(%s::bigint[])", [id_array(ids)]

    def _text_in(self, column: str, values: Sequence[str]) -> tuple[str, list[Any]]:
        return f"{column} = ANY(%s::text[])", [list(values)]

    def _json_list_holds(self, column: str) -> str:
        # jsonb's ``?`` operator: safe in this backend's own SQL, which is never translated.
        return f"{column}::jsonb ? %s"

    # -- items --------------------------------------------------------------------------
    def insert_items(self, rows: Sequence[dict[str, Any]]) -> list[int]:
        """Insert items (dicts of column values); returns their ids in order.

        One statement whatever the number of rows: each column travels as one array and
        ``unnest`` turns the arrays back into rows (see ``_INSERT_ITEMS``).
        """
        if not rows:
            return []
        now = time.time()
        columns: list[list[Any]] = [[] for _ in ITEM_INSERT_COLUMNS]
        for r in rows:
            for column, value in zip(columns, item_values(r, now), strict=True):
                column.append(value)
        return [int(r[0]) for r in self.db.execute(_INSERT_ITEMS, columns)]

    # -- counters -----------------------------------------------------------------------
    def bump(self, name: str, n: int = 1) -> None:
        """Add ``n`` to a counter.

        Each connection adds to its own row (keyed by backend pid) and readers sum: no
        two transactions ever wait for, or deadlock on, the same counter row.
        """
        self.db.execute(
            "INSERT INTO counters (name, shard, value) VALUES (%s, pg_backend_pid(), %s)"
            " ON CONFLICT (name, shard) DO UPDATE SET value = counters.value + excluded.value",
            (name, n),
        )

    def fold_counters(self) -> int:
        """Fold the rows of connections that ended into one row per counter (shard 0, which
        no backend's pid is), in one statement; how many rows went. Since a thread's
        connection closes when the thread ends (session 24), each burst of a service's
        requests after a pause opens connections with new pids, and their rows would pile
        up for ever (``stats`` sums them all). Rows of live connections are not touched, so
        no bump waits on a fold. The hygiene pass runs it (``Memory.gc``, the worker's
        every round)."""
        return len(self.db.execute(
            "WITH gone AS (DELETE FROM counters WHERE shard <> 0 AND shard NOT IN"
            " (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL) RETURNING name, value),"
            " folded AS (INSERT INTO counters (name, shard, value)"
            " SELECT name, 0, sum(value) FROM gone GROUP BY name"
            " ON CONFLICT (name, shard) DO UPDATE SET value = counters.value + excluded.value"
            " RETURNING 1) SELECT name FROM gone").fetchall())
