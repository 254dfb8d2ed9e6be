"""Whole-memory export and restore (``memlane copy``): the SQL both backends share.

Every column of every row, ids kept; rows are plain dicts (JSON columns decoded, times as
floats), the same on both backends, so a copy between them loses nothing. Each backend
adds ``iter_vectors`` (a blob against a pgvector), ``peek_migrations``, and
``_after_restore`` (PostgreSQL moves a table's identity past the restored ids).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from memlane.store.sql.base import SqlStore

__all__ = ["TransferMixin"]

_ALL_SESSION = (
    "id", "scope", "agent", "project", "status", "started_at", "ended_at", "message_count",
    "participants", "closed_reason", "failed_reason", "summary_version", "indexed_at", "created_at",
    "attempts", "next_attempt_at", "lease_until", "summarized_at", "summary_model",
    "deferrals",
)
_ALL_ENTITY = (
    "id", "scope", "name", "norm_name", "type", "context", "mentions", "first_seen", "last_seen",
)
_ALL_FACT = (
    "id", "item_id", "scope", "subject", "predicate", "object", "norm_subject", "norm_predicate",
    "norm_object", "source", "session_id", "message_id", "at", "reinforcements",
    "last_accessed", "superseded_by", "status", "created_at",
)
_ALL_FACT_EVENT = (
    "id", "fact_id", "kind", "scope", "subject", "predicate", "object", "other_id", "session_id",
    "message_id", "at", "written_subject",
)
_ALL_PACK = (
    "id", "query", "scope", "budget", "used", "counter", "text", "entries", "config", "created_at",
)
_ALL_RELATION = (
    "id", "scope", "source_entity", "relation", "target_entity", "session_id", "message_id", "at",
)
_ALL_MESSAGE = (
    "id", "session_id", "scope", "seq", "role", "speaker", "text", "at", "ext_id", "agent",
    "project", "redactions",
)
# ``pinned`` travels separately (iter_pinned / restore_pinned), so item rows stay as they were.
_ALL_ITEM = (
    "id", "kind", "text", "keys", "at", "scope", "agent", "project", "session_id", "message_id",
    "seq", "role", "keywords", "entities", "source", "durability", "lane", "trust", "privacy",
    "ttl_seconds", "expires_at", "parents", "children", "status", "dedupe_hash", "extra",
    "created_at", "updated_at",
)
_ALL_API_KEY = (
    "id", "name", "key_hash", "prefix", "scopes", "read_only", "created_at", "revoked_at",
    "last_used",
)
_JSON_COLS = frozenset(
    {"participants", "keywords", "entities", "parents", "children", "extra", "entries", "config"}
)


ID_TABLES = ("sessions", "messages", "items", "facts", "packs")
"""The tables whose ids are never given twice (an id outlives its row: a client's, a
forgotten fact's events, a draft's messages, a replayed pack): ``memlane copy`` carries
each one's largest id ever given (``id_marks``), erased rows' included."""


class TransferMixin(SqlStore):
    """``iter_*`` every row out in id order and batches; ``restore_*`` puts it back."""

    def id_marks(self) -> dict[str, int]:
        """Per table of ``ID_TABLES``, the largest id it ever gave (a deleted row's too)."""
        raise NotImplementedError

    def restore_id_marks(self, marks: dict[str, int]) -> None:
        """New rows of each table of ``marks`` start above its mark (after a restore)."""
        raise NotImplementedError

    def _after_restore(self, table: str) -> None:
        """Called after rows with explicit ids went into ``table`` (default: nothing)."""

    def _iter_rows(self, table: str, cols: Sequence[str], batch: int) -> Iterator[dict[str, Any]]:
        last = 0
        while True:
            rows = self._run(
                f"SELECT {', '.join(cols)} FROM {table} WHERE id > %s ORDER BY id LIMIT %s",
                (last, batch),
            ).fetchall()
            for r in rows:
                yield {c: json.loads(v) if c in _JSON_COLS else v for c, v in zip(cols, r, strict=True)}
            if len(rows) < batch:
                return
            last = rows[-1][0]

    def _restore(self, table: str, cols: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
        if not rows:
            return
        self._run_many(
            f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join(['%s'] * len(cols))})",
            [tuple(json.dumps(r[c]) if c in _JSON_COLS else r[c] for c in cols) for r in rows],
        )
        self._after_restore(table)

    def iter_sessions(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every session as a dict of every column (JSON decoded, times as floats), by id."""
        return self._iter_rows("sessions", _ALL_SESSION, batch)

    def iter_messages(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every message as a dict of every column, by id."""
        return self._iter_rows("messages", _ALL_MESSAGE, batch)

    def iter_items(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every item as a dict of every column (``keys``, ``expires_at``... too), by id.

        ``pinned`` is not among them: ``iter_pinned`` lists the pinned items.
        """
        return self._iter_rows("items", _ALL_ITEM, batch)

    def iter_entities(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every entity as a dict of every column, by id."""
        return self._iter_rows("entities", _ALL_ENTITY, batch)

    def iter_facts(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every fact as a dict of every column (supersession links too), by id."""
        return self._iter_rows("facts", _ALL_FACT, batch)

    def iter_fact_events(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every fact event as a dict of every column, by id."""
        return self._iter_rows("fact_events", _ALL_FACT_EVENT, batch)

    def iter_packs(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every journaled pack as a dict of every column (entries and config decoded), by id."""
        return self._iter_rows("packs", _ALL_PACK, batch)

    def iter_relations(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """Every relation as a dict of every column, by id."""
        return self._iter_rows("relations", _ALL_RELATION, batch)

    def iter_api_keys(self, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """The HTTP service's keys, revoked ones too: their hashes (never a key), ``scopes``
        as stored (a JSON list)."""
        for row in self._iter_rows("api_keys", _ALL_API_KEY, batch):
            yield {**row, "read_only": bool(row["read_only"])}  # SQLite's 0/1

    def iter_pinned(self) -> Iterator[int]:
        """Ids of every pinned item (any status), in id order."""
        yield from (r[0] for r in self._run("SELECT id FROM items WHERE pinned ORDER BY id"))

    def iter_cache(self, batch: int = 1000) -> Iterator[tuple[str, bytes, np.ndarray]]:
        """Every embedding-cache entry as ``(model, hash, vector)``."""
        last: tuple[str, bytes] = ("", b"")
        while True:
            rows = self._run(
                "SELECT model, hash, vec FROM embed_cache WHERE (model, hash) > (%s, %s)"
                " ORDER BY model, hash LIMIT %s",
                (*last, batch),
            ).fetchall()
            for m, h, v in rows:
                yield m, bytes(h), np.frombuffer(bytes(v), dtype=np.float32)
            if len(rows) < batch:
                return
            last = (rows[-1][0], bytes(rows[-1][1]))

    def restore_sessions(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert sessions exactly as ``iter_sessions`` yields them (same ids and state; a
        row from before ``deferrals`` existed gets 0)."""
        self._restore("sessions", _ALL_SESSION, [{"deferrals": 0, **r} for r in rows])

    def restore_messages(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert messages exactly as ``iter_messages`` yields them (same ids)."""
        self._restore("messages", _ALL_MESSAGE, rows)

    def restore_items(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert items exactly as ``iter_items`` yields them (same ids, every column).

        A row may carry ``pinned`` too (default: not pinned).
        """
        self._restore("items", _ALL_ITEM, rows)
        self.restore_pinned([r["id"] for r in rows if r.get("pinned")])

    def restore_pinned(self, ids: Iterable[int]) -> None:
        """Pin these items (as ``iter_pinned`` lists them)."""
        for cond, params in self._id_batches("id", list(ids)):
            self._run(f"UPDATE items SET pinned = %s WHERE {cond}", (True, *params))

    def restore_entities(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert entities exactly as ``iter_entities`` yields them (same ids)."""
        self._restore("entities", _ALL_ENTITY, rows)

    def restore_facts(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert facts exactly as ``iter_facts`` yields them (same ids and supersession).

        ``superseded_by`` may point at a later fact, so it is set once all ``rows`` exist:
        pass every fact in one call.
        """
        self._restore("facts", _ALL_FACT, [{**r, "superseded_by": None} for r in rows])
        links = [(r["superseded_by"], r["id"]) for r in rows if r["superseded_by"] is not None]
        if links:
            self._run_many("UPDATE facts SET superseded_by = %s WHERE id = %s", links)

    def restore_fact_events(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert fact events exactly as ``iter_fact_events`` yields them (same ids)."""
        self._restore("fact_events", _ALL_FACT_EVENT, rows)

    def restore_packs(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert journaled packs exactly as ``iter_packs`` yields them (same ids)."""
        self._restore("packs", _ALL_PACK, rows)

    def restore_relations(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert relations exactly as ``iter_relations`` yields them (same ids)."""
        self._restore("relations", _ALL_RELATION, rows)

    def restore_api_keys(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert API keys exactly as ``iter_api_keys`` yields them (same ids, hashes,
        revocation and last use: every client's key works on the copy)."""
        self._restore("api_keys", _ALL_API_KEY, rows)
