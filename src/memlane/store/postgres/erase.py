"""PostgreSQL's part of erasure (``store.sql.erase``): documents are jsonb.

Deleted rows stay in the table's pages until VACUUM reclaims them, as for every delete;
no SQL reads them again (docs/erasure.md).
"""

from __future__ import annotations

from memlane.store.postgres.db import Database
from memlane.store.sql.erase import EraseMixin

__all__ = ["PostgresErase"]


class PostgresErase(EraseMixin):
    """The PostgreSQL hooks of ``EraseMixin``."""

    db: Database
    JSON = "%s::jsonb"

    def _log_last_pack(self, scope: str) -> None:
        self.db.execute(
            "INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)"
            " VALUES (%s, 'pack', coalesce((SELECT max(id) FROM packs WHERE scope = %s), 0),"
            " 'delete', 'memory.pack.deleted', (SELECT memlane_live_pack(p) FROM packs p"
            " WHERE scope = %s ORDER BY id DESC LIMIT 1), extract(epoch FROM clock_timestamp()))",
            (scope, scope, scope))
