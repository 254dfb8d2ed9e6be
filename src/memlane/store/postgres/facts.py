"""PostgreSQL store: what entities and facts need beyond the shared SQL (``store.sql.facts``).

SQLite has one writer at a time; PostgreSQL runs writers side by side. So that a scope's
facts and entities change as if serially, ``clear_intelligence`` (the first step of
writing a session's intelligence) and ``current_facts`` (the read that every fact change
starts from) take the scope's facts lock, an advisory lock held to commit: two workers
never both add a "current" value of a single-valued predicate, and two sessions merging
the same entities in different orders wait for each other instead of deadlocking.
"""

from __future__ import annotations

from collections.abc import Sequence

from memlane.store.postgres.db import LOCK_FACTS, Database
from memlane.store.sql.facts import _LATER_ACCESS, FactsMixin

__all__ = ["PostgresFacts"]


class PostgresFacts(FactsMixin):
    """``upsert_entity`` and the facts locks on PostgreSQL."""

    db: Database

    def _lock_session_facts(self, session_id: int) -> None:
        self.db.execute(
            "SELECT pg_advisory_xact_lock(%s, hashtext(scope)) FROM sessions WHERE id = %s",
            (LOCK_FACTS, session_id),
        )

    def _lock_scope_facts(self, scope: str) -> None:
        if self.db.in_transaction:
            self.db.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_FACTS, scope))

    def _lock_scopes_facts(self, scopes: Sequence[str]) -> None:
        if scopes and self.db.in_transaction:  # one statement, in the order given
            self.db.execute(
                "SELECT count(pg_advisory_xact_lock(%s, hashtext(s))) FROM"
                " (SELECT s FROM unnest(%s::text[]) WITH ORDINALITY AS u(s, n) ORDER BY n) q",
                (LOCK_FACTS, list(scopes)))

    def touch_facts(self, fact_ids: Sequence[int], at: float) -> None:
        """A search's touch (``confidence.touch_on_access``): the facts locks of their scopes
        first, in shared mode (searches do not wait for each other, a worker writing the
        scope's facts and the touch wait for each other), then their rows, in id order. The
        touch took the rows in the order its statement scanned them, with no lock first:
        with a worker holding one of them, waiting for another the touch held, a deadlock
        (session 26). One statement still: the lock is its filter's sub-select, which runs
        before the scan returns a row to update."""
        ids = sorted({int(i) for i in fact_ids})
        if not ids:
            return
        self.db.execute(
            f"UPDATE facts SET {_LATER_ACCESS} WHERE id = ANY(%s) AND (SELECT"
            " count(pg_advisory_xact_lock_shared(%s, hashtext(s))) FROM (SELECT DISTINCT"
            ' scope COLLATE "C" AS s FROM facts WHERE id = ANY(%s) ORDER BY 1) q) >= 0',
            (at, at, ids, LOCK_FACTS, ids))

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
