"""The PostgreSQL + pgvector implementation of memlane's store contract.

The same public methods, signatures and semantics as ``SqliteStore``: times cross this
boundary as UTC epoch seconds (floats), rows come back as memlane's dataclasses, and
psycopg errors become ``StoreError``. Any number of processes may share one database:
``open_session_for`` serialises writers of one scope with an advisory lock, and
``claim_for_index`` hands each session to exactly one indexer.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import numpy as np

from memlane.errors import NotFoundError
from memlane.store.filters import Filters
from memlane.store.postgres import search
from memlane.store.postgres.db import (
    LOCK_SCOPE,
    Database,
    Tracer,
    Vector,
    peek_migrations,
    translate,
)
from memlane.types import Item, Message, Session, StoredEntity, StoredFact

__all__ = ["PostgresStore"]

_ITEM_COLS = (
    "id, kind, text, at, scope, agent, project, session_id, message_id, seq, role, keywords, "
    "entities, source, durability, lane, trust, privacy, ttl_seconds, parents, children, status, "
    "dedupe_hash, extra"
)
_SESSION_COLS = (
    "id, scope, status, started_at, ended_at, message_count, participants, agent, project, "
    "closed_reason, failed_reason, summary_version, indexed_at, attempts, summarized_at, summary_model"
)
_FACT_COLS = (
    "id, item_id, scope, subject, predicate, object, source, session_id, message_id, at, "
    "reinforcements, last_accessed, superseded_by, status"
)
_MESSAGE_COLS = "id, session_id, scope, role, text, at, seq, speaker, ext_id, agent, project, redactions"

# Every column, for copying a memory between stores (see iter_* / restore_*).
_ALL_SESSION = (
    "id", "scope", "agent", "project", "status", "started_at", "ended_at", "message_count",
    "participants", "closed_reason", "failed_reason", "summary_version", "indexed_at", "created_at",
    "attempts", "next_attempt_at", "lease_until", "summarized_at", "summary_model",
)
_ALL_ENTITY = (
    "id", "scope", "name", "norm_name", "type", "context", "mentions", "first_seen", "last_seen",
)
_ALL_FACT = (
    "id", "item_id", "scope", "subject", "predicate", "object", "norm_subject", "norm_predicate",
    "norm_object", "source", "session_id", "message_id", "at", "reinforcements",
    "last_accessed", "superseded_by", "status", "created_at",
)
_ALL_RELATION = (
    "id", "scope", "source_entity", "relation", "target_entity", "session_id", "message_id", "at",
)
_ALL_MESSAGE = (
    "id", "session_id", "scope", "seq", "role", "speaker", "text", "at", "ext_id", "agent",
    "project", "redactions",
)
_ALL_ITEM = (
    "id", "kind", "text", "keys", "at", "scope", "agent", "project", "session_id", "message_id",
    "seq", "role", "keywords", "entities", "source", "durability", "lane", "trust", "privacy",
    "ttl_seconds", "expires_at", "parents", "children", "status", "dedupe_hash", "extra",
    "created_at", "updated_at",
)
_JSON_COLS = frozenset({"participants", "keywords", "entities", "parents", "children", "extra"})


def _dt(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


def _session(r: Sequence[Any]) -> Session:
    return Session(
        id=r[0], scope=r[1], status=r[2], started_at=_dt(r[3]), ended_at=_dt(r[4]),
        message_count=r[5], participants=tuple(json.loads(r[6])), agent=r[7], project=r[8],
        closed_reason=r[9], failed_reason=r[10], summary_version=r[11], indexed=r[12] is not None,
        attempts=r[13], summarized=r[14] is not None, summary_model=r[15],
    )


def _fact(r: Sequence[Any]) -> StoredFact:
    return StoredFact(
        id=r[0], item_id=r[1], scope=r[2], subject=r[3], predicate=r[4], object=r[5], source=r[6],
        session_id=r[7], message_id=r[8], at=_dt(r[9]), reinforcements=r[10],
        last_accessed=_dt(r[11]), superseded_by=r[12], status=r[13],
    )


def _message(r: Sequence[Any]) -> Message:
    return Message(
        id=r[0], session_id=r[1], scope=r[2], role=r[3], text=r[4], at=_dt(r[5]), seq=r[6],
        speaker=r[7], ext_id=r[8], agent=r[9], project=r[10], redactions=r[11],
    )


def _item(r: Sequence[Any]) -> Item:
    return Item(
        id=r[0], kind=r[1], text=r[2], at=_dt(r[3]), scope=r[4], agent=r[5], project=r[6],
        session_id=r[7], message_id=r[8], seq=r[9], role=r[10],
        keywords=tuple(json.loads(r[11])), entities=tuple(json.loads(r[12])), source=r[13],
        durability=r[14], lane=r[15], trust=r[16], privacy=r[17], ttl_seconds=r[18],
        parents=tuple(json.loads(r[19])), children=tuple(json.loads(r[20])), status=r[21],
        dedupe_hash=r[22], extra=json.loads(r[23]),
    )


def _vec(v: Any) -> np.ndarray:
    return np.asarray(v, dtype=np.float32)


class PostgresStore:
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
            f"SELECT {_SESSION_COLS} FROM sessions WHERE id = %s", (session_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"session {session_id} does not exist")
        return _session(row)

    def get_sessions(self, ids: Iterable[int]) -> dict[int, Any]:
        ids = list(set(ids))
        rows = self.db.execute(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE id = ANY(%s)", (ids,)
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
            f"SELECT {_SESSION_COLS} FROM sessions {clause} ORDER BY started_at DESC, id DESC"
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
            f"SELECT {_SESSION_COLS} FROM sessions WHERE indexed_at IS NULL AND status <> 'open'"
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
                f" RETURNING {_SESSION_COLS}",
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

    # -- entities, facts, relations -----------------------------------------------------
    def clear_intelligence(self, session_id: int) -> None:
        """Remove what session intelligence derived from a session (before it is redone)."""
        self.db.execute(
            "DELETE FROM items WHERE session_id = %s AND kind IN ('summary', 'fact', 'entity')",
            (session_id,),
        )
        self.db.execute("DELETE FROM facts WHERE session_id = %s", (session_id,))
        self.db.execute("DELETE FROM relations WHERE session_id = %s", (session_id,))

    def upsert_entity(self, scope: str, name: str, norm_name: str, type_: str, context: str,
                      at: float) -> int:
        """Merge an entity by normalized name within its scope; returns its id."""
        row = self.db.execute(
            "INSERT INTO entities AS e (scope, name, norm_name, type, context, first_seen,"
            " last_seen) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (scope, norm_name)"
            " DO UPDATE SET mentions = e.mentions + 1,"
            " last_seen = greatest(e.last_seen, excluded.last_seen),"
            " first_seen = least(e.first_seen, excluded.first_seen),"
            " type = CASE WHEN e.type IN ('name', 'thing') THEN excluded.type ELSE e.type END,"
            " context = CASE WHEN excluded.last_seen >= e.last_seen THEN excluded.context"
            " ELSE e.context END RETURNING id",
            (scope, name, norm_name, type_, context, at, at),
        ).fetchone()
        return int(row[0])

    def insert_fact(self, row: dict[str, Any]) -> int:
        out = self.db.execute(
            "INSERT INTO facts (item_id, scope, subject, predicate, object, norm_subject,"
            " norm_predicate, norm_object, source, session_id, message_id, at, last_accessed,"
            " created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " RETURNING id",
            (row.get("item_id"), row["scope"], row["subject"], row["predicate"], row["object"],
             row["norm_subject"], row["norm_predicate"], row["norm_object"],
             row.get("source", "stated"), row.get("session_id"), row.get("message_id"), row["at"],
             row["at"], time.time()),
        ).fetchone()
        return int(out[0])

    def insert_relation(self, scope: str, source: str, relation: str, target: str,
                        session_id: int | None, message_id: int | None, at: float) -> int:
        out = self.db.execute(
            "INSERT INTO relations (scope, source_entity, relation, target_entity, session_id,"
            " message_id, at) VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
            (scope, source, relation, target, session_id, message_id, at),
        ).fetchone()
        return int(out[0])

    def session_facts(self, session_id: int) -> list[StoredFact]:
        rows = self.db.execute(
            f"SELECT {_FACT_COLS} FROM facts WHERE session_id = %s ORDER BY at, id", (session_id,)
        )
        return [_fact(r) for r in rows]

    def session_relations(self, session_id: int) -> list[tuple[str, str, str]]:
        rows = self.db.execute(
            "SELECT source_entity, relation, target_entity FROM relations WHERE session_id = %s"
            " ORDER BY id", (session_id,),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def scope_entities(self, scope: str) -> list[StoredEntity]:
        rows = self.db.execute(
            "SELECT id, scope, name, type, context, mentions, first_seen, last_seen FROM entities"
            " WHERE scope = %s ORDER BY mentions DESC, name", (scope,),
        )
        return [StoredEntity(r[0], r[1], r[2], r[3], r[4], r[5], _dt(r[6]), _dt(r[7])) for r in rows]

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
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE scope = %s AND ext_id = %s",
            (scope, ext_id),
        ).fetchone()
        return _message(row) if row else None

    def get_message(self, message_id: int) -> Any:
        row = self.db.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE id = %s", (message_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"message {message_id} does not exist")
        return _message(row)

    def session_messages(self, session_id: int) -> list[Any]:
        rows = self.db.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE session_id = %s ORDER BY seq",
            (session_id,),
        )
        return [_message(r) for r in rows]

    def recent_messages(self, scope: str, limit: int) -> list[Any]:
        rows = self.db.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE scope = %s"
            " ORDER BY at DESC, id DESC LIMIT %s",
            (scope, limit),
        ).fetchall()
        return [_message(r) for r in reversed(rows)]

    # -- items --------------------------------------------------------------------------
    def insert_items(self, rows: Sequence[dict[str, Any]]) -> list[int]:
        """Insert items (dicts of column values); returns their ids in order."""
        if not rows:
            return []
        now = time.time()
        values = []
        for r in rows:
            ttl = r.get("ttl_seconds")
            values.append((
                r["kind"], r["text"], r.get("keys", ""), r["at"], r.get("scope"),
                r.get("agent"), r.get("project"), r.get("session_id"), r.get("message_id"),
                r.get("seq"), r.get("role"), json.dumps(list(r.get("keywords", ()))),
                json.dumps(list(r.get("entities", ()))), r.get("source", "observed"),
                r.get("durability", "long"), r.get("lane", "episodic"), r.get("trust", 1.0),
                r.get("privacy", "private"), ttl, r["at"] + ttl if ttl else None,
                json.dumps(list(r.get("parents", ()))), json.dumps(list(r.get("children", ()))),
                r.get("status", "active"), r.get("dedupe_hash"),
                json.dumps(r.get("extra", {})), now, now,
            ))
        return self._insert_returning(
            "INSERT INTO items (kind, text, keys, at, scope, agent, project, session_id,"
            " message_id, seq, role, keywords, entities, source, durability, lane, trust,"
            " privacy, ttl_seconds, expires_at, parents, children, status, dedupe_hash, extra,"
            " created_at, updated_at) VALUES (" + ", ".join(["%s"] * 27) + ") RETURNING id",
            values,
        )

    def _insert_returning(self, sql: str, values: list[tuple[Any, ...]]) -> list[int]:
        if self.db.tracer is not None:
            self.db.tracer("sql", sql, None)
        with translate("query failed"):
            cur = self.db.conn.cursor()
            cur.executemany(sql, values, returning=True)
            ids = []
            while True:
                ids.append(int(cur.fetchone()[0]))
                if not cur.nextset():
                    break
        return ids

    def item_by_dedupe_hash(self, digest: str) -> int | None:
        row = self.db.execute("SELECT id FROM items WHERE dedupe_hash = %s", (digest,)).fetchone()
        return row[0] if row else None

    def get_item(self, item_id: int) -> Any:
        row = self.db.execute(
            f"SELECT {_ITEM_COLS} FROM items WHERE id = %s", (item_id,)
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
            for r in self.db.execute(f"SELECT {_ITEM_COLS} FROM items WHERE id = ANY(%s)", (ids,))
        }
        return {i: found[i] for i in ids if i in found}

    def delete_item(self, item_id: int) -> None:
        """Delete an item with its lexical and vector rows, in one transaction."""
        with self.atomic():
            cur = self.db.execute("DELETE FROM items WHERE id = %s", (item_id,))
            if cur.rowcount == 0:
                raise NotFoundError(f"item {item_id} does not exist")

    def session_items(self, session_id: int, kind: str | None = None) -> list[Any]:
        sql = f"SELECT {_ITEM_COLS} FROM items WHERE session_id = %s"
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

    # -- vectors ------------------------------------------------------------------------
    def put_vectors(self, model: str, pairs: Sequence[tuple[int, np.ndarray]]) -> None:
        """Store item vectors (call inside the item's transaction).

        The first vectors of a ``(model, dim)`` create its HNSW index.
        """
        if not pairs:
            return
        rows = [(i, model, len(v), Vector(v)) for i, v in pairs]
        for dim in {r[2] for r in rows}:
            self._ensure_hnsw(model, dim)
        self.db.executemany(
            "INSERT INTO vectors (item_id, model, dim, vec) VALUES (%s, %s, %s, %b)"
            " ON CONFLICT (item_id) DO UPDATE SET model = excluded.model, dim = excluded.dim,"
            " vec = excluded.vec",
            rows,
        )

    def _ensure_hnsw(self, model: str, dim: int) -> bool:
        key = (model, dim)
        if key in self._hnsw:
            return True
        if search.ensure_hnsw(self.db, model, dim):
            if not self.db.in_transaction:
                with self._hnsw_lock:
                    self._hnsw.add(key)
            return True
        return False

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

    def vector_count(self, model: str | None = None) -> int:
        if model is None:
            return self.db.execute("SELECT count(*) FROM vectors").fetchone()[0]
        return self.db.execute(
            "SELECT count(*) FROM vectors WHERE model = %s", (model,)
        ).fetchone()[0]

    def items_missing_vectors(self, model: str, limit: int) -> list[tuple[int, str]]:
        rows = self.db.execute(
            "SELECT i.id, i.text FROM items i LEFT JOIN vectors v ON v.item_id = i.id"
            " AND v.model = %s WHERE v.item_id IS NULL AND i.status = 'active'"
            " ORDER BY i.id LIMIT %s",
            (model, limit),
        )
        return [(r[0], r[1]) for r in rows]

    def items_after(self, after_id: int, limit: int) -> list[tuple[int, str]]:
        """``(id, text)`` of active items with id > after_id, in id order."""
        rows = self.db.execute(
            "SELECT id, text FROM items WHERE id > %s AND status = 'active' ORDER BY id LIMIT %s",
            (after_id, limit),
        )
        return [(r[0], r[1]) for r in rows]

    def vector_search(
        self, model: str, query: np.ndarray, f: Filters, limit: int
    ) -> list[tuple[int, float]]:
        """Cosine search: ``(item_id, cosine)``, best first, honouring filters exactly."""
        if limit <= 0 or len(query) == 0:
            return []
        where, params = self._where(f)
        return search.vector_search(
            self.db, model, query, where, params, limit,
            scoped=f.scope is not None or f.session_id is not None,
            indexed=self._has_hnsw(model, len(query)), small=f.session_id is not None,
        )

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

    # -- whole-memory export and restore (memlane copy) ---------------------------------
    def _iter_rows(self, table: str, cols: Sequence[str], batch: int) -> Iterator[dict[str, Any]]:
        last = 0
        while True:
            rows = self.db.execute(
                f"SELECT {', '.join(cols)} FROM {table} WHERE id > %s ORDER BY id LIMIT %s",
                (last, batch),
            ).fetchall()
            for r in rows:
                yield {c: json.loads(v) if c in _JSON_COLS else v for c, v in zip(cols, r, strict=True)}
            if len(rows) < batch:
                return
            last = rows[-1][0]

    def iter_sessions(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every session as a dict of every column (JSON decoded, times as floats), by id."""
        return self._iter_rows("sessions", _ALL_SESSION, batch)

    def iter_messages(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every message as a dict of every column, by id."""
        return self._iter_rows("messages", _ALL_MESSAGE, batch)

    def iter_items(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every item as a dict of every column (``keys``, ``expires_at``... too), by id."""
        return self._iter_rows("items", _ALL_ITEM, batch)

    def iter_vectors(self, batch: int = 1000) -> Iterator[tuple[int, str, np.ndarray]]:
        """Every stored vector as ``(item_id, model, vector)``, by item id."""
        last = 0
        while True:
            rows = self.db.execute(
                "SELECT item_id, model, vec::real[] FROM vectors WHERE item_id > %s"
                " ORDER BY item_id LIMIT %s",
                (last, batch),
            ).fetchall()
            for r in rows:
                yield int(r[0]), r[1], _vec(r[2])
            if len(rows) < batch:
                return
            last = rows[-1][0]

    def iter_cache(self, batch: int = 1000) -> Iterator[tuple[str, bytes, np.ndarray]]:
        """Every embedding-cache entry as ``(model, hash, vector)``."""
        last: tuple[str, bytes] = ("", b"")
        while True:
            rows = self.db.execute(
                "SELECT model, hash, vec FROM embed_cache WHERE (model, hash) > (%s, %s)"
                " ORDER BY model, hash LIMIT %s",
                (*last, batch),
            ).fetchall()
            for m, h, v in rows:
                yield m, bytes(h), np.frombuffer(bytes(v), dtype=np.float32)
            if len(rows) < batch:
                return
            last = (rows[-1][0], bytes(rows[-1][1]))

    def _restore(self, table: str, cols: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
        if not rows:
            return
        values = [
            tuple(json.dumps(r[c]) if c in _JSON_COLS else r[c] for c in cols) for r in rows
        ]
        self.db.executemany(
            f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join(['%s'] * len(cols))})",
            values,
        )
        # rows came with their ids: move the identity past them for later inserts
        self.db.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
        )

    def iter_entities(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every entity as a dict of every column, by id."""
        return self._iter_rows("entities", _ALL_ENTITY, batch)

    def iter_facts(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every fact as a dict of every column (supersession links too), by id."""
        return self._iter_rows("facts", _ALL_FACT, batch)

    def iter_relations(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every relation as a dict of every column, by id."""
        return self._iter_rows("relations", _ALL_RELATION, batch)

    def restore_entities(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert entities exactly as ``iter_entities`` yields them (same ids)."""
        self._restore("entities", _ALL_ENTITY, rows)

    def restore_facts(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert facts exactly as ``iter_facts`` yields them (same ids and supersession).

        ``superseded_by`` may point at a later fact, so it is set once all ``rows`` exist:
        pass every fact in one call.
        """
        if not rows:
            return
        self._restore("facts", _ALL_FACT, [{**r, "superseded_by": None} for r in rows])
        links = [(r["superseded_by"], r["id"]) for r in rows if r["superseded_by"] is not None]
        if links:
            self.db.executemany("UPDATE facts SET superseded_by = %s WHERE id = %s", links)

    def restore_relations(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert relations exactly as ``iter_relations`` yields them (same ids)."""
        self._restore("relations", _ALL_RELATION, rows)

    def restore_sessions(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert sessions exactly as ``iter_sessions`` yields them (same ids and state)."""
        self._restore("sessions", _ALL_SESSION, rows)

    def restore_messages(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert messages exactly as ``iter_messages`` yields them (same ids)."""
        self._restore("messages", _ALL_MESSAGE, rows)

    def restore_items(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert items exactly as ``iter_items`` yields them (same ids, every column)."""
        self._restore("items", _ALL_ITEM, rows)

    @classmethod
    def peek_migrations(cls, location: str) -> dict[str, list[str]]:
        """Migrations of the database at ``location`` without opening it as a store.

        ``{"applied", "pending", "edited", "unknown"}`` name lists; nothing is changed.
        """
        return peek_migrations(location)
