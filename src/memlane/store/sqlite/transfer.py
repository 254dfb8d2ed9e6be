"""SQLite store: whole-memory export and restore, for ``memlane copy``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np


from memlane.store.sql.base import SqlStore
from memlane.store.sqlite.db import Database

__all__ = ["TransferMixin"]


class TransferMixin(SqlStore):
    """Whole-memory export and restore on SQLite."""

    db: Database

    # -- whole-memory export and restore (memlane copy) ---------------------------------
    _ALL_SESSION_COLS = (
        "id", "scope", "agent", "project", "status", "started_at", "ended_at", "message_count",
        "participants", "closed_reason", "failed_reason", "summary_version", "indexed_at",
        "created_at", "attempts", "next_attempt_at", "lease_until", "summarized_at",
        "summary_model",
    )
    _ALL_ENTITY_COLS = (
        "id", "scope", "name", "norm_name", "type", "context", "mentions", "first_seen",
        "last_seen",
    )
    _ALL_FACT_COLS = (
        "id", "item_id", "scope", "subject", "predicate", "object", "norm_subject",
        "norm_predicate", "norm_object", "source", "session_id", "message_id", "at",
        "reinforcements", "last_accessed", "superseded_by", "status", "created_at",
    )
    _ALL_RELATION_COLS = (
        "id", "scope", "source_entity", "relation", "target_entity", "session_id", "message_id",
        "at",
    )
    _ALL_MESSAGE_COLS = (
        "id", "session_id", "scope", "seq", "role", "speaker", "text", "at", "ext_id", "agent",
        "project", "redactions",
    )
    _ALL_ITEM_COLS = (
        "id", "kind", "text", "keys", "at", "scope", "agent", "project", "session_id",
        "message_id", "seq", "role", "keywords", "entities", "source", "durability", "lane",
        "trust", "privacy", "ttl_seconds", "expires_at", "parents", "children", "status",
        "dedupe_hash", "extra", "created_at", "updated_at",
    )
    _ALL_FACT_EVENT_COLS = (
        "id", "fact_id", "kind", "scope", "subject", "predicate", "object", "other_id",
        "session_id", "at",
    )
    _ALL_PACK_COLS = (
        "id", "query", "scope", "budget", "used", "counter", "text", "entries", "config",
        "created_at",
    )
    _JSON_COLS = frozenset({"participants", "keywords", "entities", "parents", "children", "extra",
                            "entries", "config"})

    def _iter_rows(self, table: str, cols: Sequence[str], batch: int) -> Iterator[dict[str, Any]]:
        last = 0
        while True:
            rows = self.db.execute(
                f"SELECT {', '.join(cols)} FROM {table} WHERE id > ? ORDER BY id LIMIT ?",
                (last, batch),
            ).fetchall()
            for r in rows:
                yield {c: json.loads(v) if c in self._JSON_COLS else v
                       for c, v in zip(cols, r, strict=True)}
            if len(rows) < batch:
                return
            last = rows[-1][0]

    def iter_sessions(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every session as a dict of every column (JSON decoded, times as floats), by id."""
        return self._iter_rows("sessions", self._ALL_SESSION_COLS, batch)

    def iter_messages(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every message as a dict of every column, by id."""
        return self._iter_rows("messages", self._ALL_MESSAGE_COLS, batch)

    def iter_items(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every item as a dict of every column (``keys``, ``expires_at``... too), by id."""
        return self._iter_rows("items", self._ALL_ITEM_COLS, batch)

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

    def iter_cache(self, batch: int = 1000) -> Iterator[tuple[str, bytes, np.ndarray]]:
        """Every embedding-cache entry as ``(model, hash, vector)``."""
        last: tuple[str, bytes] = ("", b"")
        while True:
            rows = self.db.execute(
                "SELECT model, hash, vec FROM embed_cache WHERE (model, hash) > (?, ?)"
                " ORDER BY model, hash LIMIT ?",
                (*last, batch),
            ).fetchall()
            for m, h, v in rows:
                yield m, bytes(h), np.frombuffer(v, dtype=np.float32)
            if len(rows) < batch:
                return
            last = (rows[-1][0], bytes(rows[-1][1]))

    def _restore(self, table: str, cols: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
        self.db.executemany(
            f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
            [tuple(json.dumps(r[c]) if c in self._JSON_COLS else r[c] for c in cols) for r in rows],
        )

    def restore_sessions(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert sessions exactly as ``iter_sessions`` yields them (same ids and state)."""
        self._restore("sessions", self._ALL_SESSION_COLS, rows)

    def iter_entities(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every entity as a dict of every column, by id."""
        return self._iter_rows("entities", self._ALL_ENTITY_COLS, batch)

    def iter_facts(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every fact as a dict of every column (supersession links too), by id."""
        return self._iter_rows("facts", self._ALL_FACT_COLS, batch)

    def iter_relations(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every relation as a dict of every column, by id."""
        return self._iter_rows("relations", self._ALL_RELATION_COLS, batch)

    def restore_entities(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert entities exactly as ``iter_entities`` yields them (same ids)."""
        self._restore("entities", self._ALL_ENTITY_COLS, rows)

    def restore_facts(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert facts exactly as ``iter_facts`` yields them (same ids and supersession).

        ``superseded_by`` may point at a later fact, so it is set once all ``rows`` exist:
        pass every fact in one call.
        """
        self._restore("facts", self._ALL_FACT_COLS, [{**r, "superseded_by": None} for r in rows])
        self.db.executemany(
            "UPDATE facts SET superseded_by = ? WHERE id = ?",
            [(r["superseded_by"], r["id"]) for r in rows if r["superseded_by"] is not None],
        )

    def restore_relations(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert relations exactly as ``iter_relations`` yields them (same ids)."""
        self._restore("relations", self._ALL_RELATION_COLS, rows)

    def restore_messages(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert messages exactly as ``iter_messages`` yields them (same ids)."""
        self._restore("messages", self._ALL_MESSAGE_COLS, rows)

    def restore_items(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert items exactly as ``iter_items`` yields them (same ids, every column).

        A row may carry ``pinned`` too (default: not pinned).
        """
        self._restore("items", self._ALL_ITEM_COLS, rows)
        self.restore_pinned([r["id"] for r in rows if r.get("pinned")])

    def iter_pinned(self) -> Iterator[int]:
        """Ids of every pinned item (any status), in id order (``iter_items`` leaves
        ``pinned`` out)."""
        yield from (r[0] for r in self.db.execute("SELECT id FROM items WHERE pinned = 1 ORDER BY id"))

    def restore_pinned(self, ids: Iterable[int]) -> None:
        """Pin these items (as ``iter_pinned`` lists them)."""
        self.db.executemany("UPDATE items SET pinned = 1 WHERE id = ?", [(i,) for i in ids])

    def iter_fact_events(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every fact event as a dict of every column, by id."""
        return self._iter_rows("fact_events", self._ALL_FACT_EVENT_COLS, batch)

    def restore_fact_events(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert fact events exactly as ``iter_fact_events`` yields them (same ids)."""
        self._restore("fact_events", self._ALL_FACT_EVENT_COLS, rows)

    def iter_packs(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every journaled pack as a dict of every column (entries and config decoded), by id."""
        return self._iter_rows("packs", self._ALL_PACK_COLS, batch)

    def restore_packs(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert journaled packs exactly as ``iter_packs`` yields them (same ids)."""
        self._restore("packs", self._ALL_PACK_COLS, rows)

    @classmethod
    def peek_migrations(cls, location: str | Path) -> dict[str, list[str]]:
        """Migrations of the database at ``location`` without opening it as a store.

        ``{"applied", "pending", "edited", "unknown"}`` name lists; nothing is created or
        changed (a missing file has every migration pending).
        """
        import sqlite3

        from memlane.store.sqlite.db import _PACKAGE, load_migrations, translate

        known = {m.name: m.sha256 for m in load_migrations(_PACKAGE)}
        applied: dict[str, str] = {}
        path = Path(location).expanduser()
        if str(location) != ":memory:" and path.is_file():
            with translate(f"reading {path}"):
                con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
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
