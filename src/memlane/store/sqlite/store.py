"""The SQLite implementation of memlane's store contract.

Every public method is backend-neutral in its signature; SQL stays in this package.
Times cross this boundary as UTC epoch seconds (floats).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from memlane.errors import NotFoundError
from memlane.retrieve.text import split_words
from memlane.store.filters import Filters
from memlane.store.sqlite.db import Database, Tracer
from memlane.store.vector_index import VectorIndex
from memlane.types import Item, Message, Session, StoredEntity, StoredFact

__all__ = ["SqliteStore"]

_ITEM_COLS = (
    "id, kind, text, at, scope, agent, project, session_id, message_id, seq, role, keywords, "
    "entities, source, durability, lane, trust, privacy, ttl_seconds, parents, children, status, "
    "dedupe_hash, extra, pinned"
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
        dedupe_hash=r[22], extra=json.loads(r[23]), pinned=bool(r[24]),
    )


def fts_query(terms: Sequence[str]) -> str | None:
    """An FTS5 MATCH expression OR-ing the terms, each as a quoted string.

    Quoting makes every term a literal (``AND``, ``NEAR``, ``*``, ``:``, parentheses lose
    their meaning) that FTS5 tokenizes exactly as it tokenized the documents; inner double
    quotes are doubled and NUL bytes dropped. ``None`` when nothing is searchable.
    """
    quoted = []
    for term in terms:
        term = term.replace("\x00", "")
        if term.strip():
            quoted.append('"' + term.replace('"', '""') + '"')
    return " OR ".join(quoted) if quoted else None


LEXICAL_POSTINGS = 20_000
"""Most documents a lexical query ranks (see ``SqliteStore.lexical_search``)."""


class SqliteStore:
    """Sessions, messages, items, their lexical and vector indexes, in one SQLite file."""

    backend = "sqlite"

    def __init__(self, path: str | Path, *, tracer: Tracer | None = None) -> None:
        self.db = Database(path, tracer=tracer)
        self.url = self.db.path
        self._indexes: dict[str, VectorIndex] = {}
        self._index_lock = threading.Lock()
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
        """``(id, ended_at, message_count)`` of the scope's open session, if any."""
        row = self.db.execute(
            "SELECT id, ended_at, message_count FROM sessions WHERE scope = ? AND status = 'open'",
            (scope,),
        ).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def _participants(self, session_id: int) -> list[str]:
        row = self.db.execute("SELECT participants FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return json.loads(row[0]) if row else []

    def create_session(self, scope: str, at: float, agent: str | None, project: str | None) -> int:
        cur = self.db.execute(
            "INSERT INTO sessions (scope, agent, project, status, started_at, ended_at, created_at)"
            " VALUES (?, ?, ?, 'open', ?, ?, ?)",
            (scope, agent, project, at, at, time.time()),
        )
        return int(cur.lastrowid)

    def close_session(self, session_id: int, reason: str) -> bool:
        cur = self.db.execute(
            "UPDATE sessions SET status = 'closed', closed_reason = ? WHERE id = ? AND status = 'open'",
            (reason, session_id),
        )
        return cur.rowcount == 1

    def idle_sessions(self, before: float) -> list[int]:
        """Open sessions whose last message is older than ``before``."""
        rows = self.db.execute(
            "SELECT id FROM sessions WHERE status = 'open' AND ended_at < ? ORDER BY id", (before,)
        )
        return [r[0] for r in rows]

    def get_session(self, session_id: int) -> Session:
        row = self.db.execute(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"session {session_id} does not exist")
        return _session(row)

    def get_sessions(self, ids: Iterable[int]) -> dict[int, Session]:
        ids = list(set(ids))
        out: dict[int, Session] = {}
        for chunk in _chunks(ids, 500):
            marks = ",".join("?" * len(chunk))
            for row in self.db.execute(
                f"SELECT {_SESSION_COLS} FROM sessions WHERE id IN ({marks})", chunk
            ):
                out[row[0]] = _session(row)
        return out

    def list_sessions(
        self, scope: str | None = None, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Session]:
        where, params = [], []
        if scope is not None:
            where.append("scope = ?")
            params.append(scope)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self.db.execute(
            f"SELECT {_SESSION_COLS} FROM sessions {clause} ORDER BY started_at DESC, id DESC"
            " LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [_session(r) for r in rows]

    def sessions_to_index(self, limit: int = 100) -> list[Session]:
        """Closed sessions whose turns are not indexed yet, oldest first."""
        rows = self.db.execute(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE indexed_at IS NULL AND status != 'open'"
            " ORDER BY id LIMIT ?",
            (limit,),
        )
        return [_session(r) for r in rows]

    def claim_for_index(self, session_id: int) -> bool:
        """Mark a session indexed unless someone already did; True if this caller won."""
        cur = self.db.execute(
            "UPDATE sessions SET indexed_at = ? WHERE id = ? AND indexed_at IS NULL",
            (time.time(), session_id),
        )
        return cur.rowcount == 1

    # -- the session-intelligence queue -------------------------------------------------
    def claim_for_summary(self, now: float, lease_seconds: float, max_attempts: int,
                          due_before: float | None = None) -> Session | None:
        """Lease the next closed (or failed, due for retry) session that needs intelligence.

        The lease is taken in one statement, so concurrent workers never get the same
        session; a worker that dies leaves the lease to expire and the session returns.
        Only sessions due at ``due_before`` (default ``now``) are taken, so a run that
        started then never retries, within itself, a session it has just failed.
        """
        with self.atomic():
            row = self.db.execute(
                "UPDATE sessions SET lease_until = ?, attempts = attempts + 1 WHERE id = ("
                " SELECT id FROM sessions WHERE summarized_at IS NULL"
                " AND status IN ('closed', 'failed') AND attempts < ? AND next_attempt_at <= ?"
                " AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_attempt_at, id LIMIT 1)"
                f" RETURNING {_SESSION_COLS}",
                (now + lease_seconds, max_attempts, now if due_before is None else due_before, now),
            ).fetchone()
        return _session(row) if row else None

    def finish_summary(self, session_id: int, *, version: int | None, model: str | None,
                       now: float, skipped: bool = False) -> None:
        """Mark intelligence done: ``summarized`` (or, when skipped as too small, left closed)."""
        self.db.execute(
            "UPDATE sessions SET status = CASE WHEN ? THEN 'closed' ELSE 'summarized' END,"
            " summary_version = ?, summary_model = ?, summarized_at = ?, lease_until = NULL,"
            " failed_reason = NULL WHERE id = ?",
            (skipped, version, model, now, session_id),
        )

    def fail_summary(self, session_id: int, reason: str, next_attempt_at: float) -> None:
        self.db.execute(
            "UPDATE sessions SET status = 'failed', failed_reason = ?, next_attempt_at = ?,"
            " lease_until = NULL WHERE id = ?",
            (reason[:2000], next_attempt_at, session_id),
        )

    def requeue_summaries(self, below_version: int) -> int:
        """Queue again every summarized session whose summary schema is older."""
        cur = self.db.execute(
            "UPDATE sessions SET summarized_at = NULL, attempts = 0, next_attempt_at = 0,"
            " status = 'closed' WHERE status = 'summarized' AND coalesce(summary_version, 0) < ?",
            (below_version,),
        )
        return cur.rowcount

    def summary_queue(self, now: float, max_attempts: int) -> dict[str, int]:
        """Counts of sessions waiting, leased, failed for good and done."""
        row = self.db.execute(
            "SELECT"
            " sum(summarized_at IS NULL AND status IN ('closed','failed') AND attempts < ?),"
            " sum(summarized_at IS NULL AND lease_until >= ?),"
            " sum(summarized_at IS NULL AND status = 'failed' AND attempts >= ?),"
            " sum(summarized_at IS NOT NULL) FROM sessions",
            (max_attempts, now, max_attempts),
        ).fetchone()
        return {"pending": row[0] or 0, "leased": row[1] or 0, "failed": row[2] or 0, "done": row[3] or 0}

    # -- entities, facts, relations -----------------------------------------------------
    def clear_intelligence(self, session_id: int) -> None:
        """Remove what session intelligence derived from a session (before it is redone).

        Facts this session had superseded become current again first.
        """
        self.db.execute(
            "UPDATE facts SET status = 'current', superseded_by = NULL WHERE superseded_by IN"
            " (SELECT id FROM facts WHERE session_id = ?)", (session_id,),
        )
        self.db.execute(
            "UPDATE items SET status = 'active' WHERE status = 'superseded' AND id IN (SELECT item_id"
            " FROM facts WHERE status = 'current')"
        )
        self.db.execute(
            "DELETE FROM fact_events WHERE fact_id IN (SELECT id FROM facts WHERE session_id = ?)",
            (session_id,),
        )
        self.db.execute("DELETE FROM facts WHERE session_id = ?", (session_id,))
        self.db.execute(
            "DELETE FROM items WHERE session_id = ? AND kind IN ('summary', 'fact', 'entity')",
            (session_id,),
        )
        self.db.execute("DELETE FROM relations WHERE session_id = ?", (session_id,))

    def upsert_entity(self, scope: str, name: str, norm_name: str, type_: str, context: str,
                      at: float) -> int:
        """Merge an entity by normalized name within its scope; returns its id."""
        row = self.db.execute(
            "INSERT INTO entities (scope, name, norm_name, type, context, first_seen, last_seen)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, norm_name) DO UPDATE SET"
            " mentions = mentions + 1, last_seen = max(last_seen, excluded.last_seen),"
            " first_seen = min(first_seen, excluded.first_seen),"
            " type = CASE WHEN type IN ('name', 'thing') THEN excluded.type ELSE type END,"
            " context = CASE WHEN excluded.last_seen >= last_seen THEN excluded.context ELSE context END"
            " RETURNING id",
            (scope, name, norm_name, type_, context, at, at),
        ).fetchone()
        return int(row[0])

    def insert_fact(self, row: dict[str, Any]) -> int:
        cur = self.db.execute(
            "INSERT INTO facts (item_id, scope, subject, predicate, object, norm_subject,"
            " norm_predicate, norm_object, source, session_id, message_id, at, last_accessed,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row.get("item_id"), row["scope"], row["subject"], row["predicate"], row["object"],
             row["norm_subject"], row["norm_predicate"], row["norm_object"],
             row.get("source", "stated"), row.get("session_id"), row.get("message_id"), row["at"],
             row["at"], time.time()),
        )
        return int(cur.lastrowid)

    def insert_relation(self, scope: str, source: str, relation: str, target: str,
                        session_id: int | None, message_id: int | None, at: float) -> int:
        cur = self.db.execute(
            "INSERT INTO relations (scope, source_entity, relation, target_entity, session_id,"
            " message_id, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (scope, source, relation, target, session_id, message_id, at),
        )
        return int(cur.lastrowid)

    def session_facts(self, session_id: int) -> list[StoredFact]:
        rows = self.db.execute(
            f"SELECT {_FACT_COLS} FROM facts WHERE session_id = ? ORDER BY at, id", (session_id,)
        )
        return [_fact(r) for r in rows]

    def current_facts(self, scope: str, norm_subject: str, norm_predicate: str) -> list[tuple[StoredFact, str]]:
        """Current facts with this subject and predicate, with their normalized object."""
        rows = self.db.execute(
            f"SELECT {_FACT_COLS}, norm_object FROM facts WHERE scope = ? AND norm_subject = ?"
            " AND norm_predicate = ? AND status = 'current' ORDER BY at, id",
            (scope, norm_subject, norm_predicate),
        )
        return [(_fact(r), r[14]) for r in rows]

    def reinforce_fact(self, fact_id: int, at: float) -> None:
        self.db.execute(
            "UPDATE facts SET reinforcements = reinforcements + 1,"
            " last_accessed = max(last_accessed, ?) WHERE id = ?", (at, fact_id),
        )

    def supersede_fact(self, old_id: int, new_id: int) -> None:
        """Mark a fact superseded by another (kept for audit, excluded from recall)."""
        self.db.execute(
            "UPDATE facts SET status = 'superseded', superseded_by = ? WHERE id = ?", (new_id, old_id)
        )
        self.db.execute(
            "UPDATE items SET status = 'superseded', updated_at = ? WHERE id ="
            " (SELECT item_id FROM facts WHERE id = ?)", (time.time(), old_id),
        )

    def log_fact_event(self, fact: StoredFact, kind: str, at: float, *,
                       other_id: int | None = None, session_id: int | None = None) -> None:
        self.db.execute(
            "INSERT INTO fact_events (fact_id, kind, scope, subject, predicate, object, other_id,"
            " session_id, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (fact.id, kind, fact.scope, fact.subject, fact.predicate, fact.object, other_id,
             session_id, at),
        )

    def get_fact(self, fact_id: int) -> StoredFact:
        row = self.db.execute(f"SELECT {_FACT_COLS} FROM facts WHERE id = ?", (fact_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"fact {fact_id} does not exist")
        return _fact(row)

    def list_facts(self, scope: str | None = None, norm_subject: str | None = None,
                   include_superseded: bool = False, limit: int = 1000) -> list[StoredFact]:
        where, params = [], []
        if scope is not None:
            where.append("scope = ?")
            params.append(scope)
        if norm_subject is not None:
            where.append("norm_subject = ?")
            params.append(norm_subject)
        if not include_superseded:
            where.append("status = 'current'")
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self.db.execute(
            f"SELECT {_FACT_COLS} FROM facts {clause} ORDER BY scope, subject, predicate, at, id LIMIT ?",
            (*params, limit),
        )
        return [_fact(r) for r in rows]

    def fact_history(self, scope: str | None, norm_subject: str, norm_predicate: str) -> list[StoredFact]:
        """Every value a subject's predicate has had, oldest first, current or not."""
        sql = (f"SELECT {_FACT_COLS} FROM facts WHERE norm_subject = ? AND norm_predicate = ?")
        params: list[Any] = [norm_subject, norm_predicate]
        if scope is not None:
            sql += " AND scope = ?"
            params.append(scope)
        return [_fact(r) for r in self.db.execute(sql + " ORDER BY at, id", params)]

    def fact_events(self, fact_ids: Sequence[int]) -> list[dict[str, Any]]:
        out = []
        for chunk in _chunks(list(fact_ids), 500):
            marks = ",".join("?" * len(chunk))
            for r in self.db.execute(
                "SELECT fact_id, kind, other_id, session_id, at FROM fact_events"
                f" WHERE fact_id IN ({marks}) ORDER BY at, id", chunk,
            ):
                out.append({"fact_id": r[0], "kind": r[1], "other_id": r[2], "session_id": r[3],
                            "at": _dt(r[4])})
        return out

    def facts_for_items(self, item_ids: Sequence[int]) -> dict[int, StoredFact]:
        out: dict[int, StoredFact] = {}
        for chunk in _chunks(list(item_ids), 500):
            marks = ",".join("?" * len(chunk))
            for r in self.db.execute(f"SELECT {_FACT_COLS} FROM facts WHERE item_id IN ({marks})", chunk):
                out[r[1]] = _fact(r)
        return out

    def touch_facts(self, fact_ids: Sequence[int], at: float) -> None:
        self.db.executemany(
            "UPDATE facts SET last_accessed = max(last_accessed, ?) WHERE id = ?",
            [(at, i) for i in fact_ids],
        )

    def delete_fact(self, fact_id: int) -> None:
        """Hard delete: the fact, its item and that item's lexical and vector rows."""
        fact = self.get_fact(fact_id)
        self.db.execute("UPDATE facts SET superseded_by = NULL WHERE superseded_by = ?", (fact_id,))
        self.db.execute("DELETE FROM facts WHERE id = ?", (fact_id,))
        if fact.item_id is not None:
            self.db.execute("DELETE FROM items WHERE id = ?", (fact.item_id,))
        self.db.execute("DELETE FROM fact_events WHERE fact_id = ?", (fact_id,))

    # -- hygiene, compaction, graph, topics ---------------------------------------------
    def expire_items(self, now: float) -> int:
        """Delete items past their TTL, with their lexical and vector rows."""
        return self.db.execute(
            "DELETE FROM items WHERE expires_at IS NOT NULL AND expires_at <= ? AND pinned = 0", (now,)
        ).rowcount

    def lane_count(self, lane: str) -> int:
        return self.db.execute(
            "SELECT count(*) FROM items WHERE lane = ? AND status = 'active'", (lane,)
        ).fetchone()[0]

    def evict_lowest(self, lane: str, n: int) -> int:
        """Delete the ``n`` lowest-value unpinned items of a lane (least trusted, then oldest)."""
        if n <= 0:
            return 0
        return self.db.execute(
            "DELETE FROM items WHERE id IN (SELECT id FROM items WHERE lane = ? AND pinned = 0"
            " AND status = 'active' ORDER BY trust, at, id LIMIT ?)", (lane, n),
        ).rowcount

    def items_of_kind(self, kind: str, scope: str | None = None, status: str = "active") -> list[Item]:
        sql = f"SELECT {_ITEM_COLS} FROM items WHERE kind = ? AND status = ?"
        params: list[Any] = [kind, status]
        if scope is not None:
            sql += " AND scope = ?"
            params.append(scope)
        return [_item(r) for r in self.db.execute(sql + " ORDER BY at, id", params)]

    def link_items(self, parent_id: int, child_ids: Sequence[int], *, supersede: bool) -> None:
        """Record ``parent`` → ``children`` links; optionally mark the children superseded."""
        now = time.time()
        parent = self.get_item(parent_id)
        children = list(dict.fromkeys([*parent.children, *child_ids]))
        self.db.execute("UPDATE items SET children = ?, updated_at = ? WHERE id = ?",
                        (json.dumps(children), now, parent_id))
        for cid in child_ids:
            child = self.get_item(cid)
            parents = list(dict.fromkeys([*child.parents, parent_id]))
            self.db.execute(
                "UPDATE items SET parents = ?, updated_at = ?,"
                " status = CASE WHEN ? THEN 'superseded' ELSE status END WHERE id = ?",
                (json.dumps(parents), now, supersede, cid),
            )

    def items_with_keyword(self, keyword: str, scope: str | None = None) -> list[Item]:
        sql = (f"SELECT {_ITEM_COLS} FROM items WHERE status = 'active' AND EXISTS"
               " (SELECT 1 FROM json_each(items.keywords) WHERE value = ?)")
        params: list[Any] = [keyword]
        if scope is not None:
            sql += " AND scope = ?"
            params.append(scope)
        return [_item(r) for r in self.db.execute(sql + " ORDER BY at, id", params)]

    def items_with_entity(self, name: str, scope: str | None = None, limit: int = 50) -> list[Item]:
        sql = (f"SELECT {_ITEM_COLS} FROM items WHERE status = 'active' AND EXISTS"
               " (SELECT 1 FROM json_each(items.entities) WHERE value = ?)")
        params: list[Any] = [name]
        if scope is not None:
            sql += " AND scope = ?"
            params.append(scope)
        return [_item(r) for r in self.db.execute(sql + " ORDER BY at DESC, id LIMIT ?", (*params, limit))]

    def find_entities(self, norm_name: str, scope: str | None = None) -> list[StoredEntity]:
        sql = ("SELECT id, scope, name, type, context, mentions, first_seen, last_seen FROM entities"
               " WHERE norm_name = ?")
        params: list[Any] = [norm_name]
        if scope is not None:
            sql += " AND scope = ?"
            params.append(scope)
        return [StoredEntity(r[0], r[1], r[2], r[3], r[4], r[5], _dt(r[6]), _dt(r[7]))
                for r in self.db.execute(sql + " ORDER BY scope", params)]

    def relations_of(self, norm_name: str, scope: str | None = None) -> list[tuple[str, str, str, str]]:
        """``(scope, from, relation, to)`` touching an entity, either direction."""
        sql = ("SELECT scope, source_entity, relation, target_entity FROM relations"
               " WHERE (source_entity = ? OR target_entity = ?)")
        params: list[Any] = [norm_name, norm_name]
        if scope is not None:
            sql += " AND scope = ?"
            params.append(scope)
        rows = self.db.execute(sql + " GROUP BY scope, source_entity, relation, target_entity", params)
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def entity_names(self, scope: str) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT norm_name FROM entities WHERE scope = ?", (scope,))]

    def save_pack(self, row: dict[str, Any]) -> int:
        cur = self.db.execute(
            "INSERT INTO packs (query, scope, budget, used, counter, text, entries, config, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row["query"], row.get("scope"), row["budget"], row["used"], row["counter"], row["text"],
             json.dumps(row["entries"]), json.dumps(row.get("config", {})), time.time()),
        )
        return int(cur.lastrowid)

    def get_pack(self, pack_id: int) -> dict[str, Any]:
        r = self.db.execute(
            "SELECT id, query, scope, budget, used, counter, text, entries, config, created_at"
            " FROM packs WHERE id = ?", (pack_id,),
        ).fetchone()
        if r is None:
            raise NotFoundError(f"pack {pack_id} does not exist")
        return {"id": r[0], "query": r[1], "scope": r[2], "budget": r[3], "used": r[4],
                "counter": r[5], "text": r[6], "entries": json.loads(r[7]),
                "config": json.loads(r[8]), "created_at": _dt(r[9])}

    def set_pinned(self, item_id: int, pinned: bool) -> None:
        if self.db.execute("UPDATE items SET pinned = ? WHERE id = ?", (int(pinned), item_id)).rowcount == 0:
            raise NotFoundError(f"item {item_id} does not exist")

    def pinned_items(self, scope: str | None = None) -> list[Item]:
        sql = f"SELECT {_ITEM_COLS} FROM items WHERE pinned = 1 AND status = 'active'"
        params: list[Any] = []
        if scope is not None:
            sql += " AND (scope = ? OR scope IS NULL)"
            params.append(scope)
        return [_item(r) for r in self.db.execute(sql + " ORDER BY at, id", params)]

    def session_relations(self, session_id: int) -> list[tuple[str, str, str]]:
        rows = self.db.execute(
            "SELECT source_entity, relation, target_entity FROM relations WHERE session_id = ?"
            " ORDER BY id", (session_id,),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def scope_entities(self, scope: str) -> list[StoredEntity]:
        rows = self.db.execute(
            "SELECT id, scope, name, type, context, mentions, first_seen, last_seen FROM entities"
            " WHERE scope = ? ORDER BY mentions DESC, name", (scope,),
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
        cur = self.db.execute(
            "INSERT INTO messages (session_id, scope, seq, role, speaker, text, at, ext_id, agent,"
            " project, redactions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session_id, scope, seq, role, speaker, text, at, ext_id, agent, project, redactions),
        )
        who = speaker or role
        cached = self._seen.get(session_id)
        if cached is None:
            cached = self._seen[session_id] = set(self._participants(session_id))
            if len(self._seen) > 10_000:
                self._seen.clear()
        if who in cached:
            self.db.execute(
                "UPDATE sessions SET message_count = message_count + 1,"
                " started_at = min(started_at, ?), ended_at = max(ended_at, ?) WHERE id = ?",
                (at, at, session_id),
            )
        else:
            self.db.execute(
                "UPDATE sessions SET message_count = message_count + 1,"
                " started_at = min(started_at, ?), ended_at = max(ended_at, ?),"
                " participants = CASE WHEN EXISTS (SELECT 1 FROM json_each(participants)"
                " WHERE value = ?) THEN participants ELSE json_insert(participants, '$[#]', ?) END"
                " WHERE id = ?",
                (at, at, who, who, session_id),
            )
            cached.add(who)
        return int(cur.lastrowid)

    def message_by_ext_id(self, scope: str, ext_id: str) -> Message | None:
        row = self.db.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE scope = ? AND ext_id = ?", (scope, ext_id)
        ).fetchone()
        return _message(row) if row else None

    def get_message(self, message_id: int) -> Message:
        row = self.db.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE id = ?", (message_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"message {message_id} does not exist")
        return _message(row)

    def session_messages(self, session_id: int) -> list[Message]:
        rows = self.db.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE session_id = ? ORDER BY seq", (session_id,)
        )
        return [_message(r) for r in rows]

    def recent_messages(self, scope: str, limit: int) -> list[Message]:
        rows = self.db.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE scope = ? ORDER BY at DESC, id DESC LIMIT ?",
            (scope, limit),
        )
        return [_message(r) for r in reversed(rows.fetchall())]

    # -- items --------------------------------------------------------------------------
    def insert_items(self, rows: Sequence[dict[str, Any]]) -> list[int]:
        """Insert items (dicts of column values); returns their ids in order."""
        now = time.time()
        ids = []
        for r in rows:
            ttl = r.get("ttl_seconds")
            cur = self.db.execute(
                "INSERT INTO items (kind, text, keys, at, scope, agent, project, session_id,"
                " message_id, seq, role, keywords, entities, source, durability, lane, trust,"
                " privacy, ttl_seconds, expires_at, parents, children, status, dedupe_hash, extra,"
                " created_at, updated_at, pinned)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    r["kind"], r["text"], r.get("keys", ""), r["at"], r.get("scope"),
                    r.get("agent"), r.get("project"), r.get("session_id"), r.get("message_id"),
                    r.get("seq"), r.get("role"), json.dumps(list(r.get("keywords", ()))),
                    json.dumps(list(r.get("entities", ()))), r.get("source", "observed"),
                    r.get("durability", "long"), r.get("lane", "episodic"), r.get("trust", 1.0),
                    r.get("privacy", "private"), ttl, r["at"] + ttl if ttl else None,
                    json.dumps(list(r.get("parents", ()))), json.dumps(list(r.get("children", ()))),
                    r.get("status", "active"), r.get("dedupe_hash"),
                    json.dumps(r.get("extra", {})), now, now, int(bool(r.get("pinned", False))),
                ),
            )
            ids.append(int(cur.lastrowid))
        return ids

    def item_by_dedupe_hash(self, digest: str) -> int | None:
        row = self.db.execute("SELECT id FROM items WHERE dedupe_hash = ?", (digest,)).fetchone()
        return row[0] if row else None

    def get_item(self, item_id: int) -> Item:
        row = self.db.execute(f"SELECT {_ITEM_COLS} FROM items WHERE id = ?", (item_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"item {item_id} does not exist")
        return _item(row)

    def get_items(self, ids: Iterable[int]) -> dict[int, Item]:
        ids = list(dict.fromkeys(ids))
        out: dict[int, Item] = {}
        for chunk in _chunks(ids, 500):
            marks = ",".join("?" * len(chunk))
            for row in self.db.execute(
                f"SELECT {_ITEM_COLS} FROM items WHERE id IN ({marks})", chunk
            ):
                out[row[0]] = _item(row)
        return out

    def delete_item(self, item_id: int) -> None:
        """Delete an item with its lexical and vector rows, in one transaction."""
        with self.atomic():
            cur = self.db.execute("DELETE FROM items WHERE id = ?", (item_id,))
            if cur.rowcount == 0:
                raise NotFoundError(f"item {item_id} does not exist")

    def session_items(self, session_id: int, kind: str | None = None) -> list[Item]:
        sql = f"SELECT {_ITEM_COLS} FROM items WHERE session_id = ?"
        params: list[Any] = [session_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        return [_item(r) for r in self.db.execute(sql + " ORDER BY seq, id", params)]

    # -- filters ------------------------------------------------------------------------
    @staticmethod
    def _where(f: Filters, alias: str = "i") -> tuple[str, list[Any]]:
        where = [f"{alias}.status = ?"]
        params: list[Any] = [f.status]
        for col, val in (("scope", f.scope), ("agent", f.agent), ("project", f.project),
                         ("session_id", f.session_id)):
            if val is not None:
                where.append(f"{alias}.{col} = ?")
                params.append(val)
        for col, vals in (("kind", f.kinds), ("lane", f.lanes), ("privacy", f.privacy)):
            if vals is not None:
                where.append(f"{alias}.{col} IN ({','.join('?' * len(vals))})")
                params.extend(vals)
        if f.since is not None:
            where.append(f"{alias}.at >= ?")
            params.append(f.since)
        if f.until is not None:
            where.append(f"{alias}.at <= ?")
            params.append(f.until)
        return " AND ".join(where), params

    def filter_ids(self, f: Filters) -> list[int]:
        where, params = self._where(f)
        return [r[0] for r in self.db.execute(f"SELECT i.id FROM items i WHERE {where}", params)]

    # -- lexical ------------------------------------------------------------------------
    def lexical_search(self, terms: Sequence[str], f: Filters, limit: int) -> list[tuple[int, float]]:
        """BM25 over item text and keys: ``(item_id, score)``, higher is better.

        A scoped search intersects with the scope inside FTS5 (the scope column has BM25
        weight 0), so only that scope's matches are ranked. Terms are taken rarest first
        until their postings reach ``LEXICAL_POSTINGS`` (the rarest is always kept):
        ranking every match of very common terms is what makes FTS5 slow at scale, and
        such terms carry little BM25 weight (measured on 100k items: every term p50 80 ms;
        with this cap 2-4 ms, p95 12-14 ms).
        """
        if limit <= 0:
            return []
        match = fts_query(self._prune_common(terms))
        if match is None:
            return []
        match = f"{{text keys}} : ({match})"
        if f.scope is not None and split_words(f.scope):
            match += ' AND scope : "' + f.scope.replace('"', '""').replace("\x00", "") + '"'
        where, params = self._where(f)
        rows = self.db.execute(
            "SELECT i.id, -bm25(items_fts, 1.0, 0.6, 0.0) AS s FROM items_fts"
            " JOIN items i ON i.id = items_fts.rowid"
            f" WHERE items_fts MATCH ? AND {where} ORDER BY s DESC LIMIT ?",
            (match, *params, limit),
        )
        return [(r[0], float(r[1])) for r in rows]

    def _prune_common(self, terms: Sequence[str]) -> list[str]:
        n = self.db.execute("SELECT max(id) FROM items").fetchone()[0] or 0
        if n <= LEXICAL_POSTINGS:
            return list(terms)
        dfs = []
        for t in terms:
            words = split_words(t.lower())
            if len(words) != 1:
                dfs.append((0, t))  # phrases are rare by nature
                continue
            # The vocabulary holds porter stems; a word whose stem differs is not found
            # and counts as rare, which costs time but never recall.
            df = self.db.execute(
                "SELECT coalesce(max(doc), 0) FROM items_fts_vocab WHERE term = ?", (words[0],)
            ).fetchone()[0]
            dfs.append((df, t))
        dfs.sort(key=lambda x: x[0])
        kept, total = [], 0
        for df, t in dfs:
            if kept and total + df > LEXICAL_POSTINGS:
                break
            kept.append(t)
            total += df
        return kept

    # -- vectors ------------------------------------------------------------------------
    def put_vectors(self, model: str, pairs: Sequence[tuple[int, np.ndarray]]) -> None:
        """Store item vectors (call inside the item's transaction)."""
        self.db.executemany(
            "INSERT INTO vectors (item_id, model, dim, vec) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (item_id) DO UPDATE SET model = excluded.model, dim = excluded.dim,"
            " vec = excluded.vec",
            [(i, model, len(v), np.asarray(v, dtype=np.float32).tobytes()) for i, v in pairs],
        )

    def vector_count(self, model: str | None = None) -> int:
        if model is None:
            return self.db.execute("SELECT count(*) FROM vectors").fetchone()[0]
        return self.db.execute("SELECT count(*) FROM vectors WHERE model = ?", (model,)).fetchone()[0]

    def items_missing_vectors(self, model: str, limit: int) -> list[tuple[int, str]]:
        rows = self.db.execute(
            "SELECT i.id, i.text FROM items i LEFT JOIN vectors v ON v.item_id = i.id"
            " AND v.model = ? WHERE v.item_id IS NULL AND i.status = 'active' ORDER BY i.id LIMIT ?",
            (model, limit),
        )
        return [(r[0], r[1]) for r in rows]

    def items_after(self, after_id: int, limit: int) -> list[tuple[int, str]]:
        """``(id, text)`` of active items with id > after_id, in id order."""
        rows = self.db.execute(
            "SELECT id, text FROM items WHERE id > ? AND status = 'active' ORDER BY id LIMIT ?",
            (after_id, limit),
        )
        return [(r[0], r[1]) for r in rows]

    def _sync_index(self, model: str, dim: int) -> VectorIndex:
        """Bring the model's in-memory index up to the database's change log."""
        with self._index_lock:
            index = self._indexes.get(model)
            row = self.db.execute("SELECT min(seq), max(seq) FROM vector_log").fetchone()
            lo, hi = row[0] or 0, row[1] or 0
            if index is None or index.dim != dim or (index.synced_seq and index.synced_seq < lo - 1):
                index = VectorIndex(dim)  # missing or too stale: rebuild from the table
                rows = self.db.execute(
                    "SELECT item_id, vec FROM vectors WHERE model = ? AND dim = ?", (model, dim)
                )
                index.apply((r[0], np.frombuffer(r[1], dtype=np.float32)) for r in rows)
                index.synced_seq = hi
                self._indexes[model] = index
            elif hi > index.synced_seq:
                rows = self.db.execute(
                    "SELECT l.item_id, v.vec, v.model FROM"
                    " (SELECT DISTINCT item_id FROM vector_log WHERE seq > ? AND seq <= ?) l"
                    " LEFT JOIN vectors v ON v.item_id = l.item_id",
                    (index.synced_seq, hi),
                )
                index.apply(
                    (r[0], np.frombuffer(r[1], dtype=np.float32) if r[1] is not None and r[2] == model else None)
                    for r in rows
                )
                index.synced_seq = hi
            return index

    def vector_search(
        self, model: str, query: np.ndarray, f: Filters, limit: int
    ) -> list[tuple[int, float]]:
        """Exact cosine search: ``(item_id, cosine)``, best first, honouring filters."""
        if limit <= 0:
            return []
        index = self._sync_index(model, len(query))
        if len(index) == 0:
            return []
        query = np.asarray(query, dtype=np.float32)
        if f.scope is not None or f.session_id is not None:
            return index.search(query, limit, allowed=self.filter_ids(f))
        # Unscoped: overfetch, filter in SQL, fall back to an exact filtered pass if short.
        got = index.search(query, limit * 4)
        keep = self._allowed(f, [i for i, _ in got])
        out = [(i, s) for i, s in got if i in keep][:limit]
        if len(out) < limit and len(got) == limit * 4:
            return index.search(query, limit, allowed=self.filter_ids(f))
        return out

    def _allowed(self, f: Filters, ids: Sequence[int]) -> set[int]:
        where, params = self._where(f)
        out: set[int] = set()
        for chunk in _chunks(list(ids), 500):
            marks = ",".join("?" * len(chunk))
            out.update(
                r[0] for r in self.db.execute(
                    f"SELECT i.id FROM items i WHERE i.id IN ({marks}) AND {where}", (*chunk, *params)
                )
            )
        return out

    def prune_vector_log(self, keep: int = 100_000) -> int:
        cur = self.db.execute(
            "DELETE FROM vector_log WHERE seq <= (SELECT max(seq) FROM vector_log) - ?", (keep,)
        )
        return cur.rowcount

    # -- embedding cache ----------------------------------------------------------------
    def cached_vectors(self, model: str, hashes: Sequence[bytes]) -> dict[bytes, np.ndarray]:
        out: dict[bytes, np.ndarray] = {}
        for chunk in _chunks(list(hashes), 500):
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

    # -- counters and stats -------------------------------------------------------------
    def bump(self, name: str, n: int = 1) -> None:
        self.db.execute(
            "INSERT INTO counters (name, value) VALUES (?, ?)"
            " ON CONFLICT (name) DO UPDATE SET value = value + excluded.value",
            (name, n),
        )

    def counters(self) -> dict[str, int]:
        return dict(self.db.execute("SELECT name, value FROM counters ORDER BY name").fetchall())

    def stats(self) -> dict[str, Any]:
        q = self.db.execute
        sessions = dict(q("SELECT status, count(*) FROM sessions GROUP BY status").fetchall())
        kinds = dict(q("SELECT kind, count(*) FROM items GROUP BY kind").fetchall())
        return {
            "backend": self.backend,
            "db": self.url,
            "messages": q("SELECT count(*) FROM messages").fetchone()[0],
            "scopes": q("SELECT count(DISTINCT scope) FROM sessions").fetchone()[0],
            "sessions": sessions,
            "sessions_unindexed": q(
                "SELECT count(*) FROM sessions WHERE indexed_at IS NULL AND status != 'open'"
            ).fetchone()[0],
            "items": kinds,
            "vectors": dict(q("SELECT model, count(*) FROM vectors GROUP BY model").fetchall()),
            "embed_cache": q("SELECT count(*) FROM embed_cache").fetchone()[0],
            "counters": self.counters(),
            "migrations": self.applied_migrations(),
        }


    # -- whole-memory export and restore (memlane copy) ---------------------------------
    _ALL_SESSION_COLS = (
        "id", "scope", "agent", "project", "status", "started_at", "ended_at", "message_count",
        "participants", "closed_reason", "failed_reason", "summary_version", "indexed_at",
        "created_at", "attempts", "next_attempt_at", "lease_until", "summarized_at",
        "summary_model",
    )
    _ALL_ENTITY_COLS = (
        "id", "scope", "name", "norm_name", "type", "context", "mentions", "first_seen",
        "last_seen",
    )
    _ALL_FACT_COLS = (
        "id", "item_id", "scope", "subject", "predicate", "object", "norm_subject",
        "norm_predicate", "norm_object", "source", "session_id", "message_id", "at",
        "reinforcements", "last_accessed", "superseded_by", "status", "created_at",
    )
    _ALL_RELATION_COLS = (
        "id", "scope", "source_entity", "relation", "target_entity", "session_id", "message_id",
        "at",
    )
    _ALL_MESSAGE_COLS = (
        "id", "session_id", "scope", "seq", "role", "speaker", "text", "at", "ext_id", "agent",
        "project", "redactions",
    )
    _ALL_ITEM_COLS = (
        "id", "kind", "text", "keys", "at", "scope", "agent", "project", "session_id",
        "message_id", "seq", "role", "keywords", "entities", "source", "durability", "lane",
        "trust", "privacy", "ttl_seconds", "expires_at", "parents", "children", "status",
        "dedupe_hash", "extra", "created_at", "updated_at",
    )
    _ALL_FACT_EVENT_COLS = (
        "id", "fact_id", "kind", "scope", "subject", "predicate", "object", "other_id",
        "session_id", "at",
    )
    _ALL_PACK_COLS = (
        "id", "query", "scope", "budget", "used", "counter", "text", "entries", "config",
        "created_at",
    )
    _JSON_COLS = frozenset({"participants", "keywords", "entities", "parents", "children", "extra",
                            "entries", "config"})

    def _iter_rows(self, table: str, cols: Sequence[str], batch: int) -> Iterator[dict[str, Any]]:
        last = 0
        while True:
            rows = self.db.execute(
                f"SELECT {', '.join(cols)} FROM {table} WHERE id > ? ORDER BY id LIMIT ?",
                (last, batch),
            ).fetchall()
            for r in rows:
                yield {c: json.loads(v) if c in self._JSON_COLS else v
                       for c, v in zip(cols, r, strict=True)}
            if len(rows) < batch:
                return
            last = rows[-1][0]

    def iter_sessions(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every session as a dict of every column (JSON decoded, times as floats), by id."""
        return self._iter_rows("sessions", self._ALL_SESSION_COLS, batch)

    def iter_messages(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every message as a dict of every column, by id."""
        return self._iter_rows("messages", self._ALL_MESSAGE_COLS, batch)

    def iter_items(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every item as a dict of every column (``keys``, ``expires_at``... too), by id."""
        return self._iter_rows("items", self._ALL_ITEM_COLS, batch)

    def iter_vectors(self, batch: int = 1000) -> Iterator[tuple[int, str, np.ndarray]]:
        """Every stored vector as ``(item_id, model, vector)``, by item id."""
        last = 0
        while True:
            rows = self.db.execute(
                "SELECT item_id, model, vec FROM vectors WHERE item_id > ? ORDER BY item_id LIMIT ?",
                (last, batch),
            ).fetchall()
            for r in rows:
                yield r[0], r[1], np.frombuffer(r[2], dtype=np.float32)
            if len(rows) < batch:
                return
            last = rows[-1][0]

    def iter_cache(self, batch: int = 1000) -> Iterator[tuple[str, bytes, np.ndarray]]:
        """Every embedding-cache entry as ``(model, hash, vector)``."""
        last: tuple[str, bytes] = ("", b"")
        while True:
            rows = self.db.execute(
                "SELECT model, hash, vec FROM embed_cache WHERE (model, hash) > (?, ?)"
                " ORDER BY model, hash LIMIT ?",
                (*last, batch),
            ).fetchall()
            for m, h, v in rows:
                yield m, bytes(h), np.frombuffer(v, dtype=np.float32)
            if len(rows) < batch:
                return
            last = (rows[-1][0], bytes(rows[-1][1]))

    def _restore(self, table: str, cols: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
        self.db.executemany(
            f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
            [tuple(json.dumps(r[c]) if c in self._JSON_COLS else r[c] for c in cols) for r in rows],
        )

    def restore_sessions(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert sessions exactly as ``iter_sessions`` yields them (same ids and state)."""
        self._restore("sessions", self._ALL_SESSION_COLS, rows)

    def iter_entities(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every entity as a dict of every column, by id."""
        return self._iter_rows("entities", self._ALL_ENTITY_COLS, batch)

    def iter_facts(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every fact as a dict of every column (supersession links too), by id."""
        return self._iter_rows("facts", self._ALL_FACT_COLS, batch)

    def iter_relations(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every relation as a dict of every column, by id."""
        return self._iter_rows("relations", self._ALL_RELATION_COLS, batch)

    def restore_entities(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert entities exactly as ``iter_entities`` yields them (same ids)."""
        self._restore("entities", self._ALL_ENTITY_COLS, rows)

    def restore_facts(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert facts exactly as ``iter_facts`` yields them (same ids and supersession).

        ``superseded_by`` may point at a later fact, so it is set once all ``rows`` exist:
        pass every fact in one call.
        """
        self._restore("facts", self._ALL_FACT_COLS, [{**r, "superseded_by": None} for r in rows])
        self.db.executemany(
            "UPDATE facts SET superseded_by = ? WHERE id = ?",
            [(r["superseded_by"], r["id"]) for r in rows if r["superseded_by"] is not None],
        )

    def restore_relations(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert relations exactly as ``iter_relations`` yields them (same ids)."""
        self._restore("relations", self._ALL_RELATION_COLS, rows)

    def restore_messages(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert messages exactly as ``iter_messages`` yields them (same ids)."""
        self._restore("messages", self._ALL_MESSAGE_COLS, rows)

    def restore_items(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert items exactly as ``iter_items`` yields them (same ids, every column).

        A row may carry ``pinned`` too (default: not pinned).
        """
        self._restore("items", self._ALL_ITEM_COLS, rows)
        self.restore_pinned([r["id"] for r in rows if r.get("pinned")])

    def iter_pinned(self) -> Iterator[int]:
        """Ids of every pinned item (any status), in id order (``iter_items`` leaves
        ``pinned`` out)."""
        yield from (r[0] for r in self.db.execute("SELECT id FROM items WHERE pinned = 1 ORDER BY id"))

    def restore_pinned(self, ids: Iterable[int]) -> None:
        """Pin these items (as ``iter_pinned`` lists them)."""
        self.db.executemany("UPDATE items SET pinned = 1 WHERE id = ?", [(i,) for i in ids])

    def iter_fact_events(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every fact event as a dict of every column, by id."""
        return self._iter_rows("fact_events", self._ALL_FACT_EVENT_COLS, batch)

    def restore_fact_events(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert fact events exactly as ``iter_fact_events`` yields them (same ids)."""
        self._restore("fact_events", self._ALL_FACT_EVENT_COLS, rows)

    def iter_packs(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every journaled pack as a dict of every column (entries and config decoded), by id."""
        return self._iter_rows("packs", self._ALL_PACK_COLS, batch)

    def restore_packs(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert journaled packs exactly as ``iter_packs`` yields them (same ids)."""
        self._restore("packs", self._ALL_PACK_COLS, rows)

    @classmethod
    def peek_migrations(cls, location: str | Path) -> dict[str, list[str]]:
        """Migrations of the database at ``location`` without opening it as a store.

        ``{"applied", "pending", "edited", "unknown"}`` name lists; nothing is created or
        changed (a missing file has every migration pending).
        """
        import sqlite3

        from memlane.store.sqlite.db import load_migrations, translate

        known = {m.name: m.sha256 for m in load_migrations()}
        applied: dict[str, str] = {}
        path = Path(location).expanduser()
        if str(location) != ":memory:" and path.is_file():
            with translate(f"reading {path}"):
                con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
                try:
                    if con.execute(
                        "SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'"
                    ).fetchone():
                        applied = dict(con.execute("SELECT name, sha256 FROM schema_migrations"))
                finally:
                    con.close()
        return {
            "applied": sorted(applied),
            "pending": [n for n in known if n not in applied],
            "edited": sorted(n for n, sha in applied.items() if n in known and known[n] != sha),
            "unknown": sorted(n for n in applied if n not in known),
        }

    # -- retrieval helpers --------------------------------------------------------------
    def item_vectors(self, model: str, ids: Iterable[int]) -> dict[int, np.ndarray]:
        """The stored vectors of the given items under ``model`` (items without one are absent)."""
        out: dict[int, np.ndarray] = {}
        for chunk in _chunks(list(dict.fromkeys(ids)), 500):
            marks = ",".join("?" * len(chunk))
            for item_id, vec in self.db.execute(
                f"SELECT item_id, vec FROM vectors WHERE model = ? AND item_id IN ({marks})",
                (model, *chunk),
            ):
                out[item_id] = np.frombuffer(vec, dtype=np.float32)
        return out


def _chunks(seq: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(seq), size):
        yield seq[i : i + size]
