"""One search's reads on PostgreSQL: what a search asks for later comes with what it reads first.

A search read rows in about eight statements, four of them only to learn things an earlier
statement could have said in passing: the sessions of the hits, whether a turn's facts were
all superseded (newest first), the vectors of the pool's turns (also newest first) and the
scope's entity names (the graph stage). Each was a round trip costing both processes CPU
(on two cores, 8 clients: what the p95 queues behind). Within ``reading()``, which
``Memory.search`` holds around one search, this thread of the store:

- ``get_items`` also returns the items' session rows (read by key, when they are at most
  ``SESSIONS_WITH_ITEMS``: a scoped search's few) and, the first time
  when the search will ask (``reading(superseded=True)``: newest first), whether each
  item's message has facts that were all superseded; ``get_sessions`` and
  ``superseded_messages`` then answer from those rows and ask the database only about ids
  they do not cover;
- ``vector_search`` by an exact scan also returns the vectors it ranked (binary, pgvector's
  format, decoded only when asked for; a walk of the HNSW graph does not: its 200 rows'
  vectors cost more than the statement they would save) and ``item_vectors`` answers from
  them, asking only for the rest, which it remembers too;
- ``get_items`` remembers the items it read, and ``lexical_and_vector_search`` reads each
  candidate list's items as soon as that list is ranked, each on the connection that
  ranked it (``ReadAhead``: the lexical list's on the helper thread while this one walks the
  graph): the search's ``get_items`` then finds them read;
- the lexical stage's first statement also returns the scope's entity names (a scoped
  search), and ``entity_names`` of that scope answers from them;
- ``session_items`` and ``sessions_items`` (stage two reads the turns of its top sessions,
  then asks for their vectors) also return each item's vector under
  the model the block's vector search used, and ``item_vectors`` answers from those.

Outside ``reading()`` every method reads as before. What is remembered lives until the
``reading()`` block ends, in its thread only: the answers are what the same statements
would have given a moment earlier in the same search.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from memlane.store.postgres.db import Database
from memlane.store.postgres.rows import id_array, vector_bytes
from memlane.store.rows import ITEM_COLS, ITEM_FIELDS, SESSION_COLS, item, session
from memlane.store.sql.base import SqlStore
from memlane.types import Item, Session

__all__ = ["Reads", "SearchReads"]

_N_ITEM = len(ITEM_FIELDS)
_N_SESSION = len(SESSION_COLS.split(","))
_ITEM_SELECT = ", ".join(f"i.{c}" for c in ITEM_FIELDS)
_SESSION_SELECT = ", ".join(f"s.{c.strip()}" for c in SESSION_COLS.split(","))

# The items and the row of each one's session: on the session's first item only, read by
# key, and only when the items span at most SESSIONS_WITH_ITEMS sessions (a join let the
# planner scan every session: 1,000 rows for 250 items at 10k; and each session row costs
# the client ~30 µs to read, where the statement it saves costs ~10 of them). The count
# decides which keys are read (none above it): as a condition beside them, the planner
# read every session by key and then dropped them all (224 for 239 items at 100k).
_ITEMS_SESSIONS = (
    f"WITH i AS MATERIALIZED (SELECT {ITEM_COLS} FROM items WHERE id = ANY(%s::bigint[])),"
    " k AS (SELECT DISTINCT ON (session_id) id, session_id FROM i WHERE session_id IS NOT NULL"
    " ORDER BY session_id, id),"
    f" s AS (SELECT {SESSION_COLS} FROM sessions WHERE id = ANY(CASE WHEN (SELECT count(*) FROM k)"
    " <= %s THEN ARRAY(SELECT session_id FROM k) END))"
    f" SELECT {_ITEM_SELECT}, {_SESSION_SELECT}{{}} FROM i LEFT JOIN k ON k.id = i.id"
    " LEFT JOIN s ON s.id = k.session_id{}"
)
SESSIONS_WITH_ITEMS = 20
# The same and, per item with a message, whether that message has facts and all of them
# are superseded (``superseded_messages``' rule): false when it has none. The facts are
# grouped once for all the items' messages, as ``superseded_messages`` groups them.
_ITEMS_SESSIONS_SUPERSEDED = _ITEMS_SESSIONS.replace(" s AS (", (
    " f AS (SELECT message_id, bool_and(status IS DISTINCT FROM 'current') AS gone FROM facts"
    " WHERE message_id = ANY(ARRAY(SELECT message_id FROM i WHERE message_id IS NOT NULL))"
    " AND status <> 'ended' GROUP BY message_id), s AS ("), 1).format(
    ", i.message_id IS NOT NULL, coalesce(f.gone, false)",
    " LEFT JOIN f ON f.message_id = i.message_id")
_ITEMS_SESSIONS = _ITEMS_SESSIONS.format("", "")
# The items alone, and with their messages' superseded flags as above: what a read ahead of
# an unscoped search's candidate list asks (``ReadAhead``). Its ~100-200 items span more
# than SESSIONS_WITH_ITEMS sessions nearly always, so the statement above would read no
# session, yet list and count them: ~0.5 ms of server time for 385 items at 10k, where
# the items alone cost 1.6 (the facts' part another ~0.4 on a store without facts).
_ITEMS = f"SELECT {ITEM_COLS} FROM items WHERE id = ANY(%s::bigint[])"
_ITEMS_SUPERSEDED = (
    f"WITH i AS MATERIALIZED ({_ITEMS}),"
    " f AS (SELECT message_id, bool_and(status IS DISTINCT FROM 'current') AS gone FROM facts"
    " WHERE message_id = ANY(ARRAY(SELECT message_id FROM i WHERE message_id IS NOT NULL))"
    " AND status <> 'ended' GROUP BY message_id)"
    f" SELECT {_ITEM_SELECT}, i.message_id IS NOT NULL, coalesce(f.gone, false) FROM i"
    " LEFT JOIN f ON f.message_id = i.message_id"
)
# A session's items (``session_items``' order) and each one's vector under a model, in
# pgvector's binary format (``vector_send``: the bytes a binary read returns), or NULL.
_SESSION_ITEMS_VECTORS = (
    f"SELECT {_ITEM_SELECT}, (SELECT vector_send(v.vec) FROM vectors v WHERE v.item_id = i.id"
    " AND v.model = %s) FROM items i WHERE i.session_id = %s{} ORDER BY i.seq, i.id"
)
# The same for several sessions (``sessions_items``).
_SESSIONS_ITEMS_VECTORS = _SESSION_ITEMS_VECTORS.replace(
    "i.session_id = %s{} ORDER BY i.seq", "i.session_id = ANY(%s::bigint[]){} ORDER BY i.session_id, i.seq")
# The same and, per item, whether its message has facts that were all superseded (as
# ``_ITEMS_SESSIONS_SUPERSEDED``): stage two's turns are most of what ``superseded_messages``
# is asked about after the candidates, one statement a search.
_SESSIONS_ITEMS_VECTORS_SUPERSEDED = (
    f"WITH t AS MATERIALIZED ({_SESSIONS_ITEMS_VECTORS.split(' ORDER BY i.session_id')[0]}),"
    " f AS (SELECT message_id, bool_and(status IS DISTINCT FROM 'current') AS gone FROM facts"
    " WHERE message_id = ANY(ARRAY(SELECT message_id FROM t WHERE message_id IS NOT NULL))"
    " AND status <> 'ended' GROUP BY message_id)"
    " SELECT t.*, coalesce(f.gone, false) FROM t LEFT JOIN f ON f.message_id = t.message_id"
    " ORDER BY t.session_id, t.seq, t.id"
)


class Reads:
    """What one search's statements returned beyond what was asked (see the module)."""

    __slots__ = ("entities", "items", "items_read", "sessions", "superseded", "vectors", "wants_superseded")

    def __init__(self, superseded: bool) -> None:
        self.wants_superseded = superseded
        self.items: dict[int, Item] = {}  # read by get_items, _prefetch_items or ReadAhead
        self.sessions: dict[int, Session | None] = {}
        self.superseded: dict[int, bool] = {}
        # binary, decoded when asked for (or decoded, as ``item_vectors`` read them); None: none
        self.vectors: dict[str, dict[int, bytes | np.ndarray | None]] = {}
        self.entities: dict[str, list[str]] = {}
        self.items_read = not superseded  # whether the next get_items may skip the facts


