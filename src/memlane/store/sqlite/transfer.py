"""SQLite store: what ``memlane copy`` needs beyond the shared SQL
(``store.sql.transfer``): vectors read from their blobs, and reading migrations without
opening (or creating) the file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from memlane.store.sql.transfer import ID_TABLES, TransferMixin
from memlane.store.sqlite.db import Database

__all__ = ["SqliteTransfer"]


class SqliteTransfer(TransferMixin):
    """``iter_vectors`` and ``peek_migrations`` on SQLite."""

    db: Database

    def id_marks(self) -> dict[str, int]:
        """Per table, the larger of its largest id and its ``id_floor`` (migrations 0011-0012)."""
        return {t: int(self.db.execute(
            f"SELECT max(coalesce((SELECT max(id) FROM {t}), 0),"
            f" coalesce((SELECT value FROM id_floor WHERE name = '{t}'), 0))").fetchone()[0])
            for t in ID_TABLES}

    def restore_id_marks(self, marks: dict[str, int]) -> None:
        """Raise each table's ``id_floor`` to its mark: a copy's new rows never take the id
        of one erased in the source before the copy."""
        for table, mark in marks.items():
            if table not in ID_TABLES:
                raise ValueError(f"id marks: unknown table {table!r}")
            self.db.execute(
                "INSERT INTO id_floor (name, value) VALUES (?, ?)"
                " ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)",
                (table, int(mark)))

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

    @classmethod
    def peek_migrations(cls, location: str | Path) -> dict[str, list[str]]:
        """Migrations of the database at ``location`` without opening it as a store.

        ``{"applied", "pending", "edited", "unknown"}`` name lists; nothing is created or
        changed (a missing file has every migration pending).
        """
        import sqlite3

        from memlane.store.sqlite.db import (
            _PACKAGE,
            check_location,
            load_migrations,
            read_only_uri,
            translate,
        )

        known = {m.name: m.sha256 for m in load_migrations(_PACKAGE)}
        applied: dict[str, str] = {}
        path = Path(location).expanduser()
        if str(location) != ":memory:":  # what opening it says, not "every migration pending"
            check_location(str(location))
        if str(location) != ":memory:" and path.is_file():
            with translate(f"reading {path}"):
                con = sqlite3.connect(read_only_uri(path), uri=True)
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
