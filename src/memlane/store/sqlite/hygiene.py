"""SQLite store: hygiene, links, topics, the entity graph lookups, pins and the pack journal."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any


from memlane.errors import NotFoundError
from memlane.store.sqlite.rows import (
    _ITEM_COLS,
    _dt,
    _item,
)
from memlane.types import Item, StoredEntity

__all__ = ["HygieneMixin"]


class HygieneMixin:
    """Mixed into SqliteStore; uses ``self.db`` and ``self.atomic()``."""

    # -- hygiene, compaction, graph, topics ---------------------------------------------
    def expire_items(self, now: float) -> int:
        """Delete items past their TTL, with their lexical and vector rows.

        Each is first marked ``expired``, so the change log says why it left.
        """
        where = "expires_at IS NOT NULL AND expires_at <= ? AND pinned = 0"
        self.db.execute(f"UPDATE items SET status = 'expired' WHERE {where}", (now,))
        return self.db.execute(f"DELETE FROM items WHERE {where}", (now,)).rowcount

    def lane_count(self, lane: str) -> int:
        return self.db.execute(
            "SELECT count(*) FROM items WHERE lane = ? AND status = 'active'", (lane,)
        ).fetchone()[0]

    def evict_lowest(self, lane: str, n: int) -> int:
        """Delete the ``n`` lowest-value unpinned items of a lane (least trusted, then oldest)."""
        if n <= 0:
            return 0
        # marked ``evicted`` first, so the change log says why each item left
        ids = [r[0] for r in self.db.execute(
            "UPDATE items SET status = 'evicted' WHERE id IN (SELECT id FROM items WHERE lane = ?"
            " AND pinned = 0 AND status = 'active' ORDER BY trust, at, id LIMIT ?) RETURNING id",
            (lane, n),
        ).fetchall()]
        return self.db.execute(
            "DELETE FROM items WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(ids),)
        ).rowcount

    def items_of_kind(self, kind: str, scope: str | None = None, status: str = "active") -> list[Item]:
        sql = f"SELECT {_ITEM_COLS} FROM items WHERE kind = ? AND status = ?"
        params: list[Any] = [kind, status]
        if scope is not None:
            sql += " AND scope = ?"
            params.append(scope)
        return [_item(r) for r in self.db.execute(sql + " ORDER BY at, id", params)]

    def link_items(self, parent_id: int, child_ids: Sequence[int], *, supersede: bool) -> None:
        """Record ``parent`` → ``children`` links; optionally mark the children superseded."""
        now = time.time()
        parent = self.get_item(parent_id)
        children = list(dict.fromkeys([*parent.children, *child_ids]))
        self.db.execute("UPDATE items SET children = ?, updated_at = ? WHERE id = ?",
                        (json.dumps(children), now, parent_id))
        for cid in child_ids:
            child = self.get_item(cid)
            parents = list(dict.fromkeys([*child.parents, parent_id]))
            self.db.execute(
                "UPDATE items SET parents = ?, updated_at = ?,"
                " status = CASE WHEN ? THEN 'superseded' ELSE status END WHERE id = ?",
                (json.dumps(parents), now, supersede, cid),
            )

    def items_with_keyword(self, keyword: str, scope: str | None = None) -> list[Item]:
        return self._items_holding("keywords", keyword, scope, "ORDER BY at, id")

    def items_with_entity(self, name: str, scope: str | None = None, limit: int = 50) -> list[Item]:
        return self._items_holding("entities", name, scope, "ORDER BY at DESC, id LIMIT ?", limit)

    def _items_holding(self, column: str, value: str, scope: str | None, order: str,
                       *order_params: Any) -> list[Item]:
        """Active items whose JSON list ``column`` holds ``value`` (in ``scope``), ``order``ed."""
        sql = (f"SELECT {_ITEM_COLS} FROM items WHERE status = 'active' AND EXISTS"
               f" (SELECT 1 FROM json_each(items.{column}) WHERE value = ?)")
        params: list[Any] = [value]
        if scope is not None:
            sql += " AND scope = ?"
            params.append(scope)
        return [_item(r) for r in self.db.execute(f"{sql} {order}", (*params, *order_params))]

    def find_entities(self, norm_name: str, scope: str | None = None) -> list[StoredEntity]:
        sql = ("SELECT id, scope, name, type, context, mentions, first_seen, last_seen FROM entities"
               " WHERE norm_name = ?")
        params: list[Any] = [norm_name]
        if scope is not None:
            sql += " AND scope = ?"
            params.append(scope)
        return [StoredEntity(r[0], r[1], r[2], r[3], r[4], r[5], _dt(r[6]), _dt(r[7]))
                for r in self.db.execute(sql + " ORDER BY scope", params)]

    def relations_of(self, norm_name: str, scope: str | None = None) -> list[tuple[str, str, str, str]]:
        """``(scope, from, relation, to)`` touching an entity, either direction."""
        sql = ("SELECT scope, source_entity, relation, target_entity FROM relations"
               " WHERE (source_entity = ? OR target_entity = ?)")
        params: list[Any] = [norm_name, norm_name]
        if scope is not None:
            sql += " AND scope = ?"
            params.append(scope)
        rows = self.db.execute(sql + " GROUP BY scope, source_entity, relation, target_entity", params)
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def entity_names(self, scope: str) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT norm_name FROM entities WHERE scope = ?", (scope,))]

    def save_pack(self, row: dict[str, Any]) -> int:
        cur = self.db.execute(
            "INSERT INTO packs (query, scope, budget, used, counter, text, entries, config, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row["query"], row.get("scope"), row["budget"], row["used"], row["counter"], row["text"],
             json.dumps(row["entries"]), json.dumps(row.get("config", {})), time.time()),
        )
        return int(cur.lastrowid)

    def get_pack(self, pack_id: int) -> dict[str, Any]:
        r = self.db.execute(
            "SELECT id, query, scope, budget, used, counter, text, entries, config, created_at"
            " FROM packs WHERE id = ?", (pack_id,),
        ).fetchone()
        if r is None:
            raise NotFoundError(f"pack {pack_id} does not exist")
        return {"id": r[0], "query": r[1], "scope": r[2], "budget": r[3], "used": r[4],
                "counter": r[5], "text": r[6], "entries": json.loads(r[7]),
                "config": json.loads(r[8]), "created_at": _dt(r[9])}

    def set_pinned(self, item_id: int, pinned: bool) -> None:
        if self.db.execute("UPDATE items SET pinned = ? WHERE id = ?", (int(pinned), item_id)).rowcount == 0:
            raise NotFoundError(f"item {item_id} does not exist")

    def pinned_items(self, scope: str | None = None) -> list[Item]:
        sql = f"SELECT {_ITEM_COLS} FROM items WHERE pinned = 1 AND status = 'active'"
        params: list[Any] = []
        if scope is not None:
            sql += " AND (scope = ? OR scope IS NULL)"
            params.append(scope)
        return [_item(r) for r in self.db.execute(sql + " ORDER BY at, id", params)]

    def session_relations(self, session_id: int) -> list[tuple[str, str, str]]:
        rows = self.db.execute(
            "SELECT source_entity, relation, target_entity FROM relations WHERE session_id = ?"
            " ORDER BY id", (session_id,),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def scope_entities(self, scope: str) -> list[StoredEntity]:
        rows = self.db.execute(
            "SELECT id, scope, name, type, context, mentions, first_seen, last_seen FROM entities"
            " WHERE scope = ? ORDER BY mentions DESC, name", (scope,),
        )
        return [StoredEntity(r[0], r[1], r[2], r[3], r[4], r[5], _dt(r[6]), _dt(r[7])) for r in rows]
