"""SQLite's part of erasure (``store.sql.erase``): really forgetting.

A deleted row's bytes stay in the file (a free page, a free block of its page) and an
FTS5 delete only adds a tombstone over the segment that still holds the terms. So the
erase runs with ``secure_delete`` (SQLite overwrites deleted content with zeros), merges
the full-text index into one segment (``optimize``: the segments holding the erased
terms are rewritten without them, and their pages freed, zeroed), and after the commit
checkpoints the WAL and truncates it (its frames still hold the pages as they were).
"""

from __future__ import annotations

from memlane.store.sql.erase import EraseMixin
from memlane.store.sqlite.db import Database

__all__ = ["SqliteErase"]


class SqliteErase(EraseMixin):
    """The SQLite hooks of ``EraseMixin``."""

    db: Database

    def _erase_prepare(self) -> None:
        self.db.execute("PRAGMA secure_delete = ON")

    def _erase_finish(self) -> None:
        self.db.execute("INSERT INTO items_fts (items_fts) VALUES ('optimize')")

    def _after_erase(self) -> None:
        # a reader holding an old snapshot keeps the WAL from being truncated; the next
        # checkpoint (SQLite's automatic one, or the next erase) finishes it
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def vacuum(self) -> None:
        # SQLite rebuilds a page when it balances its b-tree and leaves the old bytes of
        # the cells it moved in the page's free gap, where secure_delete never reaches:
        # VACUUM writes every page again from the rows alone (session 23)
        self.db.execute("VACUUM")
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def _log_last_pack(self, scope: str) -> None:
        self.db.execute(
            "INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)"
            " VALUES (?, 'pack', coalesce((SELECT max(id) FROM packs WHERE scope = ?), 0),"
            " 'delete', 'memory.pack.deleted',"
            " (SELECT doc FROM live_packs WHERE scope = ? ORDER BY id DESC LIMIT 1),"
            " (julianday('now') - 2440587.5) * 86400.0)",
            (scope, scope, scope))