class ReadAhead:
    """Items read ahead by two threads of one search, each on its own connection, for the
    search's ``get_items`` (``lexical_and_vector_search``: each candidate list's items as
    soon as that list is known).

    ``read`` (either thread) reads the items of its ids that neither thread has taken yet,
    into a ``Reads`` of its own, with their messages' superseded flags when the block's
    first ``get_items`` would have read them, but not their sessions (``get_sessions``
    reads the hits' sessions, as it did for an unscoped search's candidates); ``done`` (the block's thread, once both have
    returned) puts what was read into the block, as one ``get_items`` would have.
    """

    __slots__ = ("facts", "got", "lock", "reads", "store", "taken")

    def __init__(self, store: SearchReads, reads: Reads) -> None:
        self.store = store
        self.reads = reads
        self.facts = not reads.items_read
        self.lock = threading.Lock()
        self.taken: set[int] = set(reads.items)
        self.got: list[Reads] = []

    def read(self, ids: Iterable[int]) -> None:
        with self.lock:
            mine = [i for i in dict.fromkeys(ids) if i not in self.taken]
            self.taken.update(mine)
        if mine:  # without their sessions: see _ITEMS
            own = Reads(self.reads.wants_superseded)
            self.store._read_items(own, mine, self.facts, with_sessions=False)
            with self.lock:
                self.got.append(own)

    def take(self, rows: Sequence[Sequence[Any]]) -> None:
        """Items read by another statement (the graph walk's, ``search._approximate_items``):
        rows of ``ITEM_FIELDS``, with the superseded flags when ``facts``; those of items
        the other thread has taken are left to it."""
        with self.lock:
            mine = [r for r in rows if r[0] not in self.taken]
            self.taken.update(r[0] for r in mine)
        if mine:
            own = Reads(self.reads.wants_superseded)
            for row in mine:
                it = item(row[:_N_ITEM])
                own.items[it.id] = it
                if self.facts and row[-2]:
                    own.superseded[it.message_id] = bool(row[-1])  # type: ignore[index]
            with self.lock:
                self.got.append(own)

    def done(self) -> None:
        reads = self.reads
        for own in self.got:
            reads.items.update(own.items)
            for sid, row in own.sessions.items():
                if row is not None or sid not in reads.sessions:
                    reads.sessions[sid] = row
            for m, gone in own.superseded.items():
                reads.superseded.setdefault(m, gone)
        if self.got and self.facts:
            reads.items_read = True  # as after the first get_items: its facts came
        self.got = []


