"""Hygiene (expiry, lane caps), pins, item links, keyword/entity lookups and the pack
journal: the SQL both backends share.

Keyword and entity lists are JSON text on both backends; how to test that such a list
holds a value is the backend's ``_json_list_holds``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from memlane.errors import NotFoundError
from memlane.index.normalize import name_key
from memlane.store.rows import ITEM_COLS, dt, item
from memlane.store.sql.base import SqlStore, entity_key
from memlane.types import Item, Message

__all__ = ["EntityReader", "HygieneMixin"]

EntityReader = Callable[[Sequence[Message]], set[str]]
"""The keys (``name_key``) of the entities a reading of a session's messages gives: the
nodes the pipeline made of them (``memlane.index.hygiene.offline_entity_keys``)."""

_LISTED: dict[str | None, int] = {"offline": 20, None: 40}
"""How many entities a summary lists at most, by the backend that wrote it (the offline
backend's ``summarize``, a model's ``llm_intel``): a list this long may have left some out."""


def _summary_model(extra: Any) -> str | None:
    """The backend a summary item's ``extra`` names ("offline", or a model's)."""
    ex = json.loads(extra) if isinstance(extra, str) else extra or {}
    model = (ex.get("summary") or {}).get("model") if isinstance(ex, dict) else None
    return "offline" if model == "offline" else None


class HygieneMixin(SqlStore):
    """Expiry, lane caps, pins, links, lookups by keyword or entity, and saved packs."""

    get_item: Callable[[int], Item]  # ItemsMixin's

    # -- expiry and lane caps -----------------------------------------------------------
    def expire_items(self, now: float) -> int:
        """Delete unpinned items past their TTL, with their lexical and vector rows.

        Each is first marked ``expired``, so the change log says why it left.
        """
        ids = self.expiring_items(now)
        self.lock_items_facts(ids)
        return self.remove_items(ids, "expired")

    def expiring_items(self, now: float) -> list[int]:
        """Ids of the unpinned items past their TTL at ``now``."""
        return [int(r[0]) for r in self._run(
            "SELECT id FROM items WHERE expires_at IS NOT NULL AND expires_at <= %s"
            " AND NOT pinned ORDER BY id", (now,))]

    def lane_count(self, lane: str) -> int:
        """Active items of a lane (pinned ones too: they count towards the cap)."""
        return int(self._run(
            "SELECT count(*) FROM items WHERE lane = %s AND status = 'active'", (lane,)
        ).fetchone()[0])

    def evict_lowest(self, lane: str, n: int) -> int:
        """Delete the ``n`` lowest-value unpinned items of a lane (least trusted, then oldest)."""
        ids = self.lowest_items(lane, n)
        self.lock_items_facts(ids)
        return self.remove_items(ids, "evicted")

    def lowest_items(self, lane: str, n: int) -> list[int]:
        """Ids of the ``n`` lowest-value unpinned active items of a lane."""
        if n <= 0:
            return []
        return [int(r[0]) for r in self._run(
            "SELECT id FROM items WHERE lane = %s AND NOT pinned AND status = 'active'"
            " ORDER BY trust, at, id LIMIT %s", (lane, n))]

    def lock_items_facts(self, item_ids: Sequence[int]) -> None:
        """The facts locks of the scopes of these items, in scope order, before hygiene
        takes any of their rows (PostgreSQL). Removing a fact's item deletes the fact (a
        foreign key) and sets free the fact it had superseded (``superseded_by``), rows a
        worker writing the scope's facts holds in its own order: without the lock first,
        a deadlock (session 26); the others (summaries, observations) are rows a worker or
        an erase deletes under the same lock."""
        scopes: set[str] = set()
        for cond, params in self._id_batches("id", list(item_ids)):
            scopes.update(r[0] for r in self._run(
                f"SELECT DISTINCT scope FROM items WHERE {cond} AND scope IS NOT NULL", params))
        self._lock_scopes_facts(sorted(scopes))

    def remove_items(self, item_ids: Sequence[int], why: str) -> int:
        """Delete these items (``expire_items``: ``why`` is ``expired``; ``evict_lowest``:
        ``evicted``, the active ones only), pinned ones kept; how many went. Each is first
        marked ``why``, so the change log says why it left. The graph's nodes its entity
        items named are rebuilt from the scope's entity items left, deleted when none names
        them (``rebuild_entities``, as ``clear_intelligence`` and an erase do): the node kept
        the sentence it was read in as its context, and once ``gc`` had pruned the item's
        change records an erase of that sentence no longer found the name (session 28).
        The cached vectors of their texts no item of their scope still holds go last
        (``forget_unheld``; session 29). Under the facts locks of the items' scopes
        (``lock_items_facts``)."""
        still = "" if why == "expired" else " AND status = 'active'"
        n = 0
        names: dict[str, set[str]] = {}
        deleted: dict[str | None, set[str]] = {}
        said: set[tuple[str, str, str, str]] = set()  # the facts of fact items, below
        for cond, params in self._id_batches("id", list(item_ids)):
            # two statements: a row updated in a WITH clause cannot be deleted by the same one
            ids = [r[0] for r in self._run(
                f"UPDATE items SET status = %s WHERE {cond} AND NOT pinned{still} RETURNING id",
                (why, *params)).fetchall()]
            for c, p in self._id_batches("i.id", ids):  # their cached vectors, below
                for scope, texts in self.deleted_texts(c, p).items():  # type: ignore[attr-defined]
                    deleted.setdefault(scope, set()).update(texts)
            said.update((f.scope, f.subject, f.predicate, f.object)  # before they go
                        for f in self.facts_for_items(ids).values())  # type: ignore[attr-defined]
            for c, p in self._id_batches("id", ids):
                for scope, extra in self._run(
                        f"SELECT scope, extra FROM items WHERE kind = 'entity' AND {c}", p):
                    if scope is not None:
                        names.setdefault(scope, set()).add(entity_key(extra))
                n += self._run(f"DELETE FROM items WHERE {c}", p).rowcount
        # the relations that restated their facts, when no fact left says the same (session 31)
        self.forget_unsaid_relations(said)  # type: ignore[attr-defined]
        for scope in sorted(names):
            self.rebuild_entities(scope, names[scope])  # type: ignore[attr-defined]
        self.forget_unheld(deleted)  # type: ignore[attr-defined]
        return n

    def remove_unnamed_entities(self) -> int:
        """Delete the graph's nodes no entity item of their scope names; how many went.
        Before session 28 hygiene evicted entity items and kept their nodes, each holding
        the sentence it was read in, which ``graph()`` and retrieval's graph stage still
        showed until an erase of their scope took them (``rebuild_entities`` with
        ``unnamed``). Found without a lock; each scope that has one is swept in a
        transaction of its own under its facts lock, where ``rebuild_entities`` reads the
        scope's entity items again (session 30)."""
        named: dict[str, set[str]] = {}
        for scope, extra in self._run(
                "SELECT scope, extra FROM items WHERE kind = 'entity' AND scope IS NOT NULL"):
            named.setdefault(scope, set()).add(entity_key(extra))
        scopes = sorted({scope for scope, norm in self._run(
            "SELECT scope, norm_name FROM entities").fetchall()
            if norm not in named.get(scope, set())})
        gone = 0
        for scope in scopes:
            with self.atomic():
                self._lock_scope_facts(scope)
                gone += self.rebuild_entities(  # type: ignore[attr-defined]
                    scope, set(), unnamed=True)
        return gone

    def remove_dangling_relations(self, read: EntityReader | None = None) -> int:
        """Delete the relations an older memlane left without the fact they restate
        (``dangling_relations``; session 31) or without the node an end was
        (``unnoded_relations``, with ``read``; session 32); how many went. Found without a
        lock; each scope that has one is swept in a transaction of its own under its facts
        lock, where its relations are read again. Then each relation whose session ``read``
        read and named neither end of keeps that answer (``relation_reads``, under its
        scope's facts lock), so the session is not read again while its messages are the ones read
        (rev34: a session of 8,000 messages was read on every run, 1.6 s of CPU a gc)."""
        gone = 0
        unread: dict[str, list[tuple[int, float]]] = {}
        found = {*self.dangling_relations(),  # type: ignore[attr-defined]
                 *self._unnoded(None, read, unread)}
        for scope in sorted(found):
            with self.atomic():
                self._lock_scope_facts(scope)
                ids = {*self.dangling_relations(scope).get(scope, ()),  # type: ignore[attr-defined]
                       *self.unnoded_relations(scope, read=read).get(scope, ())}
                gone += self._delete_relations(sorted(ids))  # type: ignore[attr-defined]
        for scope in sorted(unread):
            with self.atomic():
                self._lock_scope_facts(scope)
                for rid, when in unread[scope]:  # (a relation swept above: none written)
                    self._run("INSERT INTO relation_reads (relation_id, summarized_at)"
                              " SELECT id, %s FROM relations WHERE id = %s ON CONFLICT"
                              " (relation_id) DO UPDATE SET summarized_at = excluded.summarized_at",
                              (when, rid))
        return gone

    def unnoded_relations(self, scope: str | None = None, *,
                          read: EntityReader | None = None) -> dict[str, list[int]]:
        """The relations (ids, by scope) an older hygiene left naming a node it deleted: an
        end that was a node of its session, which no node and no entity item of the scope
        has any more. Sessions 28 to 30 evicted the entity items, deleted the node and
        kept its relations; today a node that goes takes them (``rebuild_entities``).

        An end was a node when its session's summary lists it among the session's entities
        (the pipeline made each a node, in the summary's transaction; session 32). When the
        summary cannot say (the session had none, too small for one, or it was evicted, or
        its list is full: ``_LISTED``) and the offline patterns read the session (every
        session too small for a summary, whatever the backend, and every one the offline
        backend summarized: ``sessions.summary_model``), ``read`` of its messages gives the
        keys of the entities that reading makes nodes of (session 33). An end neither names
        (a fact's long object, a model's relation to a name it gave as no entity, a model's
        session without its summary) is left: docs/facts.md, "Session 32: relations gc
        cannot place" and "Session 33: relations gc places by reading their session"."""
        return self._unnoded(scope, read, None)

    def _unnoded(self, scope: str | None, read: EntityReader | None,
                 unread: dict[str, list[tuple[int, float]]] | None) -> dict[str, list[int]]:
        """``unnoded_relations``. A relation whose session's reading named neither end, at
        the session's ``summarized_at`` its row of ``relation_reads`` holds, is not read
        again (its messages are the ones read: a late message, a merge or an erase clears
        ``summarized_at``); ``unread``: filled, by scope, with ``(id, summarized_at)`` of each
        relation read now whose ends the reading named neither of (rev34)."""
        where, params = ("AND scope = %s", (scope,)) if scope is not None else ("", ())
        nodes = {(sc, norm) for sc, norm in self._run(f"SELECT scope, norm_name FROM entities WHERE 1 = 1 {where}",
                                                      params)}
        loose: dict[int, list[tuple[int, str, set[str]]]] = {}  # by session: id, scope, ends
        kept: dict[int, tuple[set[str], float | None]] = {}  # by relation: its ends, when read
        for rid, sc, src, dst, sid, was in self._run(
                "SELECT id, scope, source_entity, target_entity, session_id, r.summarized_at"
                " FROM relations LEFT JOIN relation_reads r ON r.relation_id = id"
                f" WHERE session_id IS NOT NULL {where} ORDER BY id", params):
            ends = {e for e in (src, dst) if (sc, e) not in nodes and e != "user"}
            if ends:
                loose.setdefault(int(sid), []).append((int(rid), sc, ends))
                kept[int(rid)] = ({src, dst} - {"user"}, None if was is None else float(was))
        listed: list[tuple[int, str, set[str]]] = []  # an end its session's entities name
        settled: set[int] = set()  # sessions whose summary lists every entity they had
        for cond, p in self._id_batches("session_id", sorted(loose)):
            for sid, names, extra in self._run(f"SELECT session_id, entities, extra FROM items"
                                               f" WHERE kind = 'summary' AND {cond}", p).fetchall():
                names = json.loads(names) if isinstance(names, str) else names or []
                keys = {name_key(str(n)) for n in names}
                listed += [(rid, sc, ends & keys) for rid, sc, ends in loose[int(sid)] if ends & keys]
                if len(names) < _LISTED.get(_summary_model(extra), _LISTED[None]):
                    settled.add(int(sid))
        if read is not None:
            for sid, when in self._read_by_patterns(sorted(set(loose) - settled)).items():
                todo = [r for r in loose[sid] if kept[r[0]][1] != when]  # not read at ``when``
                if not todo:
                    continue
                keys = read(self.session_messages(sid))  # type: ignore[attr-defined]
                listed += [(rid, sc, ends & keys) for rid, sc, ends in todo if ends & keys]
                if unread is not None:
                    for rid, sc, _ in todo:
                        if not kept[rid][0] & keys:
                            unread.setdefault(sc, []).append((rid, when))
        out: dict[str, list[int]] = {}
        named: dict[str, set[str]] = {}  # the keys entity items name, of the scopes concerned only
        for rid, sc, ends in listed:
            if sc not in named:
                named[sc] = {entity_key(extra) for (extra,) in self._run(
                    "SELECT extra FROM items WHERE scope = %s AND kind = 'entity'", (sc,))}
            if ends - named[sc]:
                out.setdefault(sc, []).append(rid)
        return {sc: sorted(set(ids)) for sc, ids in out.items()}

    def _read_by_patterns(self, session_ids: Sequence[int]) -> dict[int, float]:
        """Of ``session_ids``, those whose entities the offline patterns read and whose
        intelligence is written for their messages as they are (``summarized_at``; one a
        late message queued again is written anew), with their ``summarized_at``: a
        session too small for a summary (``summary_model`` NULL: the patterns read it
        whatever the backend) or one the offline backend summarized."""
        out: dict[int, float] = {}
        for cond, p in self._id_batches("id", session_ids):
            out.update((int(r[0]), float(r[1])) for r in self._run(
                f"SELECT id, summarized_at FROM sessions WHERE {cond} AND summarized_at IS NOT NULL"
                " AND coalesce(summary_model, 'offline') = 'offline'", p))
        return dict(sorted(out.items()))

    # -- pins ---------------------------------------------------------------------------
    def set_pinned(self, item_id: int, pinned: bool) -> None:
        if self._run("UPDATE items SET pinned = %s WHERE id = %s", (bool(pinned), item_id)).rowcount == 0:
            raise NotFoundError(f"item {item_id} does not exist")

    def pinned_items(self, scope: str | None = None) -> list[Item]:
        """Active pinned items (of ``scope`` or of no scope), oldest first."""
        sql = f"SELECT {ITEM_COLS} FROM items WHERE pinned AND status = 'active'"
        params: list[Any] = []
        if scope is not None:
            sql += " AND (scope = %s OR scope IS NULL)"
            params.append(scope)
        return [item(r) for r in self._run(sql + " ORDER BY at, id", params)]

    # -- kinds, links, keyword and entity lookups ---------------------------------------
    def items_of_kind(self, kind: str, scope: str | None = None, status: str = "active") -> list[Item]:
        sql = f"SELECT {ITEM_COLS} FROM items WHERE kind = %s AND status = %s"
        params: list[Any] = [kind, status]
        if scope is not None:
            sql += " AND scope = %s"
            params.append(scope)
        return [item(r) for r in self._run(sql + " ORDER BY at, id", params)]

    def link_items(self, parent_id: int, child_ids: Sequence[int], *, supersede: bool) -> None:
        """Record ``parent`` → ``children`` links; optionally mark the children superseded."""
        now = time.time()
        parent = self.get_item(parent_id)
        if self.lock_links(parent.scope):  # read again under the lock: no link is lost
            parent = self.get_item(parent_id)
        children = list(dict.fromkeys([*parent.children, *child_ids]))
        self._run("UPDATE items SET children = %s, updated_at = %s WHERE id = %s",
                  (json.dumps(children), now, parent_id))
        for cid in child_ids:
            child = self.get_item(cid)
            parents = list(dict.fromkeys([*child.parents, parent_id]))
            self._run(
                "UPDATE items SET parents = %s, updated_at = %s,"
                " status = CASE WHEN %s THEN 'superseded' ELSE status END WHERE id = %s",
                (json.dumps(parents), now, bool(supersede), cid),
            )

    def relink_summaries(self, scope: str, old_ids: Sequence[int], new_id: int | None) -> None:
        """The decision records and weekly roll-ups (items of ``scope`` in no session) made
        of summaries written again (``clear_intelligence`` deleted ``old_ids``: a late
        message or a merge queued their session again) name ``new_id``, the session's new
        summary, in their place (or none, when it has none now); the new summary takes the
        old ones' links, superseded as they were when a decision record had absorbed them.
        Before session 25 they named deleted items, and the new summary was in none. The
        caller holds the scope's links lock (``clear_intelligence`` takes it)."""
        gone = set(old_ids)
        if not gone:
            return
        now = time.time()

        def swap(ids: list[Any]) -> list[Any]:
            return list(dict.fromkeys(new_id if i in gone else i for i in ids
                                      if not (i in gone and new_id is None)))

        parents: list[int] = []
        absorbed = False
        for iid, children, extra in self._run(
                "SELECT id, children, extra FROM items WHERE scope = %s AND session_id IS NULL",
                (scope,)).fetchall():
            kids = json.loads(children or "[]")
            ex = json.loads(extra or "{}")
            lists = [k for k in ("absorbed", "children") if isinstance(ex.get(k), list)]
            if not gone.intersection(kids) and not any(gone.intersection(ex[k]) for k in lists):
                continue
            for k in lists:
                ex[k] = swap(ex[k])
            self._run("UPDATE items SET children = %s, extra = %s, updated_at = %s WHERE id = %s",
                      (json.dumps(swap(kids)), json.dumps(ex, ensure_ascii=False), now, iid))
            parents.append(int(iid))
            absorbed = absorbed or "absorbed" in ex
        if new_id is not None and parents:
            self._run(
                "UPDATE items SET parents = %s, updated_at = %s,"
                " status = CASE WHEN %s THEN 'superseded' ELSE status END WHERE id = %s",
                (json.dumps(parents), now, absorbed, new_id))

    def items_with_keyword(self, keyword: str, scope: str | None = None) -> list[Item]:
        """Active items with this exact keyword, oldest first."""
        return self._items_holding("keywords", keyword, scope, "ORDER BY at, id")

    def items_with_entity(self, name: str, scope: str | None = None, limit: int = 50) -> list[Item]:
        """Active items that mention this entity name, newest first."""
        return self._items_holding("entities", name, scope, "ORDER BY at DESC, id LIMIT %s", limit)

    def _items_holding(self, column: str, value: str, scope: str | None, order: str,
                       *order_params: Any) -> list[Item]:
        """Active items whose JSON list ``column`` holds ``value`` (in ``scope``), ``order``ed."""
        sql = f"SELECT {ITEM_COLS} FROM items WHERE status = 'active' AND {self._json_list_holds(column)}"
        params: list[Any] = [value]
        if scope is not None:
            sql += " AND scope = %s"
            params.append(scope)
        return [item(r) for r in self._run(f"{sql} {order}", (*params, *order_params))]

    # -- the pack journal ---------------------------------------------------------------
    def save_pack(self, row: dict[str, Any]) -> int:
        column, value = self._fresh_id("packs")  # a client replays a pack by its id
        return self._insert_id(
            f"INSERT INTO packs ({column}query, scope, budget, used, counter, text, entries, config,"
            f" created_at) VALUES ({value}%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (row["query"], row.get("scope"), row["budget"], row["used"], row["counter"],
             row["text"], json.dumps(row["entries"]), json.dumps(row.get("config", {})),
             time.time()),
        )

    def get_pack(self, pack_id: int) -> dict[str, Any]:
        r = self._run(
            "SELECT id, query, scope, budget, used, counter, text, entries, config, created_at"
            " FROM packs WHERE id = %s", (pack_id,),
        ).fetchone()
        if r is None:
            raise NotFoundError(f"pack {pack_id} does not exist")
        return {"id": r[0], "query": r[1], "scope": r[2], "budget": r[3], "used": r[4],
                "counter": r[5], "text": r[6], "entries": json.loads(r[7]),
                "config": json.loads(r[8]), "created_at": dt(r[9])}
