"""PostgreSQL store: what ``memlane copy`` needs beyond the shared SQL
(``store.sql.transfer``): vectors read from pgvector, each table's identity moved past the
restored ids, and reading migrations without opening a store."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from memlane.store.postgres.db import Database, peek_migrations, translate
from memlane.store.postgres.rows import vec
from memlane.store.sql.transfer import ID_TABLES, TransferMixin

__all__ = ["PostgresTransfer"]


class PostgresTransfer(TransferMixin):
    """``iter_vectors``, ``peek_migrations`` and the identity fix-up on PostgreSQL."""

    db: Database

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Every read inside sees the database as of one moment: one read-only REPEATABLE
        READ transaction (inside another transaction, that one's reads). ``memlane copy``
        reads its source in one: rows written meanwhile by others are not copied, and those
        copied agree with each other (session 26: a copy of a database being written to
        read messages of sessions it had not read, and the target refused them, "FOREIGN
        KEY constraint failed")."""
        if self.db.in_transaction:
            yield
            return
        with self.db.atomic(reads=True):
            with translate("snapshot"):
                self.db.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield

    def _after_restore(self, table: str) -> None:
        # rows came with their ids: move the identity past them for later inserts
        self.db.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
        )

    def id_marks(self) -> dict[str, int]:
        """Per table, the larger of its largest id and its identity's last value (a deleted
        newest row's id is still the sequence's)."""
        out = {}
        for t in ID_TABLES:
            seq = self.db.execute("SELECT pg_get_serial_sequence(%s, 'id')", (t,)).fetchone()[0]
            last, called = self.db.execute(f"SELECT last_value, is_called FROM {seq}").fetchone()
            top = self.db.execute(f"SELECT coalesce(max(id), 0) FROM {t}").fetchone()[0]
            out[t] = max(int(top), int(last) if called else 0)
        return out

    def restore_id_marks(self, marks: dict[str, int]) -> None:
        """Move each table's identity past its mark (never back below its largest id)."""
        for table, mark in marks.items():
            if table not in ID_TABLES:
                raise ValueError(f"id marks: unknown table {table!r}")
            if int(mark) > 0:
                self.db.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" greatest(%s, (SELECT coalesce(max(id), 0) FROM {table})))", (int(mark),))

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
                yield int(r[0]), r[1], vec(r[2])
            if len(rows) < batch:
                return
            last = rows[-1][0]

    @classmethod
    def peek_migrations(cls, location: str) -> dict[str, list[str]]:
        """Migrations of the database at ``location`` without opening it as a store.

        ``{"applied", "pending", "edited", "unknown"}`` name lists; nothing is changed.
        """
        return peek_migrations(location)