class SearchReads(SqlStore):
    """``reading()`` and the reads that answer from it (a mixin of ``PostgresStore``,
    ahead of the shared mixins whose methods it wraps)."""

    db: Database

    def _reads(self) -> Reads | None:
        local = self.__dict__.get("_reads_local")
        return getattr(local, "reads", None) if local is not None else None

    @contextmanager
    def reading(self, *, superseded: bool = False) -> Iterator[None]:
        """One search's reads (see the module); nested blocks share the outermost's.
        ``superseded``: the search will ask ``superseded_messages`` (newest first), so the
        first ``get_items`` reads the facts of its items' messages too."""
        local = self.__dict__.get("_reads_local")
        if local is None:
            local = self.__dict__.setdefault("_reads_local", threading.local())
        if getattr(local, "reads", None) is not None:
            yield
            return
        local.reads = Reads(superseded)
        try:
            yield
        finally:
            local.reads = None

    def get_items(self, ids: Iterable[int]) -> dict[int, Item]:
        reads = self._reads()
        if reads is None:
            return super().get_items(ids)  # type: ignore[misc]
        wanted = list(dict.fromkeys(ids))
        known = reads.items
        missing = [i for i in wanted if i not in known]
        if missing:
            first = not reads.items_read
            reads.items_read = True
            self._read_items(reads, missing, first)
        return {i: known[i] for i in wanted if i in known}

    def _prefetch_items(self, ids: Iterable[int]) -> None:
        """Read these items now for a ``get_items`` of this search to come (within
        ``reading()``; else nothing): ``lexical_and_vector_search`` reads the vector list's
        items while the lexical list is still being ranked on another connection."""
        reads = self._reads()
        if reads is None:
            return
        missing = [i for i in dict.fromkeys(ids) if i not in reads.items]
        if missing:  # the facts too when the first get_items would read them
            self._read_items(reads, missing, not reads.items_read)

    def _read_ahead(self, reads: Reads | None) -> ReadAhead | None:
        """Items read ahead on two threads at once for this block's next ``get_items``
        (``lexical_and_vector_search``); None outside ``reading()``."""
        return None if reads is None else ReadAhead(self, reads)

    def _read_items(self, reads: Reads, ids: list[int], facts: bool, with_sessions: bool = True) -> None:
        """One statement: the items into ``reads.items``, their sessions (at most
        SESSIONS_WITH_ITEMS; none without ``with_sessions``) and with ``facts`` their
        messages' superseded flags."""
        found = reads.items
        if not with_sessions:
            for row in self.db.execute(_ITEMS_SUPERSEDED if facts else _ITEMS, (id_array(ids),),
                                       binary=True).fetchall():
                it = item(row[:_N_ITEM])
                found[it.id] = it
                if facts and row[-2]:
                    reads.superseded[it.message_id] = bool(row[-1])  # type: ignore[index]
            return
        sessions = reads.sessions
        sids: set[int] = set()
        # in binary, all rows at once: the same values, ~0.3 ms less a search to receive
        for row in self.db.execute(_ITEMS_SESSIONS_SUPERSEDED if facts else _ITEMS_SESSIONS,
                                   (id_array(ids), SESSIONS_WITH_ITEMS), binary=True).fetchall():
            it = item(row[:_N_ITEM])
            found[it.id] = it
            if it.session_id is not None:
                sids.add(it.session_id)
            if row[_N_ITEM] is not None:
                sessions[row[_N_ITEM]] = session(row[_N_ITEM:_N_ITEM + _N_SESSION])
            if facts and row[-2]:
                reads.superseded[it.message_id] = bool(row[-1])  # type: ignore[index]
        if len(sids) <= SESSIONS_WITH_ITEMS:  # every existing session came: the rest do not exist
            for sid in sids:
                sessions.setdefault(sid, None)

    def get_sessions(self, ids: Iterable[int]) -> dict[int, Session]:
        reads = self._reads()
        if reads is None:
            return super().get_sessions(ids)  # type: ignore[misc]
        ids = set(ids)
        known = reads.sessions
        missing = [i for i in ids if i not in known]
        if missing:
            got = super().get_sessions(missing)  # type: ignore[misc]
            for i in missing:
                known[i] = got.get(i)
        return {i: s for i in ids if (s := known[i]) is not None}

    def superseded_messages(self, message_ids: Sequence[int]) -> set[int]:
        reads = self._reads()
        if reads is None:
            return super().superseded_messages(message_ids)  # type: ignore[misc]
        known = reads.superseded
        missing = [m for m in dict.fromkeys(message_ids) if m not in known]
        out = {m for m in message_ids if known.get(m)}
        if missing:
            got = super().superseded_messages(missing)  # type: ignore[misc]
            for m in missing:
                known[m] = m in got
            out |= got
        return out

    def entity_names(self, scope: str) -> list[str]:
        reads = self._reads()
        if reads is not None and scope in reads.entities:
            return list(reads.entities[scope])
        return super().entity_names(scope)  # type: ignore[misc]

    def session_items(self, session_id: int, kind: str | None = None) -> list[Item]:
        reads = self._reads()
        if reads is None or len(reads.vectors) != 1:
            return super().session_items(session_id, kind)  # type: ignore[misc]
        (model, known), = reads.vectors.items()  # the model of the block's vector search
        params: list[Any] = [model, session_id]
        if kind is not None:
            params.append(kind)
        out = []
        for row in self.db.execute(_SESSION_ITEMS_VECTORS.format(" AND i.kind = %s" if kind is not None else ""),
                                   params, binary=True).fetchall():
            it = item(row[:_N_ITEM])
            known.setdefault(it.id, row[_N_ITEM])
            out.append(it)
        return out

    def sessions_items(self, session_ids: Iterable[int], kind: str | None = None) -> dict[int, list[Item]]:
        reads = self._reads()
        if reads is None or len(reads.vectors) != 1:
            return super().sessions_items(session_ids, kind)  # type: ignore[misc]
        ids = list(dict.fromkeys(session_ids))
        if not ids:
            return {}
        (model, known), = reads.vectors.items()
        params: list[Any] = [model, id_array(ids)]
        if kind is not None:
            params.append(kind)
        out: dict[int, list[Item]] = {}
        superseded = reads.superseded if reads.wants_superseded else None
        sql = _SESSIONS_ITEMS_VECTORS_SUPERSEDED if superseded is not None else _SESSIONS_ITEMS_VECTORS
        for row in self.db.execute(sql.format(" AND i.kind = %s" if kind is not None else ""),
                                   params, binary=True).fetchall():
            it = item(row[:_N_ITEM])
            known.setdefault(it.id, row[_N_ITEM])
            if superseded is not None and it.message_id is not None:
                superseded.setdefault(it.message_id, bool(row[-1]))
            out.setdefault(it.session_id, []).append(it)  # type: ignore[arg-type]
        return out

    def item_vectors(self, model: str, ids: Iterable[int]) -> dict[int, np.ndarray]:
        reads = self._reads()
        if reads is None or model not in reads.vectors:
            return super().item_vectors(model, ids)  # type: ignore[misc]
        known = reads.vectors[model]
        wanted = list(dict.fromkeys(ids))
        missing = [i for i in wanted if i not in known]
        if missing:  # read by key, and remembered for the rest of the search (None: no vector)
            got = super().item_vectors(model, missing)  # type: ignore[misc]
            for i in missing:
                known[i] = got.get(i)
        out: dict[int, np.ndarray] = {}
        for i in sorted(wanted):  # in id order, as the statement's index scan by key returns them
            raw = known[i]
            if raw is not None:
                out[i] = raw.copy() if isinstance(raw, np.ndarray) else vector_bytes(raw)
        return out
