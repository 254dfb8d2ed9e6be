"""What the shared mixins need from a backend: its database and a few dialect hooks."""

from __future__ import annotations

import json
import time
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Protocol

from memlane.index.normalize import name_key
from memlane.store.filters import Filters

__all__ = ["DERIVED_KINDS", "Cursor", "SqlDatabase", "SqlStore", "entity_key"]


DERIVED_KINDS = "('summary', 'fact', 'entity', 'observation')"
"""The kinds of item session intelligence derives from a session, as a SQL list: what a
re-summary deletes before it writes them again (``clear_intelligence``) and what an erase
takes from a kept session whose messages they were read from."""


def entity_key(extra: Any) -> str:
    """The key (``name_key``) of the graph node an entity item names: its ``extra``'s
    ``name``, ``extra`` as a column gives it (JSON text, a dict, or none) or already
    read; "" when it names none. What an erase, a re-summary, hygiene's eviction and
    ``rebuild_entities`` match the ``entities`` rows' ``norm_name`` by."""
    ex = json.loads(extra) if isinstance(extra, str) else extra or {}
    return name_key(str(ex.get("name", "")))


def _label_spellings(value: Any) -> tuple[Any, ...]:
    """The spellings an ``agent`` or ``project`` filter matches (session 22): the one
    spelling memlane writes (NFC, what the filter arrives in) and, for a label with accents,
    its decomposed form (NFD, "e" + U+0301, as a Mac types it), which a database written
    before session 22 may hold. Labels have no index, so ``IN`` of two values costs what
    ``=`` did. A label stored with an invisible format character (``team\u200b``) is not
    matched: that spelling cannot be derived from the filter (docs/serve.md, "Session 22:
    follow-ups")."""
    if not isinstance(value, str) or value.isascii():
        return (value,)
    nfc, nfd = (unicodedata.normalize(form, value) for form in ("NFC", "NFD"))
    return (nfc,) if nfc == nfd else (nfc, nfd)


class Cursor(Protocol):
    """The part of a DB-API cursor memlane reads (sqlite3 and psycopg both have it)."""

    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class SqlDatabase(Protocol):
    """A backend's connection holder (``sqlite.db.Database``, ``postgres.db.Database``).

    ``portable(sql)`` turns shared SQL (psycopg's placeholders) into this backend's;
    ``migrated`` names the migrations its opening applied.
    """

    migrated: list[str]

    def execute(self, sql: str, params: Any = ...) -> Cursor: ...
    def executemany(self, sql: str, rows: Any) -> Cursor: ...
    def atomic(self, *, wait: bool = True) -> AbstractContextManager[Any]: ...
    def portable(self, sql: str) -> str: ...
    def close(self) -> None: ...
    def reset_connection(self) -> None: ...
    def applied(self) -> list[tuple[str, str]]: ...
    def pending(self) -> list[str]: ...
    def probe_write(self) -> None: ...
    def check_schema(self) -> None: ...


