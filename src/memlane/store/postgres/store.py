"""The PostgreSQL + pgvector implementation of memlane's store contract.

The same public methods, signatures and semantics as ``SqliteStore``: times cross this
boundary as UTC epoch seconds (floats), rows come back as memlane's dataclasses, and
psycopg errors become ``StoreError``. Any number of processes may share one database:
``open_session_for`` serialises writers of one scope with an advisory lock, and
``claim_for_index`` hands each session to exactly one indexer.

This module holds sessions, messages, items, search, vectors and counters; the rest of
the contract comes from flat mixins: ``facts`` (entities, facts, relations), ``hygiene``
(expiry, pins, links, lookups, the pack journal) and ``transfer`` (``memlane copy``), ``vectors`` (pgvector
search and the embedding cache).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from memlane.errors import NotFoundError
from memlane.store.filters import Filters
from memlane.store.postgres import search
from memlane.store.postgres.browse import BrowseMixin
from memlane.store.postgres.db import (
    LOCK_SCOPE,
    Database,
    Tracer,
)
from memlane.store.postgres.facts import FactsMixin
from memlane.store.postgres.hygiene import HygieneMixin
from memlane.store.postgres.keys import KeysMixin
from memlane.store.postgres.rows import ITEM_COLS, MESSAGE_COLS, SESSION_COLS
from memlane.store.postgres.rows import item as _item
from memlane.store.postgres.rows import message as _message
from memlane.store.postgres.rows import session as _session
from memlane.store.postgres.transfer import TransferMixin
from memlane.store.postgres.vectors import VectorsMixin
from memlane.types import Session

__all__ = ["PostgresStore"]

# The columns ``insert_items`` writes, with their SQL types.
_ITEM_COLUMNS = (
    ("kind", "text"), ("text", "text"), ("keys", "text"), ("at", "float8"), ("scope", "text"),
    ("agent", "text"), ("project", "text"), ("session_id", "bigint"), ("message_id", "bigint"),
    ("seq", "integer"), ("role", "text"), ("keywords", "text"), ("entities", "text"),
    ("source", "text"), ("durability", "text"), ("lane", "text"), ("trust", "float8"),
    ("privacy", "text"), ("ttl_seconds", "bigint"), ("expires_at", "float8"), ("parents", "text"),
    ("children", "text"), ("status", "text"), ("dedupe_hash", "text"), ("extra", "text"),
    ("created_at", "float8"), ("updated_at", "float8"), ("pinned", "boolean"),
)
_NAMES = ", ".join(name for name, _ in _ITEM_COLUMNS)
# Many items in one statement and one round trip. Ids are drawn in the rows' order, then
# the rows are inserted with them, so the ids come back in input order by construction
# (not by relying on the order of RETURNING).
_INSERT_ITEMS = (
    "WITH src AS MATERIALIZED (SELECT nextval(pg_get_serial_sequence('items', 'id')) AS id,"
    f" u.* FROM unnest({', '.join(f'%s::{t}[]' for _, t in _ITEM_COLUMNS)})"
    f" WITH ORDINALITY AS u({_NAMES}, ord)),"
    f" ins AS (INSERT INTO items (id, {_NAMES}) SELECT id, {_NAMES} FROM src)"
    " SELECT id FROM src ORDER BY ord"
)


class PostgresStore(VectorsMixin, FactsMixin, HygieneMixin, TransferMixin, BrowseMixin, KeysMixin):
    """Sessions, messages, items, their lexical and vector indexes, in one PostgreSQL database."""

    backend = "postgres"

    def __init__(self, url: str, *, tracer: Tracer | None = None) -> None:
        self.db = Database(url, tracer=tracer)
        self.url = self.db.url
        self._hnsw: set[tuple[str, int]] = set()
        self._term_stats = search.TermStats()
        self._hnsw_lock = threading.Lock()
        self._seen: dict[int, set[str]] = {}
        """Participants known per session, to skip a JSON update on the hot path."""

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """One transaction; nested calls become savepoints."""
        with self.db.atomic():
            yield

    def pending_migrations(self) -> list[str]:
        return self.db.pending()

    def applied_migrations(self) -> list[str]:
        return [name for name, _ in self.db.applied()]

    # -- sessions -----------------------------------------------------------------------
    def open_session_for(self, scope: str) -> tuple[int, float, int] | None:
        """``(id, ended_at, message_count)`` of the scope's open session, if any.

        Inside a transaction this first takes the scope's advisory lock, held to commit:
        writers of one scope (any process) then run one after another, so two of them
        never both open a session or take the same ``seq``.
        """
        self.db.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_SCOPE, scope))
        row = self.db.execute(
            "SELECT id, ended_at, message_count FROM sessions WHERE scope = %s AND status = 'open'",
            (scope,),
        ).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def _participants(self, session_id: int) -> list[str]:
        row = self.db.execute(
            "SELECT participants FROM sessions WHERE id = %s", (session_id,)
        ).fetchone()
        return json.loads(row[0]) if row else []

    def create_session(self, scope: str, at: float, agent: str | None, project: str | None) -> int:
        row = self.db.execute(
            "INSERT INTO sessions (scope, agent, project, status, started_at, ended_at, created_at)"
            " VALUES (%s, %s, %s, 'open', %s, %s, %s) RETURNING id",
            (scope, agent, project, at, at, time.time()),
        ).fetchone()
        return int(row[0])

    def close_session(self, session_id: int, reason: str) -> bool:
        cur = self.db.execute(
            "UPDATE sessions SET status = 'closed', closed_reason = %s"
            " WHERE id = %s AND status = 'open'",
            (reason, session_id),
        )
        return cur.rowcount == 1

    def idle_sessions(self, before: float) -> list[int]:
        """Open sessions whose last message is older than ``before``."""
        rows = self.db.execute(
            "SELECT id FROM sessions WHERE status = 'open' AND ended_at < %s ORDER BY id", (before,)
        )
        return [r[0] for r in rows]

    def get_session(self, session_id: int) -> Any:
        row = self.db.execute(
            f"SELECT {SESSION_COLS} FROM sessions WHERE id = %s", (session_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"session {session_id} does not exist")
        return _session(row)

    def get_sessions(self, ids: Iterable[int]) -> dict[int, Any]:
        ids = list(set(ids))
        rows = self.db.execute(
            f"SELECT {SESSION_COLS} FROM sessions WHERE id = ANY(%s)", (ids,)
        ) if ids else []
        return {r[0]: _session(r) for r in rows}

    def list_sessions(
        self, scope: str | None = None, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Any]:
        where, params = [], []
        if scope is not None:
            where.append("scope = %s")
            params.append(scope)
        if status is not None:
            where.append("status = %s")
            params.append(status)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self.db.execute(
            f"SELECT {SESSION_COLS} FROM sessions {clause} ORDER BY started_at DESC, id DESC"
            " LIMIT %s OFFSET %s",
            (*params, limit, offset),
        )
        return [_session(r) for r in rows]

    def sessions_to_index(self, limit: int = 100) -> list[Any]:
        """Closed sessions whose turns are not indexed yet, oldest first.

        Sessions another indexer is claiming right now (row locked) are skipped, so
        concurrent indexers spread over different sessions instead of queueing.
        """
        rows = self.db.execute(
            f"SELECT {SESSION_COLS} FROM sessions WHERE indexed_at IS NULL AND status <> 'open'"
            " ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED",
            (limit,),
        )
        return [_session(r) for r in rows]

    def claim_for_index(self, session_id: int) -> bool:
        """Mark a session indexed unless someone already did; True if this caller won.

        Under READ COMMITTED a concurrent claimer waits for the row and then re-checks
        ``indexed_at``: exactly one transaction updates the row.
        """
        cur = self.db.execute(
            "UPDATE sessions SET indexed_at = %s WHERE id = %s AND indexed_at IS NULL",
            (time.time(), session_id),
        )
        return cur.rowcount == 1

    # -- the session-intelligence queue -------------------------------------------------
    def claim_for_summary(self, now: float, lease_seconds: float, max_attempts: int,
                          due_before: float | None = None) -> Session | None:
        """Lease the next closed (or failed, due for retry) session that needs intelligence.

        ``FOR UPDATE SKIP LOCKED`` in the one statement that takes the lease: concurrent
        workers (any process) never get the same session; a worker that dies leaves the
        lease to expire and the session returns. Only sessions due at ``due_before``
        (default ``now``) are taken.
        """
        with self.atomic():
            row = self.db.execute(
                "UPDATE sessions SET lease_until = %s, attempts = attempts + 1 WHERE id = ("
                " SELECT id FROM sessions WHERE summarized_at IS NULL"
                " AND status IN ('closed', 'failed') AND attempts < %s AND next_attempt_at <= %s"
                " AND (lease_until IS NULL OR lease_until < %s) ORDER BY next_attempt_at, id"
                " LIMIT 1 FOR UPDATE SKIP LOCKED)"
                f" RETURNING {SESSION_COLS}",
                (now + lease_seconds, max_attempts, now if due_before is None else due_before, now),
            ).fetchone()
        return _session(row) if row else None

    def finish_summary(self, session_id: int, *, version: int | None, model: str | None,
                       now: float, skipped: bool = False) -> None:
        """Mark intelligence done: ``summarized`` (or, when skipped as too small, left closed)."""
        self.db.execute(
            "UPDATE sessions SET status = CASE WHEN %s THEN 'closed' ELSE 'summarized' END,"
            " summary_version = %s, summary_model = %s, summarized_at = %s, lease_until = NULL,"
            " failed_reason = NULL WHERE id = %s",
            (skipped, version, model, now, session_id),
        )

    def fail_summary(self, session_id: int, reason: str, next_attempt_at: float) -> None:
        self.db.execute(
            "UPDATE sessions SET status = 'failed', failed_reason = %s, next_attempt_at = %s,"
            " lease_until = NULL WHERE id = %s",
            (reason[:2000], next_attempt_at, session_id),
        )

    def requeue_summaries(self, below_version: int) -> int:
        """Queue again every summarized session whose summary schema is older."""
        cur = self.db.execute(
            "UPDATE sessions SET summarized_at = NULL, attempts = 0, next_attempt_at = 0,"
            " status = 'closed' WHERE status = 'summarized' AND coalesce(summary_version, 0) < %s",
            (below_version,),
        )
        return cur.rowcount

    def summary_queue(self, now: float, max_attempts: int) -> dict[str, int]:
        """Counts of sessions waiting, leased, failed for good and done."""
        row = self.db.execute(
            "SELECT"
            " count(*) FILTER (WHERE summarized_at IS NULL AND status IN ('closed', 'failed')"
            "  AND attempts < %s),"
            " count(*) FILTER (WHERE summarized_at IS NULL AND lease_until >= %s),"
            " count(*) FILTER (WHERE summarized_at IS NULL AND status = 'failed'"
            "  AND attempts >= %s),"
            " count(*) FILTER (WHERE summarized_at IS NOT NULL) FROM sessions",
            (max_attempts, now, max_attempts),
        ).fetchone()
        return {"pending": row[0], "leased": row[1], "failed": row[2], "done": row[3]}

    # -- messages -----------------------------------------------------------------------
    def append_message(
        self,
        session_id: int,
        scope: str,
        seq: int,
        role: str,
        text: str,
        at: float,
        *,
        speaker: str | None,
        ext_id: str | None,
        agent: str | None,
        project: str | None,
        redactions: int,
    ) -> int:
        """Insert a message and advance its session's counters and time range."""
        who = speaker or role
        cached = self._seen.get(session_id)
        if cached is None:
            cached = self._seen[session_id] = set(self._participants(session_id))
            if len(self._seen) > 10_000:
                self._seen.clear()
        participants = (
            "" if who in cached else
            ", participants = CASE WHEN participants::jsonb ? %(who)s THEN participants"
            " ELSE (participants::jsonb || jsonb_build_array(%(who)s::text))::text END"
        )
        row = self.db.execute(
            "WITH m AS (INSERT INTO messages (session_id, scope, seq, role, speaker, text, at,"
            " ext_id, agent, project, redactions) VALUES (%(sid)s, %(scope)s, %(seq)s, %(role)s,"
            " %(speaker)s, %(text)s, %(at)s, %(ext_id)s, %(agent)s, %(project)s, %(red)s)"
            " RETURNING id),"
            " s AS (UPDATE sessions SET message_count = message_count + 1,"
            " started_at = least(started_at, %(at)s), ended_at = greatest(ended_at, %(at)s)"
            f"{participants} WHERE id = %(sid)s)"
            " SELECT id FROM m",
            {"sid": session_id, "scope": scope, "seq": seq, "role": role, "speaker": speaker,
             "text": text, "at": at, "ext_id": ext_id, "agent": agent, "project": project,
             "red": redactions, "who": who},
        ).fetchone()
        cached.add(who)
        return int(row[0])

    def message_by_ext_id(self, scope: str, ext_id: str) -> Any | None:
        row = self.db.execute(
            f"SELECT {MESSAGE_COLS} FROM messages WHERE scope = %s AND ext_id = %s",
            (scope, ext_id),
        ).fetchone()
        return _message(row) if row else None

    def get_message(self, message_id: int) -> Any:
        row = self.db.execute(
            f"SELECT {MESSAGE_COLS} FROM messages WHERE id = %s", (message_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"message {message_id} does not exist")
        return _message(row)

    def session_messages(self, session_id: int) -> list[Any]:
        rows = self.db.execute(
            f"SELECT {MESSAGE_COLS} FROM messages WHERE session_id = %s ORDER BY seq",
            (session_id,),
        )
        return [_message(r) for r in rows]

    def recent_messages(self, scope: str, limit: int) -> list[Any]:
        rows = self.db.execute(
            f"SELECT {MESSAGE_COLS} FROM messages WHERE scope = %s"
            " ORDER BY at DESC, id DESC LIMIT %s",
            (scope, limit),
        ).fetchall()
        return [_message(r) for r in reversed(rows)]

    # -- items --------------------------------------------------------------------------
    def insert_items(self, rows: Sequence[dict[str, Any]]) -> list[int]:
        """Insert items (dicts of column values); returns their ids in order.

        One statement whatever the number of rows: each column travels as one array and
        ``unnest`` turns the arrays back into rows (see ``_INSERT_ITEMS``).
        """
        if not rows:
            return []
        now = time.time()
        columns: list[list[Any]] = [[] for _ in _ITEM_COLUMNS]
        for r in rows:
            ttl = r.get("ttl_seconds")
            values = (
                r["kind"], r["text"], r.get("keys", ""), r["at"], r.get("scope"),
                r.get("agent"), r.get("project"), r.get("session_id"), r.get("message_id"),
                r.get("seq"), r.get("role"), json.dumps(list(r.get("keywords", ()))),
                json.dumps(list(r.get("entities", ()))), r.get("source", "observed"),
                r.get("durability", "long"), r.get("lane", "episodic"), r.get("trust", 1.0),
                r.get("privacy", "private"), ttl, r["at"] + ttl if ttl else None,
                json.dumps(list(r.get("parents", ()))), json.dumps(list(r.get("children", ()))),
                r.get("status", "active"), r.get("dedupe_hash"),
                json.dumps(r.get("extra", {})), now, now, bool(r.get("pinned", False)),
            )
            for column, value in zip(columns, values, strict=True):
                column.append(value)
        return [int(r[0]) for r in self.db.execute(_INSERT_ITEMS, columns)]

    def item_by_dedupe_hash(self, digest: str) -> int | None:
        row = self.db.execute("SELECT id FROM items WHERE dedupe_hash = %s", (digest,)).fetchone()
        return row[0] if row else None

    def get_item(self, item_id: int) -> Any:
        row = self.db.execute(
            f"SELECT {ITEM_COLS} FROM items WHERE id = %s", (item_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"item {item_id} does not exist")
        return _item(row)

    def get_items(self, ids: Iterable[int]) -> dict[int, Any]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        found = {
            r[0]: _item(r)
            for r in self.db.execute(f"SELECT {ITEM_COLS} FROM items WHERE id = ANY(%s)", (ids,))
        }
        return {i: found[i] for i in ids if i in found}

    def delete_item(self, item_id: int) -> None:
        """Delete an item with its lexical and vector rows, in one transaction."""
        with self.atomic():
            cur = self.db.execute("DELETE FROM items WHERE id = %s", (item_id,))
            if cur.rowcount == 0:
                raise NotFoundError(f"item {item_id} does not exist")

    def session_items(self, session_id: int, kind: str | None = None) -> list[Any]:
        sql = f"SELECT {ITEM_COLS} FROM items WHERE session_id = %s"
        params: list[Any] = [session_id]
        if kind is not None:
            sql += " AND kind = %s"
            params.append(kind)
        return [_item(r) for r in self.db.execute(sql + " ORDER BY seq, id", params)]

    # -- filters ------------------------------------------------------------------------
    @staticmethod
    def _where(f: Filters, alias: str = "i") -> tuple[str, list[Any]]:
        where = [f"{alias}.status = %s"]
        params: list[Any] = [f.status]
        for col, val in (("scope", f.scope), ("agent", f.agent), ("project", f.project),
                         ("session_id", f.session_id)):
            if val is not None:
                where.append(f"{alias}.{col} = %s")
                params.append(val)
        for col, vals in (("kind", f.kinds), ("lane", f.lanes), ("privacy", f.privacy)):
            if vals is not None:
                where.append(f"{alias}.{col} = ANY(%s::text[])")
                params.append(list(vals))
        if f.since is not None:
            where.append(f"{alias}.at >= %s")
            params.append(f.since)
        if f.until is not None:
            where.append(f"{alias}.at <= %s")
            params.append(f.until)
        return " AND ".join(where), params

    def filter_ids(self, f: Filters) -> list[int]:
        where, params = self._where(f)
        return [r[0] for r in self.db.execute(f"SELECT i.id FROM items i WHERE {where}", params)]

    # -- lexical ------------------------------------------------------------------------
    def lexical_search(self, terms: Sequence[str], f: Filters, limit: int) -> list[tuple[int, float]]:
        """Full-text search over item text and keys: ``(item_id, score)``, higher is better.

        The generated ``tsv`` column (english stemming, text 'A', keys 'B') with a GIN
        index; ranking is BM25-like (see ``search.lexical_search``). Any user text is a
        valid query.
        """
        if limit <= 0:
            return []
        where, params = self._where(f)
        return search.lexical_search(self.db, terms, where, params, limit, self._term_stats)

    # -- counters and stats -------------------------------------------------------------
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

    def counters(self) -> dict[str, int]:
        rows = self.db.execute("SELECT name, sum(value) FROM counters GROUP BY name ORDER BY name")
        return {r[0]: int(r[1]) for r in rows}

    def stats(self) -> dict[str, Any]:
        def q(sql: str) -> list[tuple[Any, ...]]:
            return self.db.execute(sql).fetchall()

        return {
            "backend": self.backend,
            "db": self.url,
            "messages": q("SELECT count(*) FROM messages")[0][0],
            "scopes": q("SELECT count(DISTINCT scope) FROM sessions")[0][0],
            "sessions": dict(q("SELECT status, count(*) FROM sessions GROUP BY status")),
            "sessions_unindexed": q(
                "SELECT count(*) FROM sessions WHERE indexed_at IS NULL AND status <> 'open'"
            )[0][0],
            "items": dict(q("SELECT kind, count(*) FROM items GROUP BY kind")),
            "vectors": dict(q("SELECT model, count(*) FROM vectors GROUP BY model")),
            "embed_cache": q("SELECT count(*) FROM embed_cache")[0][0],
            "counters": self.counters(),
            "migrations": self.applied_migrations(),
        }
