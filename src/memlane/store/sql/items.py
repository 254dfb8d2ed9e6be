"""Memory items, their filters, counters and stats: the SQL both backends share.

Each backend adds its own ``insert_items`` (PostgreSQL sends every row in one statement),
lexical search (FTS5 against tsvector), vectors, and ``bump`` (PostgreSQL shards counters
per connection).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from memlane.errors import NotFoundError
from memlane.store.rows import ITEM_COLS, item
from memlane.store.sql.base import SqlStore
from memlane.types import Item

__all__ = ["ITEM_INSERT_COLUMNS", "ItemsMixin", "item_values"]

ITEM_INSERT_COLUMNS = (
    "kind", "text", "keys", "at", "scope", "agent", "project", "session_id", "message_id",
    "seq", "role", "keywords", "entities", "source", "durability", "lane", "trust", "privacy",
    "ttl_seconds", "expires_at", "parents", "children", "status", "dedupe_hash", "extra",
    "created_at", "updated_at", "pinned",
)
"""The columns ``insert_items`` writes, in the order of ``item_values``."""


def item_values(r: dict[str, Any], now: float) -> tuple[Any, ...]:
    """The values of ``ITEM_INSERT_COLUMNS`` for an item given as a dict (defaults filled,
    lists and ``extra`` as JSON text, ``expires_at`` from the TTL)."""
    ttl = r.get("ttl_seconds")
    extra = r.get("extra", {})
    return (
        r["kind"], r["text"], r.get("keys", ""), r["at"], r.get("scope"),
        r.get("agent"), r.get("project"), r.get("session_id"), r.get("message_id"),
        r.get("seq"), r.get("role"), _json_list(r.get("keywords", ())),
        _json_list(r.get("entities", ())), r.get("source", "observed"),
        r.get("durability", "long"), r.get("lane", "episodic"), r.get("trust", 1.0),
        r.get("privacy", "private"), ttl, r["at"] + ttl if ttl else None,
        _json_list(r.get("parents", ())), _json_list(r.get("children", ())),
        r.get("status", "active"), r.get("dedupe_hash"),
        "{}" if extra == {} else json.dumps(extra), now, now, bool(r.get("pinned", False)),
    )


def _json_list(values: Any) -> str:
    # most items have none: the same "[]" json.dumps writes, without calling it (an
    # indexing batch is hundreds of rows with four such columns each)
    return "[]" if isinstance(values, (list, tuple)) and not values else json.dumps(list(values))


class ItemsMixin(SqlStore):
    """Item lookups and deletes, filtered id lists, counters and the store's stats."""

    backend: str
    url: str

    def item_by_dedupe_hash(self, digest: str, scope: str | None) -> int | None:
        """The item of ``scope`` (None: of no scope) stored with this dedupe hash. Hashes
        stored before session 20 do not hold the scope: looked up alone, one tenant's upsert
        returned another's item and stored nothing."""
        if scope is None:
            row = self._run("SELECT id FROM items WHERE dedupe_hash = %s AND scope IS NULL"
                            " ORDER BY id LIMIT 1", (digest,)).fetchone()
        else:
            row = self._run("SELECT id FROM items WHERE dedupe_hash = %s AND scope = %s"
                            " ORDER BY id LIMIT 1", (digest, scope)).fetchone()
        return row[0] if row else None

    def get_item(self, item_id: int) -> Item:
        row = self._run(f"SELECT {ITEM_COLS} FROM items WHERE id = %s", (item_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"item {item_id} does not exist")
        return item(row)

    def get_items(self, ids: Iterable[int]) -> dict[int, Item]:
        """The items that exist among ``ids``, in the order of ``ids``."""
        wanted = list(dict.fromkeys(ids))
        found: dict[int, Item] = {}
        for cond, params in self._id_batches("id", wanted):
            for row in self._run(f"SELECT {ITEM_COLS} FROM items WHERE {cond}", params):
                found[row[0]] = item(row)
        return {i: found[i] for i in wanted if i in found}

    def delete_item(self, item_id: int) -> None:
        """Delete an item with its lexical and vector rows, in one transaction."""
        with self.db.atomic():
            if self._run("DELETE FROM items WHERE id = %s", (item_id,)).rowcount == 0:
                raise NotFoundError(f"item {item_id} does not exist")

    def session_items(self, session_id: int, kind: str | None = None) -> list[Item]:
        sql = f"SELECT {ITEM_COLS} FROM items WHERE session_id = %s"
        params: list[Any] = [session_id]
        if kind is not None:
            sql += " AND kind = %s"
            params.append(kind)
        return [item(r) for r in self._run(sql + " ORDER BY seq, id", params)]

    def sessions_items(self, session_ids: Iterable[int], kind: str | None = None) -> dict[int, list[Item]]:
        """``session_items`` of each session in ``session_ids`` that has such items, in one
        statement (a search's stage two reads the turns of its top sessions)."""
        out: dict[int, list[Item]] = {}
        for cond, params in self._id_batches("session_id", list(dict.fromkeys(session_ids))):
            sql = f"SELECT {ITEM_COLS} FROM items WHERE {cond}"
            if kind is not None:
                sql += " AND kind = %s"
                params = [*params, kind]
            for r in self._run(sql + " ORDER BY session_id, seq, id", params):
                it = item(r)
                out.setdefault(it.session_id, []).append(it)  # type: ignore[arg-type]
        return out

    def first_turns(self, session_ids: Iterable[int], role: str) -> dict[int, Item]:
        """Each session's first turn spoken by ``role`` (lowest ``seq``, then id), for the
        sessions among ``session_ids`` that have one: one statement for all of them, where
        ``session_items`` would read every turn of each (the session openers of a search)."""
        out: dict[int, Item] = {}
        for cond, params in self._id_batches("session_id", list(dict.fromkeys(session_ids))):
            rows = self._run(
                f"SELECT {ITEM_COLS} FROM items JOIN (SELECT session_id AS sid, min(seq) AS low"
                f" FROM items WHERE {cond} AND kind = 'turn' AND role = %s GROUP BY session_id) m"
                " ON items.session_id = m.sid AND items.seq = m.low"
                " WHERE items.kind = 'turn' AND items.role = %s ORDER BY items.seq, items.id",
                [*params, role, role])
            for r in rows:
                it = item(r)
                if it.session_id is not None:
                    out.setdefault(it.session_id, it)
        return out

    def items_missing_vectors(self, model: str, limit: int) -> list[tuple[int, str]]:
        """``(id, text)`` of active items without a vector under ``model``, in id order."""
        rows = self._run(
            "SELECT i.id, i.text FROM items i LEFT JOIN vectors v ON v.item_id = i.id"
            " AND v.model = %s WHERE v.item_id IS NULL AND i.status = 'active'"
            " ORDER BY i.id LIMIT %s",
            (model, limit),
        )
        return [(r[0], r[1]) for r in rows]

    def items_after(self, after_id: int, limit: int) -> list[tuple[int, str]]:
        """``(id, text)`` of active items with id > after_id, in id order."""
        rows = self._run(
            "SELECT id, text FROM items WHERE id > %s AND status = 'active' ORDER BY id LIMIT %s",
            (after_id, limit),
        )
        return [(r[0], r[1]) for r in rows]

    def loose_items(self, kinds: Sequence[str], *, scope: str | None = None,
                    before: int | None = None, limit: int = 50) -> list[Item]:
        """Active items of ``kinds`` that no session holds, highest id first, below
        ``before``; ``scope``: that scope's (the meaning tier's backfill, session 34)."""
        if not kinds or limit <= 0:
            return []
        where, params = _loose_where(kinds, scope)
        if before is not None:
            where += " AND id < %s"
            params.append(int(before))
        return [item(r) for r in self._run(
            f"SELECT {ITEM_COLS} FROM items WHERE {where} ORDER BY id DESC LIMIT %s",
            [*params, limit])]

    def count_loose_items(self, kinds: Sequence[str], *, scope: str | None = None) -> int:
        """How many items ``loose_items`` walks over (``before`` None), in one count: the
        meaning tier's ``warm_all`` sizes its bar by it (session 34, fix34b)."""
        if not kinds:
            return 0
        where, params = _loose_where(kinds, scope)
        return int(self._run(f"SELECT count(*) FROM items WHERE {where}", params).fetchone()[0])

    def meta_value(self, key: str, *, lock: bool = False) -> str | None:
        """The value under ``key`` in ``meta`` (None: none); ``lock``: created empty if
        missing and locked to the transaction's end (see the contract)."""
        if lock:
            self._run("INSERT INTO meta (key, value) VALUES (%s, '') ON CONFLICT (key) DO NOTHING",
                      (key,))
        row = self._run(f"SELECT value FROM meta WHERE key = %s{self.FOR_UPDATE if lock else ''}",
                        (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self._run("INSERT INTO meta (key, value) VALUES (%s, %s)"
                  " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    def delete_meta(self, key: str) -> None:
        self._run("DELETE FROM meta WHERE key = %s", (key,))

    def vector_count(self, model: str | None = None) -> int:
        if model is None:
            return int(self._run("SELECT count(*) FROM vectors").fetchone()[0])
        return int(self._run("SELECT count(*) FROM vectors WHERE model = %s", (model,)).fetchone()[0])

    # -- counters and stats -------------------------------------------------------------
    def counters(self) -> dict[str, int]:
        rows = self._run(f"SELECT name, sum(value) FROM counters GROUP BY name"
                         f" ORDER BY name{self.TEXT_ORDER}")
        return {r[0]: int(r[1]) for r in rows}

    def stats(self) -> dict[str, Any]:
        def q(sql: str) -> list[Any]:
            return self._run(sql).fetchall()

        c = self.TEXT_ORDER  # each breakdown in one order on both stores (a copy reads alike)
        return {
            "backend": self.backend,
            "db": self.url,
            "messages": q("SELECT count(*) FROM messages")[0][0],
            "scopes": q("SELECT count(DISTINCT scope) FROM sessions")[0][0],
            "sessions": dict(q(f"SELECT status, count(*) FROM sessions GROUP BY status"
                               f" ORDER BY status{c}")),
            "sessions_unindexed": q(
                "SELECT count(*) FROM sessions WHERE indexed_at IS NULL AND status <> 'open'"
            )[0][0],
            "items": dict(q(f"SELECT kind, count(*) FROM items GROUP BY kind ORDER BY kind{c}")),
            "vectors": dict(q(f"SELECT model, count(*) FROM vectors GROUP BY model"
                              f" ORDER BY model{c}")),
            "embed_cache": q("SELECT count(*) FROM embed_cache")[0][0],
            "counters": self.counters(),
            "migrations": self.applied_migrations(),
        }


def _loose_where(kinds: Sequence[str], scope: str | None) -> tuple[str, list[Any]]:
    """The condition ``loose_items`` and ``count_loose_items`` share: active items of
    ``kinds`` no session holds (of ``scope``, when given), and its parameters."""
    where = (f"session_id IS NULL AND status = 'active'"
             f" AND kind IN ({', '.join(['%s'] * len(kinds))})")
    params: list[Any] = list(kinds)
    if scope is not None:
        where += " AND scope = %s"
        params.append(scope)
    return where, params
