"""Erasure: forget a whole scope, or some sessions, everywhere in the database (both
backends; docs/erasure.md).

``erase_scope`` and ``erase_sessions`` each run in ONE transaction: a crash leaves either
everything or nothing. Every table that holds a user's content is covered: sessions,
messages, items (turns, summaries, facts', entities' and observations' items, notes,
decision records and roll-ups made of erased items) with their lexical rows (FTS5 /
tsvector, written by the items' triggers) and vectors, the embedding cache rows of the
erased texts, facts with their events, entities, relations, journaled packs that drew on
an erased item or message (or, for a scope, every pack of it), and the change log's
records of what was erased (their documents carry texts). What the scopes' rows deleted
before the erase left goes too (session 27): their change records' documents, the cached
vectors and entity nodes of the texts and names those records hold, packs that drew on them
(``_logged_items``, ``_blank_gone``).

What stays: counters (numbers), one content-free change record per erasure for the live
stream (``scope.erased`` with the counts; for sessions, each deleted entity's own
``delete`` record, which carries ids and a topic only), ``vector_log`` rows (item ids) and
API keys (scope patterns are access rules, not memory).

Locks are taken in the one order of docs/store.md ("Session 27: locks and their order"),
so an erase never deadlocks with another writer (PostgreSQL): the scopes' message locks
(``add_message``), their facts locks (the summariser takes it first), the change log
sequencer's lock (``_lock_change_log``: before any row), the sessions' rows (the indexer's
claim), the other rows, and the embedding cache's rows last (``_forget_cached``: shared by
every scope). A worker that summarised an erased session before the erase writes nothing
after it: ``store_intelligence`` checks that the session still exists under the facts lock.

A dialect adds ``_erase_prepare`` (SQLite: ``secure_delete``), ``_erase_finish``
(SQLite: the full-text index merged so no segment keeps an erased term),
``JSON`` (a document parameter: PostgreSQL casts it to jsonb), ``_log_last_pack`` and
``_after_erase`` (SQLite: the WAL checkpointed and truncated, outside the transaction).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from memlane.errors import NotFoundError
from memlane.index.embed import text_hash
from memlane.index.normalize import embedded_fact_text, fact_text, name_key
from memlane.store.sql.base import DERIVED_KINDS, SqlStore, entity_key
from memlane.store.rows import dt
from memlane.store.walks import LEASE_PREFIX, WALK_PREFIX, scope_tag

_UNSTORED = "NOT EXISTS (SELECT 1 FROM facts WHERE facts.id = fact_events.fact_id)"
"""A ``fact_events`` row of a fact no longer stored."""
_GONE_EVENT = f"object <> '' AND {_UNSTORED}"
"""An event of a fact no longer stored (hygiene evicted or expired its item), not one of the
marks ``forget_fact`` leaves (no value). (``EraseMixin._GONE`` is the change records'.)"""
_ITEM_TEXTS = ("SELECT i.id, i.text, i.kind, i.extra, m.speaker, m.role FROM items i"
               " LEFT JOIN messages m ON m.id = i.message_id")
"""An item's text with what its vector's text depends on (``_vector_text``)."""
_SCOPED_TEXTS = _ITEM_TEXTS.replace("i.id", "i.scope", 1)
"""The same, the item's scope first in place of its id (``deleted_texts``)."""


def _vector_text(text: str, kind: str, extra: Any, speaker: str | None, role: str | None) -> str:
    """The text an item's vector was made from (``embedded_fact_text`` for a fact)."""
    if kind != "fact":
        return text
    data = json.loads(extra) if isinstance(extra, str) else (extra or {})
    if not all(isinstance(data.get(k), str) for k in ("subject", "predicate", "object")):
        return text
    return embedded_fact_text(data["subject"], data["predicate"], data["object"], speaker, role)

__all__ = ["ERASE_KINDS", "EraseMixin"]

ERASE_KINDS = (
    "sessions", "messages", "items", "vectors", "cached_vectors", "facts", "fact_events",
    "entities", "relations", "packs", "changes",
)
"""The keys of an erase's counts, in the order reports print them."""

ERASED_DOC = json.dumps({"erased": True})
"""What a change record of an erased entity holds instead of its document."""


class EraseMixin(SqlStore):
    """``erase_scope`` and ``erase_sessions`` in SQL both dialects run."""

    # -- dialect hooks ------------------------------------------------------------------
    def _erase_prepare(self) -> None:
        """Inside the transaction, before any delete."""

    def _erase_finish(self) -> None:
        """Inside the transaction, after every delete."""

    def _after_erase(self) -> None:
        """After the commit."""

    def _lock_change_log(self) -> None:
        """Every erase takes the change log sequencer's table lock (PostgreSQL) after its
        advisory locks and before any row, as the sequencer's other takers
        (``live_read``, ``prune_changes``, ``restore_change_head``) take it first in their
        transactions: the erase blanked records row by row while the sequencer held others
        it wanted, "deadlock detected" (session 26); and an erase that took it only before
        its first change record held rows by then (the embedding cache's, shared by every
        scope) that an erase holding the lock wanted next (session 27)."""

    def vacuum(self) -> None:
        """Rewrite the database's tables so no page keeps a stale copy of an erased row
        (``Memory.vacuum``, ``[memory.erase] vacuum``; docs/erasure.md)."""
        raise NotImplementedError

    JSON = "%s"
    """A JSON document parameter (PostgreSQL: ``%s::jsonb``)."""

    def _log_last_pack(self, scope: str) -> None:
        """A change record setting the scope's ``last_pack`` to its latest remaining pack
        (after packs were deleted)."""
        raise NotImplementedError

    # -- the operations -------------------------------------------------------------------
    def erase_scope(self, scope: str, spellings: Sequence[str] = ()) -> dict[str, int]:
        """Delete everything the database holds of ``scope`` and of each of ``spellings``
        (the other spellings an old database holds of it, ``ingest.spellings``) in ONE
        transaction; the counts per kind (``ERASE_KINDS``) summed over them, all zero when
        none holds anything (then nothing is written). One transaction for them all: a
        writer that looked the scope up in its old spelling and waited on the erase finds
        the old spelling gone when it writes, and writes the one spelling; with a
        transaction per spelling it wrote into the old one between two of them, and the
        next erased its write (session 24)."""
        counts = dict.fromkeys(ERASE_KINDS, 0)
        with self.db.atomic():
            self._erase_prepare()
            names = self.lock_scopes([scope, *spellings])  # the one lock order
            self._lock_change_log()
            # every spelling's sessions in one id order, as the indexer's claim takes them
            sessions = self._lock_sessions(f"SELECT id FROM sessions WHERE scope IN"
                                           f" ({', '.join(['%s'] * len(names))})", names)
            done = [(name, *self._erase_one_scope(name)) for name in names]
            self._forget_walks(names, sessions, {})
            erased = False
            for name, one, texts in done:  # after every other row: the change log's and
                # the embedding cache's (every scope's texts share them)
                one["cached_vectors"] = self._forget_cached(texts)
                if any(one.values()):
                    self._log_scope_erased(name, one)
                for kind, n in one.items():
                    counts[kind] += n
                erased = erased or any(one.values())
            if not erased:
                return counts
            self.bump("scopes_erased")  # type: ignore[attr-defined]
            self.bump("sessions_erased", counts["sessions"])  # type: ignore[attr-defined]
            self._erase_finish()
        self._after_erase()
        return counts

    def _erase_one_scope(self, scope: str) -> tuple[dict[str, int], list[str]]:
        """Inside ``erase_scope``'s transaction, its locks taken: the rows of one spelling
        but its change records and its texts' embedding cache rows (``_log_scope_erased``,
        ``_forget_cached``: last); the counts and the texts of its items."""
        counts = dict.fromkeys(ERASE_KINDS, 0)
        # an earlier erasure's own record is not the scope's content
        counts["changes"] = int(self._run(
            "SELECT count(*) FROM changes WHERE scope = %s AND entity <> 'scope'",
            (scope,)).fetchone()[0])
        item_ids = [r[0] for r in self._run("SELECT id FROM items WHERE scope = %s", (scope,))]
        message_ids = [r[0] for r in self._run(
            "SELECT id FROM messages WHERE scope = %s", (scope,))]
        texts = list(self._with_vector_texts(
            self._run(f"{_ITEM_TEXTS} WHERE i.scope = %s", (scope,))))
        # and every text its change records hold (items deleted before, a stored item's
        # earlier text, facts' vector texts as its speakers made them): one read
        earlier, earlier_texts, _ = self._logged_items([scope], every=True)
        texts.extend(earlier_texts)
        counts["packs"] = self._run("DELETE FROM packs WHERE scope = %s", (scope,)).rowcount
        counts["packs"] += self._delete("packs", "id", self._packs_using(
            None, [*item_ids, *earlier], message_ids))
        counts["fact_events"] = self._run(
            "DELETE FROM fact_events WHERE scope = %s", (scope,)).rowcount
        counts["facts"] = self._run("DELETE FROM facts WHERE scope = %s", (scope,)).rowcount
        counts["relations"] = self._run(
            "DELETE FROM relations WHERE scope = %s", (scope,)).rowcount
        counts["entities"] = self._run(
            "DELETE FROM entities WHERE scope = %s", (scope,)).rowcount
        counts["vectors"] = self._run(
            "DELETE FROM vectors WHERE item_id IN (SELECT id FROM items WHERE scope = %s)",
            (scope,)).rowcount
        counts["items"] = self._run("DELETE FROM items WHERE scope = %s", (scope,)).rowcount
        counts["messages"] = self._run(
            "DELETE FROM messages WHERE scope = %s", (scope,)).rowcount
        counts["sessions"] = self._run(
            "DELETE FROM sessions WHERE scope = %s", (scope,)).rowcount
        return counts, texts

    def _forget_walks(self, erased: Sequence[str], sessions: Sequence[int],
                      scopes: dict[int, str], *, moved: Sequence[int] = ()) -> None:
        """Where the meaning backfill's walks stand (``store.walks``), after ``erased``
        scopes and ``sessions`` (of ``scopes``, when known) went: a walk of an erased scope
        goes (its key is the scope's name hashed), and a walk whose place is an erased
        session is set on the nearest session it had passed that is kept (its start and id;
        none: from the newest again). Session 35: both outlived ``memlane erase``. So is a
        walk whose place is a session of ``moved`` (kept, some of its messages erased) that
        no longer starts at the place's time: that time was its erased first message's
        (session 36: ``erase_messages`` left it in the walk's row)."""
        gone_tags = {scope_tag(s) for s in erased}
        tags = {scope_tag(s): s for s in scopes.values()}
        gone, stretched = set(sessions), set(moved)
        # the leases first: a round storing its place holds its lease's row to its commit,
        # so it commits before the walk rows are read (its row, a first place, inserted
        # too), or stores after this erase (and reads what the erase left); session 36: a
        # first place inserted meanwhile kept an erased session, or an erased scope's key
        list(self._run(f"SELECT key FROM meta WHERE substr(key, 1, %s) = %s{self.FOR_UPDATE}",
                       (len(LEASE_PREFIX), LEASE_PREFIX)))
        for key, value in list(self._run(
                f"SELECT key, value FROM meta WHERE substr(key, 1, %s) = %s{self.FOR_UPDATE}",
                (len(WALK_PREFIX), WALK_PREFIX))):  # locked: a round's place waits (_give)
            tag = str(key)[len(WALK_PREFIX):].split(" ", 1)[0]
            if tag in gone_tags:
                self._run("DELETE FROM meta WHERE key = %s", (key,))
                continue
            try:
                walk = json.loads(value) if value else {}
                started, passed = float(walk["after"][0]), int(walk["after"][1])
            except (ValueError, TypeError, IndexError, KeyError):
                continue  # no place (or not a walk's): nothing of an erased session in it
            if passed in stretched:
                row = self._run("SELECT started_at FROM sessions WHERE id = %s",
                                (passed,)).fetchone()
                if row is not None and dt(float(row[0])).timestamp() == started:
                    continue  # it still starts there: the place is a kept message's time
            elif passed not in gone:
                continue
            walk["after"] = (self._session_before(started, passed, tags.get(tag))
                             if tag == "*" or tag in tags else None)
            self._run("UPDATE meta SET value = %s WHERE key = %s", (json.dumps(walk), key))

    def _session_before(self, started: float, sid: int, scope: str | None
                        ) -> list[float | int] | None:
        """The key of the session ``list_sessions`` lists just before ``(started, sid)``
        (of ``scope``, when given): the oldest of the newer ones; None: none is newer."""
        where, params = ("AND scope = %s", [scope]) if scope is not None else ("", [])
        row = self._run(
            "SELECT started_at, id FROM sessions WHERE (started_at > %s OR (started_at = %s"
            f" AND id > %s)) {where} ORDER BY started_at, id LIMIT 1",
            [started, started, sid, *params]).fetchone()
        return None if row is None else [dt(float(row[0])).timestamp(), int(row[1])]

    def _log_scope_erased(self, scope: str, counts: dict[str, int]) -> None:
        """Every record of the erased ``scope`` goes, the deletes' own included; one
        content-free record with the counts stays, written first so that it is the newest
        (SQLite's ids are max(id) + 1: they must never go back)."""
        mark = self._insert_id(
            "INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)"
            f" VALUES (%s, 'scope', 0, 'delete', 'scope.erased', {self.JSON}, %s)",
            (scope, self._erased_doc(counts), time.time()))
        self._run("DELETE FROM changes WHERE scope = %s AND id <> %s", (scope, mark))

    def erase_sessions(self, session_ids: Sequence[int]) -> dict[str, int]:
        """Delete the sessions with everything derived from them; counts per kind. Every
        id must exist (``NotFoundError`` naming the first that does not, nothing deleted).

        What else of their scopes goes: facts, relations and fact events of these
        sessions (the facts they superseded are settled again, ``resettle_facts``: the
        newest statement left is current; a kept session that had stated one of their facts
        again is queued to be summarised again, so its statement is a fact once more);
        entities no remaining item of the scope mentions (the others are
        rebuilt from the remaining entity items: mentions, first and last seen, context);
        decision records and roll-ups made of an erased item; packs of the scope that
        drew on an erased item or message.
        """
        wanted = sorted({int(i) for i in session_ids})
        if not wanted:
            return dict.fromkeys(ERASE_KINDS, 0)
        return self._erase(wanted, [])

    def erase_messages(self, message_ids: Sequence[int]) -> dict[str, int]:
        """Delete messages (turns a user takes back) with everything derived from them;
        counts per kind. Every id must exist (``NotFoundError`` naming the first that does
        not, nothing deleted).

        A message's items go (its turns, observations and facts' items), and so does what
        its session's intelligence wrote (summary, facts, entities' and observations'
        items, relations: they were read from every message of the session, this one
        included), with what an erase of the session would take with them (summaries
        written on demand over it, decision records and roll-ups made of an erased item,
        packs that drew on one, entities no remaining item names, the change log's
        documents); the session keeps its other messages, numbered again 1..n, and is
        queued to be summarised again, so its intelligence is rebuilt from what is left.
        A session left without messages is erased whole (``erase_sessions``)."""
        wanted = sorted({int(i) for i in message_ids})
        if not wanted:
            return dict.fromkeys(ERASE_KINDS, 0)
        return self._erase([], wanted)

    def _erase(self, session_ids: list[int], only_messages: list[int]) -> dict[str, int]:
        """``erase_sessions`` of ``session_ids`` and ``erase_messages`` of ``only_messages``
        in one transaction."""
        counts = dict.fromkeys(ERASE_KINDS, 0)
        with self.db.atomic():
            self._erase_prepare()
            scopes: dict[int, str] = {}
            for cond, params in self._id_batches("id", session_ids):
                scopes.update((int(r[0]), r[1]) for r in self._run(
                    f"SELECT id, scope FROM sessions WHERE {cond}", params))
            missing = [i for i in session_ids if i not in scopes]
            if missing:
                raise NotFoundError(f"session {missing[0]} does not exist")
            taken = self._message_sessions(only_messages)
            scopes.update((sid, scope) for sid, scope in taken.values())
            self.lock_scopes(scopes.values())  # the one lock order (docs/store.md)
            self._lock_change_log()
            locked = self._lock_sessions_in(sorted(scopes))
            if len(locked) < len(scopes):  # erased meanwhile by another transaction
                gone = sorted(set(scopes) - set(locked))
                raise NotFoundError(f"session {gone[0]} does not exist")
            taken = self._message_sessions(only_messages)  # read again under the locks
            whole = set(session_ids)
            # the sessions that lose some messages and keep others; one left with none
            # goes whole
            touched: dict[int, set[int]] = {}
            for mid, (sid, _) in taken.items():
                if sid not in whole:
                    touched.setdefault(sid, set()).add(mid)
            left = dict.fromkeys(touched, 0)
            for sid, n in self._rows("SELECT session_id, count(*) FROM messages WHERE {cond}"
                                     " GROUP BY session_id", "session_id", sorted(touched)):
                left[int(sid)] = int(n) - len(touched[int(sid)])
            whole.update(sid for sid, n in left.items() if n <= 0)
            parts = sorted({m for sid, mids in touched.items() if sid not in whole for m in mids})
            renumber = sorted(sid for sid in touched if sid not in whole)
            ids = sorted(whole)
            message_ids = sorted({*self._ids("SELECT id FROM messages WHERE {cond}",
                                             "session_id", ids), *parts})
            item_ids = set(self._ids("SELECT id FROM items WHERE {cond}", "session_id", ids))
            item_ids.update(self._ids("SELECT id FROM items WHERE {cond}", "message_id",
                                      message_ids))
            # what a kept session's intelligence wrote was read from the erased messages
            # too: it goes, and is written again from the others (below)
            for sid, iid, extra in self._rows(
                    f"SELECT session_id, id, extra FROM items WHERE kind IN {DERIVED_KINDS}"
                    " AND {cond}",
                    "session_id", renumber):
                data = json.loads(extra) if isinstance(extra, str) else (extra or {})
                if not data.get("on_demand"):
                    item_ids.add(int(iid))
            item_ids.update(self._summaries_quoting(sorted(set(scopes.values())), message_ids))
            derived, absorbed = self._derived_items(sorted(set(scopes.values())), item_ids)
            item_ids.update(derived)
            items = sorted(item_ids)
            fact_ids = set(self._ids("SELECT id FROM facts WHERE {cond}", "session_id",
                                     [*ids, *renumber]))
            fact_ids.update(self._ids("SELECT id FROM facts WHERE {cond}", "item_id", items))
            fact_ids.update(self._ids("SELECT id FROM facts WHERE {cond}", "message_id",
                                      message_ids))
            facts = sorted(fact_ids)
            entity_names = {entity_key(r[0]) for r in
                            self._rows("SELECT extra FROM items WHERE kind = 'entity' AND {cond}",
                                       "id", items)}
            texts = list(self._with_vector_texts(
                self._rows(f"{_ITEM_TEXTS} WHERE {{cond}}", "i.id", items)))
            # what the scopes' change log still holds of items deleted before this erase (a
            # summary a late message had the session summarised again for, a compaction, a
            # merge): their texts (cached vectors) and their ids (packs that quoted them)
            earlier, earlier_texts, earlier_names = self._logged_items(
                sorted(set(scopes.values())))
            texts.extend(earlier_texts)
            # an entity only an earlier summary named (a late message had the session
            # summarised again, and the new summary names it otherwise) is rebuilt from the
            # entity items left like the erased ones' (deleted when none names it)
            entity_names.update(earlier_names)
            pack_scopes: set[str] = set()
            packs: list[int] = []
            for where in [*sorted(set(scopes.values())), None]:
                doomed = self._packs_using(where, [*items, *earlier], message_ids)
                counts["packs"] += self._delete("packs", "id", doomed)
                packs.extend(doomed)
                if doomed and where is not None:
                    pack_scopes.add(where)
            for scope in sorted(pack_scopes):   # before the session's own record
                self._log_last_pack(scope)
            # facts these sessions superseded are settled again once theirs are gone
            # (resettle_facts, below); the summaries an erased decision record had absorbed
            # are active again
            orphans = self.facts_superseded_by(facts)  # type: ignore[attr-defined]
            said = self.fact_keys(facts)  # type: ignore[attr-defined]
            # a kept session that stated an erased fact again (a reinforcement) is
            # summarised again, so its own statement is a fact once more: erasing the
            # session that first said "I live in Berlin" left Lisbon current although a
            # later session, kept, said Berlin too
            restate = sorted({int(r[0]) for r in self._rows(
                "SELECT session_id FROM fact_events WHERE kind = 'reinforced'"
                " AND session_id IS NOT NULL AND {cond}", "fact_id", facts)} - set(ids))
            # only items of the erased sessions' scopes: the links are ids, and one written
            # before clients were refused extra.absorbed (session 19) could name another
            # tenant's items, which the erase then made active again
            in_scopes = sorted(set(scopes.values()))
            marks = ", ".join(["%s"] * len(in_scopes))
            for cond, params in self._id_batches("id", sorted(absorbed - item_ids)):
                self._run(f"UPDATE items SET status = 'active' WHERE status = 'superseded'"
                          f" AND scope IN ({marks}) AND {cond}", [*in_scopes, *params])
            # the erased sessions' reinforcements of kept facts go with their count (session 26)
            counts["fact_events"] = self.unreinforce(ids)  # type: ignore[attr-defined]
            counts["fact_events"] += self._delete("fact_events", "fact_id", facts)
            counts["fact_events"] += self._delete("fact_events", "session_id", ids)
            counts["fact_events"] += self._delete("fact_events", "other_id", facts)
            # the events of facts no longer stored (hygiene evicted or expired their items)
            # that the erased turns made, every event of a fact one of them stated first, and
            # of a fact with an event of no one turn of their sessions (read from every
            # message, as a summary is; an old row whose turn was not known): they hold the
            # fact's words (a turn's named sister); nothing reads them (``fact_events`` is
            # asked of stored facts, ``forgotten_fact_events`` of the marks ``forget_fact``
            # leaves, which have no value: ``_forget_marks_of``). Another turn's stay, whatever
            # its time (session 29: every gone fact's events of the session went before)
            counts["fact_events"] += self._delete("fact_events", "fact_id", [
                *self._ids(f"SELECT fact_id FROM fact_events WHERE {_GONE_EVENT}"
                           " AND message_id IS NULL AND {cond}", "session_id", renumber),
                *self._ids(f"SELECT fact_id FROM fact_events WHERE {_GONE_EVENT}"
                           " AND kind = 'added' AND {cond}", "message_id", parts)])
            for cond, params in self._id_batches("message_id", parts):
                counts["fact_events"] += self._run(
                    f"DELETE FROM fact_events WHERE {_GONE_EVENT} AND {cond}", params).rowcount
            counts["fact_events"] += self._forget_marks_of(parts)
            counts["relations"] = self._delete("relations", "session_id", [*ids, *renumber])
            counts["facts"] = self._delete("facts", "id", facts)
            # the kept sessions' relations restating them (a session that said it again,
            # queued again below): no fact says them now (session 31)
            counts["relations"] += self.forget_unsaid_relations(said)  # type: ignore[attr-defined]
            self.resettle_facts(orphans)  # type: ignore[attr-defined]
            for cond, params in self._id_batches("id", restate):
                self._run("UPDATE sessions SET summarized_at = NULL, attempts = 0, deferrals = 0,"
                          " next_attempt_at = 0, status = 'closed' WHERE summarized_at IS NOT NULL"
                          f" AND {cond}", params)
            counts["vectors"] = self._delete("vectors", "item_id", items)
            counts["items"] = self._delete("items", "id", items)
            counts["messages"] = self._delete("messages", "id", message_ids)
            counts["sessions"] = self._delete("sessions", "id", ids)
            for sid in renumber:
                self._renumber(sid)
            # after the renumbering: a kept session whose first message went starts later
            self._forget_walks((), ids, {sid: scopes[sid] for sid in (*ids, *renumber)},
                               moved=renumber)
            # with the nodes no entity item names (an older memlane's hygiene kept them
            # when it evicted their items; they hold the sentence they were read in)
            for scope in sorted(set(scopes.values())):
                counts["entities"] += self.rebuild_entities(  # type: ignore[attr-defined]
                    scope, entity_names, unnamed=True)
            # after every other row, the embedding cache's (every scope's texts share them)
            # and the change log's (under the sequencer's lock)
            counts["cached_vectors"] = self._forget_cached(texts)
            # the records of what went keep their place in the log but lose their
            # documents (which hold texts): a client behind them still applies every
            # patch (an add of {"erased": true}, then the delete's remove)
            for entity, gone in (("session", ids), ("item", items), ("fact", facts),
                                 ("pack", packs)):
                counts["changes"] += self.blank_changes(entity, gone)
            counts["changes"] += self._blank_gone(sorted(set(scopes.values())))
            # a kept session's older records list the participants it had: a speaker
            # erased with their one turn (session 28); its renumbering wrote its state anew
            counts["changes"] += self._blank_older("session", renumber)
            for sid in ids:
                self._run(
                    f"UPDATE changes SET topic = 'session.erased', doc = {self.JSON}"
                    " WHERE entity = 'session' AND entity_id = %s AND op = 'delete'",
                    (self._erased_doc(counts), sid))
            self.bump("sessions_erased", len(ids))  # type: ignore[attr-defined]
            if parts:
                self.bump("messages_erased", len(parts))  # type: ignore[attr-defined]
            self._erase_finish()
        self._after_erase()
        return counts

    def _forget_marks_of(self, message_ids: Sequence[int]) -> int:
        """Delete the marks ``forget_fact`` left of the statements these messages of kept
        sessions made (an ``added`` or ``reinforced`` event of the message: session 29), and
        a fact's other marks once none of its statements is left; how many rows went. A mark
        keeps the fact's subject (a turn's named sister: session 28, third round); the erased
        turn is never read again, so its marks have nothing to keep out. A mark of no known
        turn (an old row the migration could not give one, ``0017_fact_event_message``; a
        fact of no one turn) is matched as before: recorded in the message's session at its
        time (a fact's time is its message's); when another kept message of the session
        shares the time (they may be that message's), only if the name it keeps is among the
        erased message's words and none of those messages' (session 30). Before the messages
        are deleted."""
        n = 0
        mine = f" AND {_UNSTORED}"
        stated = "object = '' AND kind IN ('added', 'reinforced')"
        erased = set(message_ids)
        facts = set(self._ids(f"SELECT fact_id FROM fact_events WHERE {stated}{mine} AND {{cond}}",
                              "message_id", sorted(erased)))
        for cond, params in self._id_batches("message_id", sorted(erased)):
            n += self._run(f"DELETE FROM fact_events WHERE {stated}{mine} AND {cond}",
                           params).rowcount
        for sid, at, text in list(self._rows("SELECT session_id, at, text FROM messages"
                                             " WHERE {cond}", "id", sorted(erased))):
            near = (sid, float(at) - 0.001, float(at) + 0.001)   # as ``_forgotten`` matches
            when = f"{stated} AND message_id IS NULL AND session_id = %s AND at BETWEEN %s AND %s"
            kept = [f" {name_key(str(r[1]))} " for r in self._run(
                "SELECT id, text FROM messages WHERE session_id = %s AND at BETWEEN %s AND %s",
                near) if int(r[0]) not in erased]
            if kept:
                # other kept messages have its time: a mark is the erased turn's when the name
                # it keeps (its subject) is among the erased turn's words and none of theirs
                # (an old database's mark at a time a batch shared: session 30)
                said = f" {name_key(str(text))} "
                mark_ids = [(int(r[0]), int(r[1])) for r in self._run(
                    f"SELECT id, fact_id, subject FROM fact_events WHERE {when}{mine}", near)
                    if r[2] and f" {r[2]} " in said and not any(f" {r[2]} " in k for k in kept)]
                facts.update(fid for _, fid in mark_ids)
                n += self._delete("fact_events", "id", [eid for eid, _ in mark_ids])
                continue
            facts.update(int(r[0]) for r in self._run(
                f"SELECT fact_id FROM fact_events WHERE {when}{mine}", near))
            n += self._run(f"DELETE FROM fact_events WHERE {when}{mine}", near).rowcount
        for fid in sorted(facts):
            if self._run("SELECT 1 FROM fact_events WHERE fact_id = %s"
                         " AND kind IN ('added', 'reinforced')", (fid,)).fetchone() is None:
                n += self._run("DELETE FROM fact_events WHERE object = '' AND fact_id = %s",
                               (fid,)).rowcount
        return n

    def _message_sessions(self, message_ids: Sequence[int]) -> dict[int, tuple[int, str]]:
        """``{message id: (session id, scope)}``; ``NotFoundError`` naming the first id
        that is not stored."""
        out = {int(r[0]): (int(r[1]), r[2]) for r in self._rows(
            "SELECT id, session_id, scope FROM messages WHERE {cond}", "id", message_ids)}
        missing = [i for i in message_ids if i not in out]
        if missing:
            raise NotFoundError(f"message {missing[0]} does not exist")
        return out

    def _renumber(self, session_id: int) -> None:
        """A session that lost messages: the others numbered again 1..n in their order (a
        message appended next takes ``message_count + 1``), with their turns, and queued to
        be summarised again (a summary in flight is not kept: ``store_intelligence``)."""
        seqs = [int(r[0]) for r in self._run(
            "SELECT seq FROM messages WHERE session_id = %s ORDER BY seq", (session_id,))]
        moves = [(old, new) for new, old in enumerate(seqs, 1) if old != new]
        if moves:  # through negative numbers: (session_id, seq) is unique at every row
            low = moves[0][0]
            for table in ("messages", "items"):
                self._run(f"UPDATE {table} SET seq = -seq WHERE session_id = %s AND seq >= %s",
                          (session_id, low))
                for old, new in moves:
                    self._run(f"UPDATE {table} SET seq = %s WHERE session_id = %s AND seq = %s",
                              (new, session_id, -old))
        # the turn after an erased message had its words in its keys (``turn_keys``)
        self.rekey_turns([session_id])  # type: ignore[attr-defined]
        # its span and participants are those of the messages left: an erased first or
        # last message no longer stretches it (a later message joined it instead of opening
        # a session, and it showed when the erased one was sent), an erased speaker is no
        # longer listed (session 24)
        start, end = self._run("SELECT min(at), max(at) FROM messages WHERE session_id = %s",
                               (session_id,)).fetchone()
        who = {str(r[0]) for r in self._run(
            "SELECT DISTINCT coalesce(speaker, role) FROM messages WHERE session_id = %s",
            (session_id,))}
        had = self._run("SELECT participants FROM sessions WHERE id = %s",
                        (session_id,)).fetchone()[0]
        people = [p for p in json.loads(had or "[]") if p in who]
        self._run(
            "UPDATE sessions SET message_count = %s, started_at = %s, ended_at = %s,"
            " participants = %s, summarized_at = NULL, attempts = 0,"
            " deferrals = 0, next_attempt_at = 0, lease_until = NULL, failed_reason = NULL,"
            " status = CASE WHEN status = 'open' THEN 'open' ELSE 'closed' END WHERE id = %s",
            (len(seqs), start, end, json.dumps(people, ensure_ascii=False), session_id))

    def blank_changes(self, entity: str, ids: Sequence[int]) -> int:
        """The change log's records of erased ``entity`` rows keep their place but lose
        their documents (which hold texts): ``{"erased": true}``; how many. Under the
        change log sequencer's lock, which every erase holds already (taken here for a
        caller outside one)."""
        if ids:
            self._lock_change_log()
        n = 0
        for cond, params in self._id_batches("entity_id", list(ids)):
            n += self._run(
                f"UPDATE changes SET doc = {self.JSON} WHERE entity = %s"
                f" AND op <> 'delete' AND doc IS NOT NULL AND {cond}",
                [ERASED_DOC, entity, *params]).rowcount
        return n

    _GONE = ("(entity = 'session' AND NOT EXISTS (SELECT 1 FROM sessions t"
             " WHERE t.id = changes.entity_id))"
             " OR (entity = 'item' AND NOT EXISTS (SELECT 1 FROM items t"
             " WHERE t.id = changes.entity_id))"
             " OR (entity = 'fact' AND NOT EXISTS (SELECT 1 FROM facts t"
             " WHERE t.id = changes.entity_id))"
             " OR (entity = 'pack' AND NOT EXISTS (SELECT 1 FROM packs t"
             " WHERE t.id = changes.entity_id))")
    """A change record about a session, item, fact or pack no longer stored (ids are never
    given again on either store: SQLite's ``id_floor``, PostgreSQL's sequences)."""

    def _blank_older(self, entity: str, ids: Sequence[int]) -> int:
        """The change records of stored ``entity`` rows but the newest of each (which holds
        the row's state as it is) lose their documents, as ``blank_changes``'; how many."""
        n = 0
        for eid in ids:
            n += self._run(
                f"UPDATE changes SET doc = {self.JSON} WHERE entity = %s AND entity_id = %s"
                f" AND op <> 'delete' AND doc IS NOT NULL AND doc <> {self.JSON} AND id <"
                " (SELECT max(id) FROM changes WHERE entity = %s AND entity_id = %s)",
                (ERASED_DOC, entity, eid, ERASED_DOC, entity, eid)).rowcount
        return n

    def forget_pruned(self, position: str, cut: int) -> int:
        """Inside ``prune_changes``' transaction, under the change log sequencer's lock,
        before the records up to ``cut`` (of the dialect's ``position`` column) go: the
        embedding cache's vectors of the texts they hold of items and facts no longer
        stored (``_logged_items``) that no item of their scope holds (``forget_unheld``),
        as an erase of their scope would have taken them: a pruned record took its texts
        with it, and a later erase left their vectors (session 28). Session 28 took stored
        rows' too, for a row deleted after the prune by a re-summary or hygiene (no record
        of its text left); such a delete now takes its own texts' vectors (session 29), so
        the cache of what is stored outlives a prune. Rows every scope shares, last
        (docs/store.md). How many cached vectors."""
        scopes = [r[0] for r in self._run(
            f"SELECT DISTINCT scope FROM changes WHERE {position} <= %s"
            " AND entity IN ('item', 'fact')", (cut,))]
        return self.forget_unheld({
            scope: set(self._logged_items([scope], upto=(position, cut))[1])
            for scope in sorted(scopes)})

    def _logged_items(self, scopes: Sequence[str], every: bool = False,
                      upto: tuple[str, int] | None = None
                      ) -> tuple[list[int], list[str], set[str]]:
        """One read of ``scopes``' change records of items and facts no longer stored
        (``every``: of all their items and facts, for a scope erase, which deletes the
        others too): the ids of those items (packs that quoted them), the texts the records
        still hold (an item's text; a fact's sentence and its vector text as each speaker of
        the scope would have made it: ``embedded_fact_text``), and the names (normalized) of
        the entity items among them (``"{name} ({type})"``). An item a late message had
        its session summarised again for, or a compaction, deleted had its vector cached
        and, for an entity item, its node in the graph (session 27). Read before the
        records are blanked, the messages (their speakers) before they go. ``upto``:
        only the records up to a position (``forget_pruned``)."""
        ids: set[int] = set()
        texts: set[str] = set()
        names: set[str] = set()
        gone = "" if every else f" AND ({self._GONE})"
        if upto is not None:
            gone += f" AND {upto[0]} <= {int(upto[1])}"
        for scope in scopes:
            facts: list[dict[str, Any]] = []
            for entity, iid, doc in self._run(
                    "SELECT entity, entity_id, doc FROM changes WHERE scope = %s"
                    f" AND entity IN ('item', 'fact'){gone}", (scope,)):
                data = json.loads(doc) if isinstance(doc, str) else doc
                if entity == "item":
                    ids.add(int(iid))
                if not isinstance(data, dict):
                    continue
                if entity == "item" and isinstance(data.get("text"), str):
                    texts.add(data["text"])
                    if data.get("kind") == "entity":
                        text = data["text"]
                        name = text.rsplit(" (", 1)[0] if text.endswith(")") else text
                        names.add(name_key(name))
                elif entity == "fact" and all(isinstance(data.get(k), str)
                                              for k in ("subject", "predicate", "object")):
                    facts.append(data)
            if facts:  # the scope's speakers, read only when a fact needs them
                who = [(r[0], r[1]) for r in self._run(
                    "SELECT DISTINCT speaker, role FROM messages WHERE scope = %s", (scope,))]
                for data in facts:
                    spo = (data["subject"], data["predicate"], data["object"])
                    texts.add(fact_text(*spo))
                    texts.update(embedded_fact_text(*spo, speaker, role)
                                 for speaker, role in who or [(None, "user")])
        return sorted(ids), sorted(texts), names

    def _blank_gone(self, scopes: Sequence[str]) -> int:
        """Every change record of ``scopes`` about a session, item, fact or pack no longer
        stored loses its document (``blank_changes``' ``{"erased": true}``), whenever and
        however that row went: a record of a summary deleted before the erase, when a late
        message had its session summarised again, kept the erased words (session 27). The
        erased rows are gone by now, so this takes theirs too; a client behind still
        applies every patch (an add of ``{"erased": true}``, then the delete's remove). How
        many records. Under the change log sequencer's lock (every erase holds it)."""
        n = 0
        for scope in scopes:
            n += self._run(
                f"UPDATE changes SET doc = {self.JSON} WHERE scope = %s AND op <> 'delete'"
                f" AND doc IS NOT NULL AND doc <> {self.JSON} AND ({self._GONE})",
                (ERASED_DOC, scope, ERASED_DOC)).rowcount
        return n

    def forget_traces(self, scope: str | None, item_ids: Sequence[int],
                      fact_ids: Sequence[int], texts: Sequence[str],
                      entities: Iterable[str] = (),
                      entity_session: int | None = None) -> dict[str, int]:
        """Inside the transaction of ``forget_item`` or ``forget_fact``: what else holds
        the erased items' and facts' words goes too, as for a session erase: the packs of
        ``scope`` (and of no scope) that drew on one of the items, the embedding cache's
        vectors of ``texts``, the change log's documents of the items, facts and packs
        (``blank_changes``), and the graph's nodes of ``entities`` (the names of erased
        entity items: deleted when no entity item of the scope names them any more, else
        rebuilt from those), with the relations of ``scope`` naming one of them: all of
        them when its node goes, else those read in ``entity_session`` (the erased item's
        session: the statements the forgotten entity was read from). The counts of packs,
        cached vectors, change records, entities and relations."""
        packs: list[int] = []
        earlier, earlier_texts, earlier_names = self._logged_items(
            [scope] if scope is not None else [])
        for where in [*([scope] if scope is not None else []), None]:
            doomed = self._packs_using(where, [*item_ids, *earlier], [])
            self._delete("packs", "id", doomed)
            packs.extend(doomed)
            if doomed and where is not None:
                self._log_last_pack(where)
        names = {name_key(n) for n in entities if n}
        rebuild = names | earlier_names
        gone = (self.rebuild_entities(scope, rebuild)  # type: ignore[attr-defined]
                if scope is not None and rebuild else 0)
        relations = (self._forget_relations(scope, names, entity_session)
                     if scope is not None and names else 0)
        # last, the rows every scope shares (docs/store.md, the lock order): the change
        # log's, then the embedding cache's
        changes = sum(self.blank_changes(entity, ids) for entity, ids in
                      (("item", item_ids), ("fact", fact_ids), ("pack", packs)))
        changes += self._blank_gone([scope] if scope is not None else [])
        return {"packs": len(packs), "changes": changes, "entities": gone,
                "relations": relations,
                "cached_vectors": self._forget_cached([*texts, *earlier_texts])}

    def _forget_relations(self, scope: str, names: set[str], session_id: int | None) -> int:
        """Relations of ``scope`` naming one of ``names`` (normalized): those of a name the
        graph no longer holds, and those read in ``session_id`` (session 23: they named a
        forgotten entity item and stayed, shown by ``graph`` of the other end)."""
        n = 0
        for norm in sorted(names):
            known = self._run("SELECT 1 FROM entities WHERE scope = %s AND norm_name = %s",
                              (scope, norm)).fetchone() is not None
            sql = ("DELETE FROM relations WHERE scope = %s"
                   " AND (source_entity = %s OR target_entity = %s)")
            params: list[Any] = [scope, norm, norm]
            if known:
                if session_id is None:
                    continue
                sql += " AND session_id = %s"
                params.append(session_id)
            n += self._run(sql, params).rowcount
        return n

    @contextmanager
    def erasing(self, scope: str | None = None) -> Iterator[None]:
        """A transaction that erases (``forget_item``, ``forget_fact``): SQLite's
        ``secure_delete``, the full-text index merged before the commit so no segment keeps
        an erased term, the WAL checkpointed after it, as ``erase_scope`` does.

        ``scope``: the scope whose item or fact goes. Its facts lock is taken first, before
        any row, as every writer of facts takes it (PostgreSQL): deleting a fact sets the
        facts it had superseded free (``superseded_by``), rows a worker writing the scope's
        facts may hold while it waits for the one deleted: a deadlock (session 25). Then the
        change log sequencer's lock, before any row, as every erase takes it
        (``_lock_change_log``; session 27)."""
        with self.db.atomic():
            if scope is not None:
                self._lock_scope_facts(scope)
            self._lock_change_log()
            self._erase_prepare()
            yield
            self._erase_finish()
        self._after_erase()

    # -- helpers ----------------------------------------------------------------------------
    @staticmethod
    def _erased_doc(counts: dict[str, int]) -> str:
        return json.dumps({k: counts[k] for k in ERASE_KINDS}, sort_keys=True)

    def _lock_sessions(self, sql: str, params: Any) -> list[int]:
        """Ids of the sessions ``sql`` selects, their rows locked in id order (PostgreSQL),
        so a claim or a summary of one of them in flight finishes first."""
        return [int(r[0]) for r in self._run(f"{sql} ORDER BY id{self.FOR_UPDATE}", params)]

    def _lock_sessions_in(self, ids: Sequence[int]) -> list[int]:
        out: list[int] = []
        for cond, params in self._id_batches("id", ids):
            out.extend(self._lock_sessions(f"SELECT id FROM sessions WHERE {cond}", params))
        return sorted(out)

    def _rows(self, sql: str, column: str, ids: Sequence[int]) -> Iterable[Any]:
        for cond, params in self._id_batches(column, list(ids)):
            yield from self._run(sql.format(cond=cond), params)

    def _ids(self, sql: str, column: str, ids: Sequence[int]) -> list[int]:
        return [int(r[0]) for r in self._rows(sql, column, ids)]

    def _delete(self, table: str, column: str, ids: Sequence[int]) -> int:
        n = 0
        for cond, params in self._id_batches(column, list(ids)):
            n += self._run(f"DELETE FROM {table} WHERE {cond}", params).rowcount
        return n

    def forget_cached_texts(self, texts: Sequence[str]) -> int:
        """Delete the embedding cache's vectors of ``texts`` (a worker that embedded an
        erased session's texts before the erase); how many rows went."""
        return self._forget_cached(texts)

    def vector_texts(self, item_ids: Sequence[int]) -> dict[int, str]:
        """The text each item's vector was made from (``embedded_fact_text``: its text,
        but the user's form of a named speaker's own fact), by id; read before the item or
        its message is deleted."""
        out: dict[int, str] = {}
        for iid, text, kind, extra, speaker, role in self._rows(
                f"{_ITEM_TEXTS} WHERE {{cond}}", "i.id", list(item_ids)):
            out[int(iid)] = _vector_text(text, kind, extra, speaker, role)
        return out

    @staticmethod
    def _with_vector_texts(rows: Iterable[Any]) -> Iterator[str]:
        """Each item row's (``_ITEM_TEXTS``) text and, where it differs, its vector's: a
        named speaker's fact's cached vector is its user's form's (session 27: an erase
        left it)."""
        for _, text, kind, extra, speaker, role in rows:
            yield text
            yield _vector_text(text, kind, extra, speaker, role)

    def deleted_texts(self, where: str, params: Sequence[Any] = ()) -> dict[str | None, set[str]]:
        """The texts of the items ``where`` selects (a condition on ``items i``), each
        item's and its vector's (``_with_vector_texts``), by scope: read before a delete
        that is not an erase, for ``forget_unheld`` after it."""
        out: dict[str | None, set[str]] = {}
        for row in self._run(f"{_SCOPED_TEXTS} WHERE {where}", params):
            out.setdefault(row[0], set()).update(self._with_vector_texts([row]))
        return out

    def forget_unheld(self, deleted: dict[str | None, set[str]], keep: Iterable[str] = ()) -> int:
        """After a delete that is not an erase (a re-summary's ``clear_intelligence``,
        hygiene's ``remove_items``): the embedding cache's vectors of the deleted items'
        texts (``deleted_texts``, read before it) that no item of their scope still holds
        (its text, or a fact's vector text) and the caller does not write next (``keep``).
        A later erase finds a deleted row's texts in its change records, until ``gc``
        prunes them: a text embedded again after the prune (``backfill embeddings``), then
        deleted, left its vector where no erase could find it (session 29). A text only
        another scope holds loses its cached vector (the cache only saves embedding it
        again). The cache's rows, last (docs/store.md). How many went."""
        doomed: set[str] = set()
        kept = set(keep)
        for scope, texts in deleted.items():
            left = texts - kept
            where, args = ("i.scope = %s", [scope]) if scope is not None else ("i.scope IS NULL", [])
            ordered = sorted(left)
            for start in range(0, len(ordered), 500):
                cond, params = self._text_in("i.text", ordered[start:start + 500])
                left -= {r[0] for r in self._run(
                    f"SELECT i.text FROM items i WHERE {where} AND {cond}", [*args, *params])}
            if left:  # a named speaker's fact is embedded in the user's form
                left -= set(self._with_vector_texts(self._run(
                    f"{_SCOPED_TEXTS} WHERE {where} AND i.kind = 'fact'", args)))
            doomed |= left
        return self._forget_cached(doomed)

    def _forget_cached(self, texts: Iterable[str]) -> int:
        """Delete the embedding cache's vectors of ``texts`` (every model). A text another
        item also holds loses its cached vector too: the cache only saves embedding it
        again."""
        hashes = sorted({text_hash(t) for t in texts})
        n = 0
        for start in range(0, len(hashes), 500):
            chunk = hashes[start:start + 500]
            n += self._run(
                f"DELETE FROM embed_cache WHERE hash IN ({', '.join(['%s'] * len(chunk))})",
                chunk).rowcount
        return n

    def _packs_using(self, scope: str | None, item_ids: Sequence[int],
                     message_ids: Sequence[int]) -> list[int]:
        """The journaled packs of ``scope`` (None: packs of no scope) whose entries name
        one of the items or messages: their text quotes them."""
        items, messages = set(item_ids), set(message_ids)
        if not items and not messages:
            return []
        sql = ("SELECT id, entries FROM packs WHERE scope = %s" if scope is not None
               else "SELECT id, entries FROM packs WHERE scope IS NULL")
        doomed = []
        for pid, entries in self._run(sql, (scope,) if scope is not None else ()):
            for e in json.loads(entries) if isinstance(entries, str) else entries:
                if e.get("item_id") in items or e.get("message_id") in messages:
                    doomed.append(int(pid))
                    break
        return doomed

    def _summaries_quoting(self, scopes: Sequence[str], message_ids: Sequence[int]) -> list[int]:
        """Summaries of ``scopes`` written on demand (``Memory.store_summary``) over a window
        of messages that holds an erased one: their text quotes it, and the window can reach
        back into an earlier session than the summary's own."""
        gone = set(message_ids)
        if not gone:
            return []
        out = []
        for scope in scopes:
            for iid, extra in self._run(
                    "SELECT id, extra FROM items WHERE scope = %s AND kind = 'summary'", (scope,)):
                data = json.loads(extra) if isinstance(extra, str) else (extra or {})
                if gone.intersection(data.get("message_ids") or ()):
                    out.append(int(iid))
        return out

    def _derived_items(self, scopes: Sequence[str], erased: set[int]) -> tuple[set[int], set[int]]:
        """Items of ``scopes`` outside any session made of erased items (decision records,
        weekly roll-ups: their text is made of the erased summaries), transitively; and
        every item those were made of."""
        rows: list[Any] = []
        for scope in scopes:
            rows.extend(self._run(
                "SELECT id, children, extra FROM items WHERE scope = %s AND session_id IS NULL",
                (scope,)))
        made: dict[int, set[int]] = {}
        for iid, children, extra in rows:
            kids = set(json.loads(children) if isinstance(children, str) else children or [])
            ex = json.loads(extra) if isinstance(extra, str) else extra or {}
            for key in ("absorbed", "children"):
                got = ex.get(key)
                if isinstance(got, list):
                    kids.update(k for k in got if isinstance(k, int))
            made[int(iid)] = kids
        out: set[int] = set()
        grew = True
        while grew:
            grew = False
            for iid, kids in made.items():
                if iid not in out and kids & (erased | out):
                    out.add(iid)
                    grew = True
        return out, {k for iid in out for k in made[iid]}
