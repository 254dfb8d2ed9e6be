"""The read-only listings the inspector pages browse (scopes, packs, a fact key's
forgotten values): SQL both backends share."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memlane.store.rows import dt
from memlane.store.sql.base import SqlStore

__all__ = ["BrowseMixin"]


class BrowseMixin(SqlStore):
    """Listings for the inspector."""

    def list_scopes(self, limit: int = 500, patterns: Sequence[str] | None = None
                    ) -> list[dict[str, Any]]:
        """Scopes with their session count and last activity, most recent first; with
        ``patterns`` (a key's: ``*`` and ``?`` wildcards), only scopes one of them matches,
        chosen before the limit."""
        where, params = "", []
        if patterns is not None:
            conds = [self._scope_matches(p) for p in patterns] or [("1 = 0", "")]
            where = " WHERE " + " OR ".join(c for c, _ in conds)
            params = [v for c, v in conds if "%s" in c]
        rows = self._run(
            "SELECT scope, count(*), count(*) FILTER (WHERE status = 'open'), max(ended_at)"
            f" FROM sessions{where} GROUP BY scope ORDER BY max(ended_at) DESC, scope LIMIT %s",
            (*params, limit),
        )
        return [{"scope": r[0], "sessions": r[1], "open": r[2] or 0, "last_at": dt(r[3])}
                for r in rows]

    def stored_scopes(self) -> list[str]:
        """The distinct scopes of sessions, items and facts (``ingest.spellings`` looks for
        scopes written before session 22's spelling in them). Each table's scope index is
        walked from one scope to the next (a loose index scan: one seek a scope), where
        ``SELECT DISTINCT`` read every entry: 1.5-9.6 against 94-160 ms over a 1M-row
        table of 400 scopes on SQLite without ``ANALYZE`` statistics (three warm runs, one
        index on ``(scope, kind, at)``), paid at every process's first call."""
        found: set[str] = set()
        for table in ("sessions", "items", "facts"):
            rows = self._run(
                "WITH RECURSIVE s(scope) AS ("
                f" SELECT min(scope) FROM {table}"
                f" UNION ALL SELECT (SELECT min(scope) FROM {table} t WHERE t.scope > s.scope)"
                " FROM s WHERE s.scope IS NOT NULL)"
                " SELECT scope FROM s WHERE scope IS NOT NULL")
            found.update(r[0] for r in rows)
        return sorted(found)

    def list_packs(self, scope: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """Journaled packs, newest first (no text or entries: ``get_pack`` has them)."""
        sql = "SELECT id, query, scope, budget, used, config, created_at FROM packs"
        params: list[Any] = []
        if scope is not None:
            sql += " WHERE scope = %s"
            params.append(scope)
        rows = self._run(sql + " ORDER BY id DESC LIMIT %s", (*params, limit))
        return [{"id": r[0], "query": r[1], "scope": r[2], "budget": r[3], "used": r[4],
                 "shares": json.loads(r[5]).get("shares", {}), "created_at": dt(r[6])}
                for r in rows]

    def forgotten_fact_events(self, scope: str | None, norm_subject: str,
                              predicate: str) -> list[dict[str, Any]]:
        """The events of a fact key's forgotten values (kept without their value)."""
        sql = ("SELECT fact_id, kind, scope, session_id, other_id, at, message_id FROM fact_events"
               " WHERE subject = %s AND predicate = %s AND object = ''"
               # NOT EXISTS: one primary-key probe per event (NOT IN read every fact's id, and
               # indexing asks this of every fact it stores; session 26)
               " AND NOT EXISTS (SELECT 1 FROM facts WHERE facts.id = fact_events.fact_id)")
        params: list[Any] = [norm_subject, predicate]
        if scope is not None:
            sql += " AND scope = %s"
            params.append(scope)
        return [{"fact_id": r[0], "kind": r[1], "scope": r[2], "session_id": r[3],
                 "message_id": r[6], "other_id": r[4], "at": dt(r[5])}
                for r in self._run(sql + " ORDER BY at, id", params)]
