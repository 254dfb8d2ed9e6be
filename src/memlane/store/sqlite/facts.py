"""SQLite store: what entities and facts need beyond the shared SQL (``store.sql.facts``).

Only the entity upsert differs (SQLite's scalar ``min``/``max``); SQLite has one writer
at a time, so the facts locks are the shared no-ops.
"""

from __future__ import annotations

from memlane.store.sql.facts import FactsMixin

__all__ = ["SqliteFacts"]


class SqliteFacts(FactsMixin):
    """``upsert_entity`` on SQLite."""

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
