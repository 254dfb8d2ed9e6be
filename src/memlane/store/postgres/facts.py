"""Entities, facts (with supersession and their event history) and relations on PostgreSQL.

A mixin of ``PostgresStore`` (it needs only ``self.db``); the semantics are SQLite's
(``SqliteStore``), statement for statement. Text is ordered with ``COLLATE "C"`` so lists
come back in the same (byte) order as SQLite's, whatever the database's locale.

SQLite has one writer at a time; PostgreSQL runs writers side by side. So that a scope's
facts and entities change as if serially, ``clear_intelligence`` (the first step of
writing a session's intelligence) and ``current_facts`` (the read that every fact change
starts from) take the scope's facts lock, an advisory lock held to commit: two workers
never both add a "current" value of a single-valued predicate, and two sessions merging
the same entities in different orders wait for each other instead of deadlocking.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from memlane.errors import NotFoundError
from memlane.store.postgres.db import LOCK_FACTS, Database
from memlane.store.postgres.rows import ENTITY_COLS, FACT_COLS, dt, entity, fact
from memlane.types import StoredEntity, StoredFact

__all__ = ["FactsMixin"]


class FactsMixin:
    db: Database

    def clear_intelligence(self, session_id: int) -> None:
        """Remove what session intelligence derived from a session (before it is redone).

        Facts this session had superseded become current again first (and their items
        active); then the session's fact events, facts, derived items and relations go.
        """
        self.db.execute(
            "SELECT pg_advisory_xact_lock(%s, hashtext(scope)) FROM sessions WHERE id = %s",
            (LOCK_FACTS, session_id),
        )
        self.db.execute(
            "UPDATE facts SET status = 'current', superseded_by = NULL WHERE superseded_by IN"
            " (SELECT id FROM facts WHERE session_id = %s)", (session_id,),
        )
        self.db.execute(
            "UPDATE items SET status = 'active' WHERE status = 'superseded' AND id IN (SELECT"
            " item_id FROM facts WHERE status = 'current')"
        )
        self.db.execute(
            "DELETE FROM fact_events WHERE fact_id IN (SELECT id FROM facts WHERE session_id = %s)",
            (session_id,),
        )
        self.db.execute("DELETE FROM facts WHERE session_id = %s", (session_id,))
        self.db.execute(
            "DELETE FROM items WHERE session_id = %s AND kind IN ('summary', 'fact', 'entity', 'observation')",
            (session_id,),
        )
        self.db.execute("DELETE FROM relations WHERE session_id = %s", (session_id,))

    # -- entities and relations ---------------------------------------------------------
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

    def insert_relation(self, scope: str, source: str, relation: str, target: str,
                        session_id: int | None, message_id: int | None, at: float) -> int:
        out = self.db.execute(
            "INSERT INTO relations (scope, source_entity, relation, target_entity, session_id,"
            " message_id, at) VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
            (scope, source, relation, target, session_id, message_id, at),
        ).fetchone()
        return int(out[0])

    def session_relations(self, session_id: int) -> list[tuple[str, str, str]]:
        rows = self.db.execute(
            "SELECT source_entity, relation, target_entity FROM relations WHERE session_id = %s"
            " ORDER BY id", (session_id,),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def scope_entities(self, scope: str) -> list[StoredEntity]:
        rows = self.db.execute(
            f"SELECT {ENTITY_COLS} FROM entities WHERE scope = %s ORDER BY mentions DESC, name",
            (scope,),
        )
        return [entity(r) for r in rows]

    def find_entities(self, norm_name: str, scope: str | None = None) -> list[StoredEntity]:
        sql = f"SELECT {ENTITY_COLS} FROM entities WHERE norm_name = %s"
        params: list[Any] = [norm_name]
        if scope is not None:
            sql += " AND scope = %s"
            params.append(scope)
        return [entity(r) for r in self.db.execute(sql + ' ORDER BY scope COLLATE "C"', params)]

    def relations_of(self, norm_name: str, scope: str | None = None) -> list[tuple[str, str, str, str]]:
        """``(scope, from, relation, to)`` touching an entity, either direction, once each."""
        sql = ("SELECT DISTINCT scope COLLATE \"C\", source_entity COLLATE \"C\","
               " relation COLLATE \"C\", target_entity COLLATE \"C\" FROM relations"
               " WHERE (source_entity = %s OR target_entity = %s)")
        params: list[Any] = [norm_name, norm_name]
        if scope is not None:
            sql += " AND scope = %s"
            params.append(scope)
        rows = self.db.execute(sql + " ORDER BY 1, 2, 3, 4", params)
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def entity_names(self, scope: str) -> list[str]:
        rows = self.db.execute("SELECT norm_name FROM entities WHERE scope = %s ORDER BY id", (scope,))
        return [r[0] for r in rows]

    # -- facts --------------------------------------------------------------------------
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

    def session_facts(self, session_id: int) -> list[StoredFact]:
        rows = self.db.execute(
            f"SELECT {FACT_COLS} FROM facts WHERE session_id = %s ORDER BY at, id", (session_id,)
        )
        return [fact(r) for r in rows]

    def current_facts(self, scope: str, norm_subject: str, norm_predicate: str) -> list[tuple[StoredFact, str]]:
        """Current facts with this subject and predicate, with their normalized object.

        Inside a transaction, the scope's facts lock is taken first (see the module).
        """
        if self.db.in_transaction:
            self.db.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_FACTS, scope))
        rows = self.db.execute(
            f"SELECT {FACT_COLS}, norm_object FROM facts WHERE scope = %s AND norm_subject = %s"
            " AND norm_predicate = %s AND status = 'current' ORDER BY at, id",
            (scope, norm_subject, norm_predicate),
        )
        return [(fact(r), r[14]) for r in rows]

    def reinforce_fact(self, fact_id: int, at: float) -> None:
        self.db.execute(
            "UPDATE facts SET reinforcements = reinforcements + 1,"
            " last_accessed = greatest(last_accessed, %s) WHERE id = %s", (at, fact_id),
        )

    def supersede_fact(self, old_id: int, new_id: int) -> None:
        """Mark a fact superseded by another (kept for audit, excluded from recall)."""
        self.db.execute(
            "UPDATE facts SET status = 'superseded', superseded_by = %s WHERE id = %s",
            (new_id, old_id),
        )
        self.db.execute(
            "UPDATE items SET status = 'superseded', updated_at = %s WHERE id ="
            " (SELECT item_id FROM facts WHERE id = %s)", (time.time(), old_id),
        )

    def log_fact_event(self, fact: StoredFact, kind: str, at: float, *,
                       other_id: int | None = None, session_id: int | None = None) -> None:
        self.db.execute(
            "INSERT INTO fact_events (fact_id, kind, scope, subject, predicate, object, other_id,"
            " session_id, at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (fact.id, kind, fact.scope, fact.subject, fact.predicate, fact.object, other_id,
             session_id, at),
        )

    def get_fact(self, fact_id: int) -> StoredFact:
        row = self.db.execute(f"SELECT {FACT_COLS} FROM facts WHERE id = %s", (fact_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"fact {fact_id} does not exist")
        return fact(row)

    def list_facts(self, scope: str | None = None, norm_subject: str | None = None,
                   include_superseded: bool = False, limit: int = 1000) -> list[StoredFact]:
        where, params = [], []
        if scope is not None:
            where.append("scope = %s")
            params.append(scope)
        if norm_subject is not None:
            where.append("norm_subject = %s")
            params.append(norm_subject)
        if not include_superseded:
            where.append("status = 'current'")
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self.db.execute(
            f"SELECT {FACT_COLS} FROM facts {clause} ORDER BY scope COLLATE \"C\","
            " subject COLLATE \"C\", predicate COLLATE \"C\", at, id LIMIT %s",
            (*params, limit),
        )
        return [fact(r) for r in rows]

    def fact_history(self, scope: str | None, norm_subject: str, norm_predicate: str) -> list[StoredFact]:
        """Every value a subject's predicate has had, oldest first, current or not."""
        sql = f"SELECT {FACT_COLS} FROM facts WHERE norm_subject = %s AND norm_predicate = %s"
        params: list[Any] = [norm_subject, norm_predicate]
        if scope is not None:
            sql += " AND scope = %s"
            params.append(scope)
        return [fact(r) for r in self.db.execute(sql + " ORDER BY at, id", params)]

    def fact_events(self, fact_ids: Sequence[int]) -> list[dict[str, Any]]:
        """The events of these facts, oldest first: ``fact_id, kind, other_id, session_id, at``."""
        ids = list(dict.fromkeys(fact_ids))
        if not ids:
            return []
        rows = self.db.execute(
            "SELECT fact_id, kind, other_id, session_id, at FROM fact_events"
            " WHERE fact_id = ANY(%s::bigint[]) ORDER BY at, id", (ids,),
        )
        return [{"fact_id": r[0], "kind": r[1], "other_id": r[2], "session_id": r[3], "at": dt(r[4])}
                for r in rows]

    def facts_for_items(self, item_ids: Sequence[int]) -> dict[int, StoredFact]:
        """The fact behind each of these items, by item id (items without one are absent)."""
        ids = list(dict.fromkeys(item_ids))
        if not ids:
            return {}
        rows = self.db.execute(
            f"SELECT {FACT_COLS} FROM facts WHERE item_id = ANY(%s::bigint[]) ORDER BY id", (ids,)
        )
        return {r[1]: fact(r) for r in rows}

    def superseded_messages(self, message_ids: Sequence[int]) -> set[int]:
        """Messages whose stated facts have all been superseded since (at least one)."""
        ids = list(dict.fromkeys(message_ids))
        if not ids:
            return set()
        rows = self.db.execute(
            "SELECT message_id FROM facts WHERE message_id = ANY(%s::bigint[]) GROUP BY message_id"
            " HAVING sum(CASE WHEN status = 'current' THEN 1 ELSE 0 END) = 0", (ids,),
        )
        return {r[0] for r in rows}

    def touch_facts(self, fact_ids: Sequence[int], at: float) -> None:
        ids = list(dict.fromkeys(fact_ids))
        if not ids:
            return
        self.db.execute(
            "UPDATE facts SET last_accessed = greatest(last_accessed, %s)"
            " WHERE id = ANY(%s::bigint[])", (at, ids),
        )

    def delete_fact(self, fact_id: int) -> None:
        """Hard delete: the fact, its item and that item's lexical and vector rows."""
        old = self.get_fact(fact_id)
        self.db.execute("UPDATE facts SET superseded_by = NULL WHERE superseded_by = %s", (fact_id,))
        self.db.execute("DELETE FROM facts WHERE id = %s", (fact_id,))
        if old.item_id is not None:
            self.db.execute("DELETE FROM items WHERE id = %s", (old.item_id,))
        self.db.execute("DELETE FROM fact_events WHERE fact_id = %s", (fact_id,))