class SqlStore:
    """The host of the shared mixins: declares ``db`` and the dialect hooks.

    A backend's store class sets ``db`` in ``__init__`` and overrides the hooks whose SQL
    differs; the defaults are what both dialects accept.
    """

    db: SqlDatabase

    TEXT_ORDER = ""
    """Appended to a text column in ORDER BY so both backends sort text by bytes
    (PostgreSQL: ``COLLATE "C"``; SQLite's default collation already does)."""

    SKIP_LOCKED = ""
    """Appended to a queue's ``SELECT … LIMIT n`` so concurrent workers skip rows another
    transaction holds (PostgreSQL: ``FOR UPDATE SKIP LOCKED``; SQLite has one writer)."""

    FOR_UPDATE = ""
    """Appended to a sub-select whose rows an ``UPDATE`` then changes, so they are locked
    in the sub-select's order (PostgreSQL: ``FOR UPDATE``; SQLite has one writer)."""

    FOR_NO_KEY_UPDATE = ""
    """``FOR_UPDATE`` for an ``UPDATE`` of no key column (PostgreSQL: ``FOR NO KEY
    UPDATE``, the lock the update takes anyway): a foreign-key check of another
    transaction (a key-share lock) passes it, where ``FOR UPDATE`` made it wait."""

    NOW = "(julianday('now') - 2440587.5) * 86400.0"
    """The database's time in epoch seconds, as SQL (PostgreSQL: ``clock_timestamp()``'s)."""

    def clock(self) -> float:
        """The database's time, epoch seconds: one clock for every process on the database
        (the meaning backfill's lease and rest; session 35: each process's own clock let a
        worker whose clock ran minutes ahead take a lease another held, and a walk rest
        until a ``now`` one caller passed)."""
        return float(self._run(f"SELECT {self.NOW}").fetchone()[0])

    def _fresh_id(self, table: str) -> tuple[str, str]:
        """``(column, value)`` to put first in an ``INSERT`` into ``table`` (``sessions``,
        ``facts``; SQLite's items too) so that the new row never takes the id of one deleted
        before it: rows keyed by those ids outlive them (a forgotten fact's events). Nothing here: PostgreSQL's sequences
        never go back; SQLite's largest id + 1 does (``SqliteStore._fresh_id``)."""
        return "", ""

    def _after(self, keys: Sequence[tuple[str, bool]], values: Sequence[Any]
               ) -> tuple[str, list[Any]]:
        """The condition "the row sorts after ``values``" in an ``ORDER BY`` of ``keys``
        (``(column, descending)`` each, the id last so the order is total): what a cursor
        reads on from, however many rows were added or removed before it since (offset
        paging repeated or skipped a row then). Written out as ``a > x OR (a = x AND b >
        y) …`` so text columns compare in ``TEXT_ORDER``, as they sort, on both backends."""
        ors: list[str] = []
        params: list[Any] = []
        for i, (col, desc) in enumerate(keys):
            ands = [f"{c} = %s" for c, _ in keys[:i]]
            ands.append(f"{col}{self.TEXT_ORDER if isinstance(values[i], str) else ''}"
                        f" {'<' if desc else '>'} %s")
            ors.append(f"({' AND '.join(ands)})")
            params.extend(values[:i + 1])
        return f"({' OR '.join(ors)})", params

    def close(self) -> None:
        self.db.close()

    def reading(self, *, superseded: bool = False) -> AbstractContextManager[None]:
        """One search's reads (``Memory.search`` holds it around a search): a backend may
        return, with a statement, rows the search asks for later (PostgreSQL:
        ``memlane.store.postgres.reads``; ``superseded``: the search will ask
        ``superseded_messages``). Here nothing changes."""
        return nullcontext()

    def snapshot(self) -> AbstractContextManager[None]:
        """Every read inside sees the database as of one moment (``copy_store`` reads a whole
        memory in one). Here nothing: a SQLite source is copied with its writers stopped."""
        return nullcontext()

    def lexical_and_vector_search(self, terms: Sequence[str], model: str, query: Any, f: Filters,
                                  limit: int, *, timings: dict[str, float] | None = None,
                                  ) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
        """Both candidate lists of a search, one after the other (PostgreSQL overrides this to
        run the two statements at once on two connections); ``timings`` gets each one's
        milliseconds."""
        t0 = time.perf_counter()
        lexical = self.lexical_search(terms, f, limit)  # type: ignore[attr-defined]
        t1 = time.perf_counter()
        vector = self.vector_search(model, query, f, limit)  # type: ignore[attr-defined]
        if timings is not None:
            timings["lexical_ms"] = (t1 - t0) * 1e3
            timings["vector_ms"] = (time.perf_counter() - t1) * 1e3
        return lexical, vector

    def _reads(self) -> Any:
        """What the current ``reading()`` block remembered (None: no block, or no memory)."""
        return None

    @contextmanager
    def atomic(self, *, wait: bool = True) -> Iterator[None]:
        """One transaction; nested calls become savepoints. ``wait`` false: ``StoreError``
        with ``busy`` set, nothing written, where the transaction would wait for another
        writer's lock (the backend's ``atomic``)."""
        with self.db.atomic(wait=wait):
            yield

    def pending_migrations(self) -> list[str]:
        return self.db.pending()

    def migrated_now(self) -> list[str]:
        """The migrations this store applied when it was opened (another process's are not
        counted, though it applied them meanwhile)."""
        return list(self.db.migrated)

    def reset_connection(self) -> None:
        """End whatever this thread's connection was left in and forget its transactions
        (PostgreSQL: the connection is closed, the next call opens a new one). For a caller outside every transaction of its own that a stop (Ctrl-C,
        SIGTERM) interrupted: the signal may have landed inside a transaction's own
        bookkeeping (begun and never ended, or ended and never committed), which left the
        connection in a state the next transaction would nest in and never commit, or fail
        on (session 47: a stopped run's claims, given back so, were left leased). What was
        not committed rolls back."""
        self.db.reset_connection()

    def release_if_crowded(self) -> None:
        """Give this thread's connection back if the server has been refusing connections
        for want of slots (a caller whose thread goes idle calls it). Here nothing: a SQLite
        file has no such limit."""

    def progress(self) -> Any:
        """What this thread has done to the database so far, for ``may_run_again`` (None:
        not counted)."""
        return None

    def lost_connection(self, exc: BaseException) -> bool:
        """Whether ``exc`` is this thread's connection to the database lost in the middle
        of a call (the database failed, not what the call did). Here never: a SQLite file
        has no connection to lose."""
        return False

    def may_run_again(self, exc: BaseException, progress: Any, *, write: bool) -> bool:
        """Whether a call that failed with ``exc`` may run once more, on a new connection:
        its connection was lost in the middle of it and nothing it did can have been kept
        (``progress`` is ``progress()`` from before the call; a write must have failed in a
        statement whose transaction did not commit). Here never: a SQLite file has no
        connection to lose."""
        return False

    def check_schema(self) -> None:
        """Raise ``MigrationError`` naming both versions unless the database is at this
        memlane's schema."""
        self.db.check_schema()

    def probe_write(self) -> None:
        """Raise ``StoreError`` unless the database would take a write now, without
        waiting for it (the index worker's probe during a back-off)."""
        self.db.probe_write()

    def applied_migrations(self) -> list[str]:
        return [name for name, _ in self.db.applied()]

    def _run(self, sql: str, params: Any = ()) -> Cursor:
        """Run shared SQL (psycopg's placeholders) on this backend."""
        return self.db.execute(self.db.portable(sql), params)

    def _run_many(self, sql: str, rows: Any) -> Cursor:
        return self.db.executemany(self.db.portable(sql), rows)

    def _insert_id(self, sql: str, params: Any) -> int:
        """Run a shared ``INSERT`` and return the new row's id (both dialects have RETURNING)."""
        return int(self._run(sql + " RETURNING id", params).fetchone()[0])

    # -- dialect hooks ------------------------------------------------------------------
    def _id_batches(self, column: str, ids: Sequence[int]) -> Iterator[tuple[str, list[Any]]]:
        """``(condition, params)`` pairs that together select ``column IN ids`` (shared
        placeholders). Default: batches of 500 ``%s`` marks; PostgreSQL sends one array."""
        ids = list(ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            yield f"{column} IN ({', '.join(['%s'] * len(chunk))})", chunk

    def _text_in(self, column: str, values: Sequence[str]) -> tuple[str, list[Any]]:
        """``column IN values`` for a short list of text values (shared placeholders)."""
        return f"{column} IN ({', '.join(['%s'] * len(values))})", list(values)

    def _json_list_holds(self, column: str) -> str:
        """A condition: the JSON text list in ``column`` holds the next ``%s`` value."""
        raise NotImplementedError

    def _scope_matches(self, pattern: str) -> tuple[str, str]:
        """A condition and its parameter: ``scope`` matches the key pattern ``pattern``
        (``*`` and ``?`` wildcards, case-sensitive; ``serve.keys.scope_matches``). Here
        PostgreSQL's LIKE, whose own wildcards and escape are escaped."""
        out = []
        for c in pattern:
            out.append("%" if c == "*" else "_" if c == "?" else
                       "\\" + c if c in "%_\\" else c)
        return "scope LIKE %s ESCAPE '\\'", "".join(out)

    def _lock_scope(self, scope: str) -> None:
        """Serialise message writers of a scope until commit (no-op where writers are serial)."""

    def lock_links(self, scope: str | None) -> bool:
        """Serialise the writers of ``scope``'s item links and story threads until commit
        (``link_items``, a topic's thread made or extended); whether a lock was taken
        (no-op where writers are serial). On PostgreSQL two upserts of a new topic each
        made its story thread (eight clients, five topics: 36 threads), and two links to
        one parent each wrote the children list it had read, losing the other's."""
        return False

    def _lock_scope_facts(self, scope: str) -> None:
        """Serialise fact writers of a scope until commit (no-op where writers are serial)."""

    def _lock_session_facts(self, session_id: int) -> None:
        """The same lock, for the scope of a session."""

    def _lock_scopes_facts(self, scopes: Sequence[str]) -> None:
        """The facts locks of ``scopes``, in the order given (sorted by the caller: every
        taker of several takes them in one order)."""
        for scope in scopes:
            self._lock_scope_facts(scope)

    def lock_scopes(self, scopes: Iterable[str], *, facts: bool = True) -> list[str]:
        """Inside a transaction, a writer of several scopes' rows: each scope's message
        lock (``_lock_scope``), then (``facts``) each one's facts lock, each kind in byte
        order (``COLLATE "C"``, Python's order of ``str``), before any row: the one order
        of docs/store.md ("Session 27: locks and their order"). The scopes, sorted."""
        names = sorted(set(scopes))
        for scope in names:
            self._lock_scope(scope)
        if facts:
            self._lock_scopes_facts(names)
        return names

    def filter_ids(self, f: Filters) -> list[int]:
        """Ids of the items that pass ``f``."""
        where, params = self._where(f)
        return [r[0] for r in self.db.execute(f"SELECT i.id FROM items i WHERE {where}", params)]

    def any_item(self, f: Filters) -> bool:
        """Whether an item passes ``f``: ``bool(filter_ids(f))`` without reading every id
        (``LIMIT 1``; session 34: a search that found nothing asked for every ``shared``
        id of its scope only to learn whether one existed)."""
        where, params = self._where(f)
        return self.db.execute(f"SELECT 1 FROM items i WHERE {where} LIMIT 1", params).fetchone() is not None

    def _where(self, f: Filters, alias: str = "i") -> tuple[str, list[Any]]:
        """The SQL condition and parameters of item filters, in this backend's own
        placeholders (backend SQL embeds it; shared SQL runs it through ``db.execute``)."""
        where = [f"{alias}.status = %s"]
        params: list[Any] = [f.status]
        for col, val in (("scope", f.scope), ("agent", f.agent), ("project", f.project),
                         ("session_id", f.session_id)):
            if val is None:
                continue
            spellings = _label_spellings(val) if col in ("agent", "project") else (val,)
            if len(spellings) == 1:
                where.append(f"{alias}.{col} = %s")
            else:
                where.append(f"{alias}.{col} IN ({', '.join('%s' for _ in spellings)})")
            params.extend(spellings)
        for col, vals in (("kind", f.kinds), ("lane", f.lanes), ("privacy", f.privacy)):
            if vals is not None:
                cond, more = self._text_in(f"{alias}.{col}", list(vals))
                where.append(cond)
                params.extend(more)
        if f.since is not None:
            where.append(f"{alias}.at >= %s")
            params.append(f.since)
        if f.until is not None:
            where.append(f"{alias}.at <= %s")
            params.append(f.until)
        return self.db.portable(" AND ".join(where)), params
