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

    TABLES = ("items", "messages", "sessions", "vectors", "facts", "fact_events", "entities",
              "relations", "packs", "changes", "embed_cache")
    """The tables an erase deletes from."""

    def vacuum(self) -> None:
        # a deleted row stays in its page until VACUUM; plain VACUUM marks the space free
        # without overwriting it, VACUUM FULL writes each table into a new file (an ACCESS
        # EXCLUSIVE lock while it runs). The server's WAL and backups are not touched.
        for table in self.TABLES:
            self.db.execute(f"VACUUM (FULL) {table}")

    def _lock_change_log(self) -> None:
        self.db.execute("LOCK TABLE change_sequencer IN EXCLUSIVE MODE")

    def _log_last_pack(self, scope: str) -> None:
        self.db.execute(
            "INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)"
            " VALUES (%s, 'pack', coalesce((SELECT max(id) FROM packs WHERE scope = %s), 0),"
            " 'delete', 'memory.pack.deleted', (SELECT memlane_live_pack(p) FROM packs p"
            " WHERE scope = %s ORDER BY id DESC LIMIT 1), extract(epoch FROM clock_timestamp()))",
            (scope, scope, scope))
