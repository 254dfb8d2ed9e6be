"""SQLite store: entities, facts (with their events) and relations."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any


from memlane.errors import NotFoundError
from memlane.store.sqlite.rows import (
    _FACT_COLS,
    _chunks,
    _dt,
    _fact,
)
from memlane.types import StoredFact

__all__ = ["FactsMixin"]


class FactsMixin:
    """Mixed into SqliteStore; uses ``self.db`` and ``self.atomic()``."""

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
            "DELETE FROM items WHERE session_id = ? AND kind IN ('summary', 'fact', 'entity', 'observation')",
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

    def superseded_messages(self, message_ids: Sequence[int]) -> set[int]:
        """Messages whose stated facts have all been superseded since (at least one)."""
        out: set[int] = set()
        for chunk in _chunks(list(dict.fromkeys(message_ids)), 500):
            marks = ",".join("?" * len(chunk))
            out.update(r[0] for r in self.db.execute(
                f"SELECT message_id FROM facts WHERE message_id IN ({marks}) GROUP BY message_id"
                " HAVING sum(status = 'current') = 0", chunk,
            ))
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
