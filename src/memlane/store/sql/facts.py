"""Entities, facts (with supersession and their event history) and relations: the SQL both
backends share.

Each backend adds its own ``upsert_entity`` (the upsert's scalar min/max differ) and the
``_lock_*`` hooks: PostgreSQL runs writers side by side, so a scope's fact changes take an
advisory lock held to commit (see ``postgres.facts``). Text orders use ``TEXT_ORDER`` so
lists come back in byte order on both.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from typing import Any

from memlane.errors import NotFoundError
from memlane.index.normalize import name_key, normalize_value, subject_key, value_of_key
from memlane.store.rows import ENTITY_COLS, FACT_COLS, dt, entity, fact
from memlane.store.sql.base import DERIVED_KINDS, SqlStore, entity_key
from memlane.types import StoredEntity, StoredFact

__all__ = ["FactsMixin"]

_LATER_ACCESS = "last_accessed = CASE WHEN last_accessed < %s THEN %s ELSE last_accessed END"
"""``last_accessed = max(last_accessed, at)`` in SQL both dialects read the same way."""


class FactsMixin(SqlStore):
    """Entities, facts and relations of each scope."""

    facts_config: Any = None
    """The ``[memory.facts]`` the scope's facts follow (``Memory`` sets it): which predicates
    are single-valued, which ``resettle_facts`` needs to settle a value an erased ending had
    ended (session 22). None: the defaults."""

    def clear_intelligence(self, session_id: int, keep: Iterable[str] = ()) -> list[int]:
        """Remove what session intelligence derived from a session (before it is redone):
        the ids of the summaries deleted (``relink_summaries`` gives the new one their
        place in what compaction made of them).

        The session's fact events, facts, derived items and relations go, and the entity
        nodes its entity items named are rebuilt from the scope's other entity items
        (``rebuild_entities``: the mentions it had counted taken back); the facts it had
        superseded are settled again (``resettle_facts``): the newest statement left of each
        subject and predicate is current, the others superseded by it. The scope's facts
        lock is taken, then its links lock (``lock_links``: compaction links summaries
        under it), before any row. Last, the cached vectors of the deleted items' texts that
        no item of the scope still holds, but ``keep`` (the texts the caller writes next:
        ``forget_unheld``; session 29).
        """
        self._lock_session_facts(session_id)
        scope = self._run("SELECT scope FROM sessions WHERE id = %s", (session_id,)).fetchone()
        if scope is not None:
            self.lock_links(scope[0])
        orphans = self.facts_superseded_by(
            [int(r[0]) for r in self._run("SELECT id FROM facts WHERE session_id = %s",
                                          (session_id,))])
        self.unreinforce([session_id])
        self._run(
            "DELETE FROM fact_events WHERE fact_id IN (SELECT id FROM facts WHERE session_id = %s)",
            (session_id,),
        )
        self._run("DELETE FROM facts WHERE session_id = %s", (session_id,))
        self.resettle_facts(orphans)
        # a summary stored on demand (``Memory.store_summary``, MCP ``summarize``) is the
        # user's, not the pipeline's: it stays. It went with the session's first run, so
        # MCP summarize answered "stored as item N" for an item already deleted.
        summaries = {int(r[0]): bool(json.loads(r[1] or "{}").get("on_demand")) for r in self._run(
            "SELECT id, extra FROM items WHERE session_id = %s AND kind = 'summary'",
            (session_id,))}
        kept = [i for i, on_demand in summaries.items() if on_demand]
        # the graph's nodes its entity items were upserted into: each upsert counted one
        # mention, and the summary written next counts them again (session 27: "Porto", named
        # by one session summarised twice, had 2 mentions); rebuilt below from the items left
        names = {entity_key(extra) for (extra,) in self._run(
            "SELECT extra FROM items WHERE session_id = %s AND kind = 'entity'", (session_id,))}
        deleted = self.deleted_texts(  # type: ignore[attr-defined]
            f"i.session_id = %s AND i.kind IN {DERIVED_KINDS}", (session_id,))
        self._run(
            f"DELETE FROM items WHERE session_id = %s AND kind IN {DERIVED_KINDS}"
            + (f" AND id NOT IN ({', '.join(['%s'] * len(kept))})" if kept else ""),
            (session_id, *kept),
        )
        self._run("DELETE FROM relations WHERE session_id = %s", (session_id,))
        if scope is not None:
            self.rebuild_entities(scope[0], names - {""})
        self.forget_unheld(deleted, keep)  # type: ignore[attr-defined]
        return sorted(i for i, on_demand in summaries.items() if not on_demand)

    def unreinforce(self, session_ids: Sequence[int]) -> int:
        """Take back what these sessions' statements added to facts of other sessions (their
        ``reinforced`` events, and the fact's count with them), before the sessions are read
        again or erased; the number of events deleted. Before session 26 each re-read of a
        session that had said "I live in Berlin" again counted one more reinforcement
        (confidence 1.1, 1.2, 1.3… for one statement), and an erased session's kept its
        count. A forgotten fact's events (no fact row) are its marks and stay."""
        counts: dict[int, int] = {}
        mine = " AND EXISTS (SELECT 1 FROM facts WHERE facts.id = fact_events.fact_id)"
        batches = list(self._id_batches("session_id", list(dict.fromkeys(session_ids))))
        for cond, params in batches:
            for r in self._run(f"SELECT fact_id FROM fact_events WHERE kind = 'reinforced' AND {cond}{mine}",
                               params):
                counts[int(r[0])] = counts.get(int(r[0]), 0) + 1
        for fid, n in sorted(counts.items()):
            self._run("UPDATE facts SET reinforcements = CASE WHEN reinforcements > %s"
                      " THEN reinforcements - %s ELSE 0 END WHERE id = %s", (n, n, fid))
        for cond, params in batches:
            self._run(f"DELETE FROM fact_events WHERE kind = 'reinforced' AND {cond}{mine}", params)
        return sum(counts.values())

    def facts_superseded_by(self, fact_ids: Sequence[int]) -> list[int]:
        """The facts (not among ``fact_ids``) that one of ``fact_ids`` superseded: read before
        those are deleted (the link is then cleared), settled after by ``resettle_facts``."""
        gone = set(fact_ids)
        out: set[int] = set()
        for cond, params in self._id_batches("superseded_by", sorted(gone)):
            out.update(int(r[0]) for r in self._run(f"SELECT id FROM facts WHERE {cond}", params))
        return sorted(out - gone)

    def resettle_facts(self, orphans: Sequence[int]) -> None:
        """Settle facts whose superseding fact was removed (its session erased or summarised
        again): per subject and predicate, the newest-stated of them and of the facts still
        current (a value's last statement: when it was stated or last reinforced) is current,
        the others are superseded by it. Making each of them current again, as before
        session 21, left two current values of one predicate when the removed fact had
        itself been superseded since ("Lisbon", then "Berlin", then "Madrid": erasing the
        Berlin session made Lisbon current beside Madrid)."""
        keys: dict[tuple[str, str, str], set[int]] = {}
        for cond, params in self._id_batches("id", list(orphans)):
            for r in self._run(f"SELECT id, scope, norm_subject, norm_predicate FROM facts"
                               f" WHERE {cond}", params):
                keys.setdefault((r[1], r[2], r[3]), set()).add(int(r[0]))
        now = time.time()
        for (scope, subject, predicate), mine in sorted(keys.items()):
            rows = self._run(
                "SELECT id, at, status FROM facts WHERE scope = %s AND norm_subject = %s"
                " AND norm_predicate = %s", (scope, subject, predicate)).fetchall()
            pool = {int(r[0]): float(r[1]) for r in rows
                    if int(r[0]) in mine or r[2] == "current"}
            for event in self.fact_events(list(pool)):
                if event["kind"] == "reinforced":
                    fid = event["fact_id"]
                    pool[fid] = max(pool[fid], event["at"].timestamp())
            ends = self._endings_of(scope, subject, predicate)
            if not self._single_valued(predicate):
                # a value of many (likes, has) is settled only when an ending retired it: current
                # again unless a kept ending said after it ends it; the others do not compete
                # with it (session 22)
                for fid in sorted(mine):
                    self._settle_one(fid, self._ender(ends, fid, pool[fid]), now)
                continue
            winner = max(pool, key=lambda i: (pool[i], i))
            ender = self._ender(ends, winner, pool[winner]) if ends else None
            if ender is not None and winner in mine:
                # the newest value left was ended since by a kept ending: it stays retired,
                # and so do the older ones it replaces (session 22)
                self._settle_one(winner, ender, now)
                mine = set(mine) - {winner}
            for fid in sorted(mine):
                if fid == winner:
                    self._run("UPDATE facts SET status = 'current', superseded_by = NULL"
                              " WHERE id = %s", (fid,))
                    self._run("UPDATE items SET status = 'active', updated_at = %s WHERE"
                              " status = 'superseded' AND id = (SELECT item_id FROM facts"
                              " WHERE id = %s)", (now, fid))
                else:  # its history says so, as when a newer value arrives
                    self._run("UPDATE facts SET status = 'superseded', superseded_by = %s"
                              " WHERE id = %s", (winner, fid))
                    new = self.get_fact(winner)
                    self.log_fact_event(self.get_fact(fid), "superseded", new.at.timestamp(),
                                        other_id=winner, session_id=new.session_id,
                                        message_id=new.message_id)

    def _single_valued(self, predicate: str) -> bool:
        from memlane.config import FactsConfig
        from memlane.index.facts import is_single_valued

        return is_single_valued(predicate, self.facts_config or FactsConfig())

    def _endings_of(self, scope: str, norm_subject: str, norm_predicate: str) -> list[tuple[float, int, str]]:
        """``(at, id, norm_object)`` of the endings that reach this subject and predicate."""
        from memlane.index.ending import families_of

        return [(f.at.timestamp(), f.id, norm) for f, norm in
                self.ended_facts(scope, norm_subject, families_of(norm_predicate))]

    def _ender(self, ends: Sequence[tuple[float, int, str]], fact_id: int, stated: float) -> int | None:
        """The newest ending said after ``stated`` that ends this fact's value, if any."""
        from memlane.index.ending import ends as ends_value

        row = self._run("SELECT norm_object FROM facts WHERE id = %s", (fact_id,)).fetchone()
        found = [(at, eid) for at, eid, norm in ends if at > stated and ends_value(norm, row[0])]
        return max(found)[1] if found else None

    def _settle_one(self, fact_id: int, ender: int | None, now: float) -> None:
        """Make a fact current again (``ender`` None) or retired by an ending."""
        if ender is None:
            self._run("UPDATE facts SET status = 'current', superseded_by = NULL WHERE id = %s", (fact_id,))
            self._run("UPDATE items SET status = 'active', updated_at = %s WHERE status = 'superseded'"
                      " AND id = (SELECT item_id FROM facts WHERE id = %s)", (now, fact_id))
            return
        self.supersede_fact(fact_id, ender)
        end = self.get_fact(ender)
        self.log_fact_event(self.get_fact(fact_id), "superseded", end.at.timestamp(), other_id=ender,
                            session_id=end.session_id, message_id=end.message_id)

    def insert_ended_fact(self, row: dict[str, Any]) -> int:
        """Insert an ending (session 22): a fact row with status ``ended`` and no item, naming
        the subject, the predicate and the value it ends (``""``: any)."""
        column, value = self._fresh_id("facts")
        return self._insert_id(
            f"INSERT INTO facts ({column}item_id, scope, subject, predicate, object, norm_subject,"
            " norm_predicate, norm_object, source, session_id, message_id, at, last_accessed,"
            f" created_at, status) VALUES ({value}NULL, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,"
            " %s, 'ended')",
            (row["scope"], row["subject"], row["predicate"], row["object"], row["norm_subject"],
             row["norm_predicate"], row["norm_object"], row.get("source", "stated"), row.get("session_id"),
             row.get("message_id"), row["at"], row["at"], time.time()),
        )

    def ended_facts(self, scope: str, norm_subject: str,
                    norm_predicates: Sequence[str]) -> list[tuple[StoredFact, str]]:
        """The endings of a subject under these predicates, oldest first, with their
        normalized object (``""``: any value)."""
        preds = list(dict.fromkeys(norm_predicates))
        if not preds:
            return []
        marks = ", ".join(["%s"] * len(preds))
        rows = self._run(
            f"SELECT {FACT_COLS}, norm_object FROM facts WHERE scope = %s AND norm_subject = %s"
            f" AND norm_predicate IN ({marks}) AND status = 'ended' ORDER BY at, id",
            (scope, norm_subject, *preds),
        )
        return [(fact(r), r[14]) for r in rows]

    # -- entities and relations ---------------------------------------------------------
    def scope_entities(self, scope: str) -> list[StoredEntity]:
        rows = self._run(
            f"SELECT {ENTITY_COLS} FROM entities WHERE scope = %s"
            f" ORDER BY mentions DESC, name{self.TEXT_ORDER}", (scope,),
        )
        return [entity(r) for r in rows]

    def find_entities(self, norm_name: str, scope: str | None = None) -> list[StoredEntity]:
        sql = f"SELECT {ENTITY_COLS} FROM entities WHERE norm_name = %s"
        params: list[Any] = [norm_name]
        if scope is not None:
            sql += " AND scope = %s"
            params.append(scope)
        return [entity(r) for r in self._run(f"{sql} ORDER BY scope{self.TEXT_ORDER}", params)]

    def entity_names(self, scope: str) -> list[str]:
        rows = self._run("SELECT norm_name FROM entities WHERE scope = %s ORDER BY id", (scope,))
        return [r[0] for r in rows]

    def insert_relation(self, scope: str, source: str, relation: str, target: str,
                        session_id: int | None, message_id: int | None, at: float) -> int:
        return self._insert_id(
            "INSERT INTO relations (scope, source_entity, relation, target_entity, session_id,"
            " message_id, at) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (scope, source, relation, target, session_id, message_id, at),
        )

    def relations_of(self, norm_name: str, scope: str | None = None) -> list[tuple[str, str, str, str]]:
        """``(scope, from, relation, to)`` touching an entity, either direction, once each."""
        c = self.TEXT_ORDER
        sql = (f"SELECT DISTINCT scope{c}, source_entity{c}, relation{c}, target_entity{c}"
               " FROM relations WHERE (source_entity = %s OR target_entity = %s)")
        params: list[Any] = [norm_name, norm_name]
        if scope is not None:
            sql += " AND scope = %s"
            params.append(scope)
        rows = self._run(sql + " ORDER BY 1, 2, 3, 4", params)
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def session_relations(self, session_id: int) -> list[tuple[str, str, str]]:
        rows = self._run(
            "SELECT source_entity, relation, target_entity FROM relations WHERE session_id = %s"
            " ORDER BY id", (session_id,),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def forget_relations_of(self, fact: StoredFact) -> int:
        """Delete the relations of ``fact``'s scope that restate it (its subject, predicate
        and object as the pipeline keys a relation, its target the fact's value as a value
        is compared: ``_restating``), before the fact goes (``forget_fact``); how many. The
        pipeline reads a relation beside each fact of some predicates (``user lives_in
        zqbab``), and a forgotten fact's relation stayed: ``graph show user`` showed the
        forgotten value (session 27; session 32: the relation of a session that said it
        again as "Hague", where the fact says "The Hague"). A relation read in a session
        that another stored fact of the same value was stated in (the value said again
        after a move back) stays with that fact."""
        value = normalize_value(fact.object)
        others = [int(r[0]) for r in self._run(
            "SELECT id, object FROM facts WHERE scope = %s AND norm_subject = %s"
            " AND norm_predicate = %s AND id <> %s",
            (fact.scope, subject_key(fact.subject), fact.predicate, fact.id))
            if normalize_value(r[1]) == value]
        kept = {e["session_id"] for e in self.fact_events(others)} | {
            f.session_id for f in map(self.get_fact, others)}
        kept.discard(None)
        doomed = [rid for rid, sid in self._restating(fact.scope, fact.subject, fact.predicate,
                                                      value) if sid is None or sid not in kept]
        return self._delete_relations(doomed)

    def _restating(self, scope: str, subject: str, predicate: str, value: str
                   ) -> list[tuple[int, int | None]]:
        """``(id, session_id)`` of the relations of ``scope`` that restate a fact of
        ``subject`` and ``predicate`` whose value's key is ``value``: a source of the
        subject's keys, and a target whose key is the value's as a value is compared
        (``value_of_key``: "The Hague" said again as "Hague" is one value, each session's
        relation keeping its own end)."""
        src = sorted({subject_key(subject), name_key(subject)})
        marks = ", ".join(["%s"] * len(src))
        return [(int(rid), None if sid is None else int(sid)) for rid, dst, sid in self._run(
            "SELECT id, target_entity, session_id FROM relations WHERE scope = %s"
            f" AND source_entity IN ({marks}) AND relation = %s ORDER BY id",
            (scope, *src, predicate)) if value_of_key(dst) == value]

    def _delete_relations(self, ids: Sequence[int]) -> int:
        """Delete these relations (in batches of ids); how many went."""
        n = 0
        for cond, params in self._id_batches("id", list(ids)):
            n += self._run(f"DELETE FROM relations WHERE {cond}", params).rowcount
        return n

    def fact_keys(self, fact_ids: Sequence[int]) -> set[tuple[str, str, str, str]]:
        """``(scope, subject, predicate, object)`` of these facts, as they hold them: read
        before they go, for ``forget_unsaid_relations``."""
        out: set[tuple[str, str, str, str]] = set()
        for cond, params in self._id_batches("id", list(dict.fromkeys(fact_ids))):
            out.update((r[0], r[1], r[2], r[3]) for r in self._run(
                f"SELECT scope, subject, norm_predicate, object FROM facts WHERE {cond}", params))
        return out

    def forget_unsaid_relations(self, keys: Iterable[tuple[str, str, str, str]]) -> int:
        """After facts went (hygiene evicted or expired their items, an erase took them;
        ``fact_keys`` read before): the relations of their scopes that restate one of them
        (its subject, predicate and object as the pipeline keys a relation) when no stored
        fact of the scope says the same any more; how many went. They stayed: ``graph()``
        listed ``user lives_in lisbon`` (even as superseded) with no fact behind it, and
        retrieval's graph stage walked it (session 31)."""
        n = 0
        for scope, subject, predicate, obj in sorted(set(keys)):
            src = sorted({subject_key(subject), name_key(subject)})
            value = normalize_value(obj)  # a relation's target as a value (``_restating``)
            marks = ", ".join(["%s"] * len(src))
            if any(normalize_value(r[0]) == value for r in self._run(
                    f"SELECT object FROM facts WHERE scope = %s AND norm_subject IN ({marks})"
                    " AND norm_predicate = %s", (scope, *src, predicate))):
                continue
            n += self._delete_relations(
                [rid for rid, _ in self._restating(scope, subject, predicate, value)])
        return n

    def dangling_relations(self, scope: str | None = None) -> dict[str, list[int]]:
        """The relations (ids, by scope) an older memlane left without the fact they restate:
        read beside a fact (they have its message; the offline backend's every relation, a
        model's when a fact says the same), with no stored fact of the scope saying the
        same any more (session 31). Every fact and relation of ``scope`` (None: of the
        database) is read; a fact's object is keyed only when a relation has its subject
        and predicate, and each name once (``name_key`` is most of the cost)."""
        where, params = ("WHERE scope = %s", (scope,)) if scope is not None else ("", ())
        relations: dict[tuple[str, str, str], list[tuple[int, str]]] = {}
        for rid, sc, src, rel, dst in self._run(
                "SELECT id, scope, source_entity, relation, target_entity FROM relations"
                f" {where}{' AND' if where else ' WHERE'} message_id IS NOT NULL ORDER BY id",
                params):
            relations.setdefault((sc, src, rel), []).append((int(rid), dst))
        keys: dict[str, str] = {}

        def key(name: str) -> str:
            if name not in keys:
                keys[name] = name_key(name)
            return keys[name]

        said: set[tuple[str, str, str, str]] = set()  # a target as a value (``_restating``)
        for sc, subject, norm, predicate, obj in self._run(
                f"SELECT scope, subject, norm_subject, norm_predicate, object FROM facts {where}",
                params):
            for s in {norm, key(subject)}:
                if (sc, s, predicate) in relations:
                    said.add((sc, s, predicate, value_of_key(key(obj))))
        out: dict[str, list[int]] = {}
        for (sc, src, rel), ends in relations.items():
            for rid, dst in ends:
                if (sc, src, rel, value_of_key(dst)) not in said:
                    out.setdefault(sc, []).append(rid)
        return {sc: sorted(ids) for sc, ids in out.items()}

    def rebuild_entities(self, scope: str, names: set[str], *, unnamed: bool = False) -> int:
        """Entities of ``scope`` named in ``names``: deleted when no remaining entity item
        of the scope names them (counted), else rebuilt from those items as if the erased
        ones had never been upserted (mentions, first and last seen, context, type). With
        ``unnamed`` (an erase), every node of the scope no entity item names goes too: an
        older memlane's hygiene evicted items and kept their nodes, each holding the
        sentence it was read in (session 30). A node that goes takes the scope's relations
        naming it: ``graph()`` of its other end showed them, an edge without its node, and
        retrieval's graph stage walked them (session 31)."""
        if not names and not unnamed:
            return 0
        remaining: dict[str, list[tuple[float, dict[str, Any]]]] = {}
        named: set[str] = set()
        for at, extra in self._run(
                "SELECT at, extra FROM items WHERE scope = %s AND kind = 'entity' ORDER BY at, id",
                (scope,)):
            ex = json.loads(extra) if isinstance(extra, str) else extra or {}
            key = entity_key(ex)
            named.add(key)
            if key in names:
                remaining.setdefault(key, []).append((float(at), ex))
        gone = 0
        for eid, norm in self._run("SELECT id, norm_name FROM entities WHERE scope = %s",
                                   (scope,)).fetchall():
            if norm not in names and not (unnamed and norm not in named):
                continue
            seen = remaining.get(norm)
            if not seen:
                gone += self._run("DELETE FROM entities WHERE id = %s", (eid,)).rowcount
                self._run("DELETE FROM relations WHERE scope = %s"
                          " AND (source_entity = %s OR target_entity = %s)", (scope, norm, norm))
                continue
            type_ = next((str(e.get("type")) for _, e in seen
                          if e.get("type") not in (None, "name", "thing")),
                         str(seen[0][1].get("type") or "thing"))
            self._run(
                "UPDATE entities SET name = %s, mentions = %s, first_seen = %s, last_seen = %s,"
                " context = %s, type = %s WHERE id = %s",
                (str(seen[0][1].get("name") or norm), len(seen), seen[0][0], seen[-1][0],
                 str(seen[-1][1].get("context") or ""), type_, eid))
        return gone

    # -- facts --------------------------------------------------------------------------
    def insert_fact(self, row: dict[str, Any]) -> int:
        column, value = self._fresh_id("facts")  # a forgotten fact's events outlive it
        return self._insert_id(
            f"INSERT INTO facts ({column}item_id, scope, subject, predicate, object, norm_subject,"
            " norm_predicate, norm_object, source, session_id, message_id, at, last_accessed,"
            f" created_at) VALUES ({value}%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (row.get("item_id"), row["scope"], row["subject"], row["predicate"], row["object"],
             row["norm_subject"], row["norm_predicate"], row["norm_object"],
             row.get("source", "stated"), row.get("session_id"), row.get("message_id"), row["at"],
             row["at"], time.time()),
        )

    def session_facts(self, session_id: int) -> list[StoredFact]:
        rows = self._run(
            f"SELECT {FACT_COLS} FROM facts WHERE session_id = %s ORDER BY at, id", (session_id,)
        )
        return [fact(r) for r in rows]

    def current_facts(self, scope: str, norm_subject: str, norm_predicate: str) -> list[tuple[StoredFact, str]]:
        """Current facts with this subject and predicate, with their normalized object.

        The scope's facts lock is taken first (see ``_lock_scope_facts``).
        """
        self._lock_scope_facts(scope)
        rows = self._run(
            f"SELECT {FACT_COLS}, norm_object FROM facts WHERE scope = %s AND norm_subject = %s"
            " AND norm_predicate = %s AND status = 'current' ORDER BY at, id",
            (scope, norm_subject, norm_predicate),
        )
        return [(fact(r), r[14]) for r in rows]

    def reinforce_fact(self, fact_id: int, at: float) -> None:
        self._run(
            f"UPDATE facts SET reinforcements = reinforcements + 1, {_LATER_ACCESS} WHERE id = %s",
            (at, at, fact_id),
        )

    def supersede_fact(self, old_id: int, new_id: int) -> None:
        """Mark a fact superseded by another (kept for audit, excluded from recall)."""
        self._run(
            "UPDATE facts SET status = 'superseded', superseded_by = %s WHERE id = %s",
            (new_id, old_id),
        )
        self._run(
            "UPDATE items SET status = 'superseded', updated_at = %s WHERE id ="
            " (SELECT item_id FROM facts WHERE id = %s)", (time.time(), old_id),
        )

    def log_fact_event(self, fact: StoredFact, kind: str, at: float, *,
                       other_id: int | None = None, session_id: int | None = None,
                       message_id: int | None = None, written_subject: str | None = None) -> None:
        """Record an event of ``fact``: ``session_id`` and ``message_id`` are the session
        and the turn whose statement made it (None: no one turn), which an erase of that
        turn matches it by (session 29: by session and time before). ``written_subject``:
        a forgotten fact's mark (``forget_fact``: ``fact.subject`` is its key) keeps the
        subject as written, which a re-keying of names keys it by again (session 32)."""
        self._run(
            "INSERT INTO fact_events (fact_id, kind, scope, subject, predicate, object, other_id,"
            " session_id, message_id, at, written_subject)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (fact.id, kind, fact.scope, fact.subject, fact.predicate, fact.object, other_id,
             session_id, message_id, at, written_subject),
        )

    def get_fact(self, fact_id: int) -> StoredFact:
        row = self._run(f"SELECT {FACT_COLS} FROM facts WHERE id = %s", (fact_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"fact {fact_id} does not exist")
        return fact(row)

    def list_facts(self, scope: str | None = None, norm_subject: str | None = None,
                   include_superseded: bool = False, limit: int = 1000,
                   offset: int = 0,
                   after: tuple[str, str, str, float, int] | None = None,
                   before: tuple[str, str, str, float, int] | None = None) -> list[StoredFact]:
        """``after``/``before``: as ``list_sessions``."""
        where: list[str] = []
        params: list[Any] = []
        if scope is not None:
            where.append("scope = %s")
            params.append(scope)
        if norm_subject is not None:
            where.append("norm_subject = %s")
            params.append(norm_subject)
        if not include_superseded:
            where.append("status = 'current'")
        key, back = (before, True) if before is not None else (after, False)
        if key is not None:
            # the row's own time when it is still stored (as ``list_sessions``)
            row = self._run("SELECT at FROM facts WHERE id = %s", (key[4],)).fetchone()
            cond, more = self._after(
                tuple((col, back) for col in ("scope", "subject", "predicate", "at", "id")),
                (*key[:3], row[0] if row else key[3], key[4]))
            where.append(cond)
            params.extend(more)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        c, o = self.TEXT_ORDER, " DESC" if back else ""
        rows = [fact(r) for r in self._run(
            f"SELECT {FACT_COLS} FROM facts {clause} ORDER BY scope{c}{o}, subject{c}{o},"
            f" predicate{c}{o}, at{o}, id{o} LIMIT %s OFFSET %s",
            (*params, limit, offset),
        )]
        return rows[::-1] if back else rows

    def fact_history(self, scope: str | None, norm_subject: str, norm_predicate: str) -> list[StoredFact]:
        """Every value a subject's predicate has had, oldest first, current or not."""
        sql = f"SELECT {FACT_COLS} FROM facts WHERE norm_subject = %s AND norm_predicate = %s"
        params: list[Any] = [norm_subject, norm_predicate]
        if scope is not None:
            sql += " AND scope = %s"
            params.append(scope)
        return [fact(r) for r in self._run(sql + " ORDER BY at, id", params)]

    def fact_events(self, fact_ids: Sequence[int]) -> list[dict[str, Any]]:
        """The events of these facts, oldest first: ``fact_id, kind, other_id, session_id,
        message_id, at``."""
        rows: list[Any] = []
        for cond, params in self._id_batches("fact_id", list(dict.fromkeys(fact_ids))):
            rows += self._run(
                f"SELECT fact_id, kind, other_id, session_id, at, id, message_id FROM fact_events"
                f" WHERE {cond}", params,
            ).fetchall()
        rows.sort(key=lambda r: (r[4], r[5]))
        return [{"fact_id": r[0], "kind": r[1], "other_id": r[2], "session_id": r[3],
                 "message_id": r[6], "at": dt(r[4])} for r in rows]

    def facts_for_items(self, item_ids: Sequence[int]) -> dict[int, StoredFact]:
        """The fact behind each of these items, by item id (items without one are absent)."""
        out: dict[int, StoredFact] = {}
        for cond, params in self._id_batches("item_id", list(dict.fromkeys(item_ids))):
            for r in self._run(f"SELECT {FACT_COLS} FROM facts WHERE {cond} ORDER BY id", params):
                out[r[1]] = fact(r)
        return out

    def superseded_messages(self, message_ids: Sequence[int]) -> set[int]:
        """Messages whose stated facts have all been superseded since (at least one)."""
        out: set[int] = set()
        for cond, params in self._id_batches("message_id", list(dict.fromkeys(message_ids))):
            out.update(r[0] for r in self._run(
                f"SELECT message_id FROM facts WHERE {cond} AND status <> 'ended' GROUP BY message_id"
                " HAVING sum(CASE WHEN status = 'current' THEN 1 ELSE 0 END) = 0", params,
            ))
        return out

    def partly_superseded_messages(self, message_ids: Sequence[int]) -> set[int]:
        """Messages of which some stated facts have been superseded since and some are
        current ("I live in Lisbon and work at Feedzai", after a move)."""
        out: set[int] = set()
        for cond, params in self._id_batches("message_id", list(dict.fromkeys(message_ids))):
            out.update(r[0] for r in self._run(
                f"SELECT message_id FROM facts WHERE {cond} AND status <> 'ended' GROUP BY message_id"
                " HAVING sum(CASE WHEN status = 'current' THEN 1 ELSE 0 END) > 0"
                " AND sum(CASE WHEN status = 'current' THEN 0 ELSE 1 END) > 0", params,
            ))
        return out

    def touch_facts(self, fact_ids: Sequence[int], at: float) -> None:
        for cond, params in self._id_batches("id", list(dict.fromkeys(fact_ids))):
            self._run(f"UPDATE facts SET {_LATER_ACCESS} WHERE {cond}", (at, at, *params))

    def delete_fact(self, fact_id: int) -> int:
        """Hard delete: the fact, its item and that item's lexical and vector rows, and the
        graph's relations that restate it (``forget_relations_of``); how many relations."""
        old = self.get_fact(fact_id)
        relations = self.forget_relations_of(old)
        self._run("UPDATE facts SET superseded_by = NULL WHERE superseded_by = %s", (fact_id,))
        self._run("DELETE FROM facts WHERE id = %s", (fact_id,))
        if old.item_id is not None:
            self._run("DELETE FROM items WHERE id = %s", (old.item_id,))
        self._run("DELETE FROM fact_events WHERE fact_id = %s", (fact_id,))
        return relations
