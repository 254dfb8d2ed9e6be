"""PostgreSQL store: the change log behind the live memory stream (migrations 0006, 0012).

Triggers write the log with a NULL ``pos``; readers give committed rows their ``pos`` (the
stream's id) under an exclusive lock on ``change_sequencer``, in write order, so a row that
commits late still gets a ``pos`` above every one a reader has seen: no gap, ever (the
migration explains why an identity column alone would allow one). Writers never wait for
readers; readers wait for each other only while one sequences and reads.

A connection that may not write (a standby, a read-only role or transaction, a role
granted SELECT only) numbers nothing: it reads up to the head a writer left, and what was
committed but not numbered yet is in its state documents (``unnumbered_changes``) and
reaches its polls once a writer numbers it (session 38).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import Any

from memlane.errors import StoreError
from memlane.store.postgres.db import Database, translate
from memlane.types import ChangeRecord

__all__ = ["ChangesMixin"]

# Number the committed rows that have no pos yet, in write order, after the last pos given.
_SEQUENCE = (
    "WITH todo AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM changes"
    " WHERE pos IS NULL),"
    " done AS (UPDATE changes c SET pos = s.head + todo.n FROM todo, change_sequencer s"
    " WHERE c.id = todo.id RETURNING 1)"
    " UPDATE change_sequencer SET head = head + (SELECT count(*) FROM done) RETURNING head"
)


_NUMBERS = ("current_setting('transaction_read_only') = 'off'"
            " AND has_table_privilege('changes', 'UPDATE')"
            " AND has_table_privilege('change_sequencer', 'UPDATE')")
"""Whether this connection may number the change log (``ChangesMixin.numbers_changes``)."""


def _number(cur: Any) -> int:
    row = cur.fetchone()
    if row is None:  # change_sequencer always has its one row, from migration 0006
        raise StoreError("change log: change_sequencer is empty; the database was altered")
    return int(row[0])


class ChangesMixin:
    """Mixed into PostgresStore; uses ``self.db``."""

    db: Database

    @contextmanager
    def live_read(self) -> Iterator[int]:
        """A consistent read of the live state: yields the last change id it includes;
        every read inside sees exactly the changes up to that id.

        One REPEATABLE READ transaction: the sequencer lock is taken before its snapshot
        (LOCK TABLE takes none), then every row the snapshot sees is sequenced; rows it
        does not see are sequenced later, above the head it yields. On a connection that
        may not number (``numbers_changes``) nothing is locked or written: the head is the
        last one a writer gave, the change log's rows read are those up to it, and the
        state documents read may also hold ``unnumbered_changes()``.
        """
        if self.db.in_transaction:
            raise StoreError("live_read: cannot start inside another transaction")
        if self.numbers_changes:
            begun = False
            try:
                with self.db.atomic(reads=True):  # writes nothing: its COMMIT keeps nothing
                    with translate("live read"):
                        self.db.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                    self.db.execute("LOCK TABLE change_sequencer IN EXCLUSIVE MODE")
                    head = _number(self.db.execute(_SEQUENCE))
                    begun = True
                    yield head
                return
            except StoreError as e:
                if begun or not e.read_only:  # (a caller's error says nothing of numbering)
                    raise
            # refused as read-only (a primary turned standby, the role's UPDATE revoked):
            # this read, and those after it, number nothing until it may again (session 39)
            self.__dict__["_numbers_changes"] = False
        with self._unnumbered_read() as head:
            yield head

    @contextmanager
    def _unnumbered_read(self) -> Iterator[int]:
        """``live_read`` on a connection that did not number (``numbers_changes`` false):
        up to the head a writer left. The same statement asks again whether it may number
        now (a standby promoted, UPDATE granted): from the next live read on, it does
        (session 39: asked once per store, a promoted standby's reads never numbered the
        log until the process started again)."""
        with self.db.atomic(reads=True):
            with translate("live read"):
                self.db.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            row = self.db.execute(f"SELECT head, {_NUMBERS} FROM change_sequencer").fetchone()
            if row is None:
                raise StoreError("change log: change_sequencer is empty; the database was "
                                 "altered")
            if row[1]:
                self.__dict__["_numbers_changes"] = True
            yield int(row[0])

    @property
    def numbers_changes(self) -> bool:
        """Whether this connection numbers the change log's committed rows when it reads
        (it may write ``changes`` and ``change_sequencer``, and is no standby nor read-only
        transaction). Asked once; asked again by each live read while false (in the read's
        own statement: ``_unnumbered_read``), and false from a live read refused as
        read-only while true, which then reads as one that does not number (session 39)."""
        known = self.__dict__.get("_numbers_changes")
        if known is None:
            row = self.db.execute(f"SELECT {_NUMBERS}").fetchone()
            known = self.__dict__["_numbers_changes"] = bool(row[0])
        return bool(known)

    def unnumbered_changes(self, scope: str) -> list[int]:
        """Inside ``live_read()``: the scope's change log rows (their write ids, not stream
        ids) committed but not numbered yet, which its state documents already hold.
        Always empty where ``live_read`` numbers; on a connection that may not, a writer
        numbers them later, above the head read (``numbered_positions`` tells where)."""
        return [int(r[0]) for r in self.db.execute(
            "SELECT id FROM changes WHERE pos IS NULL AND scope = %s ORDER BY id", (scope,))]

    def numbered_positions(self, ids: Collection[int]) -> dict[int, int | None]:
        """The stream id each of these rows (``unnumbered_changes``' ids) holds now: None
        while not numbered yet; a row pruned since is left out."""
        if not ids:
            return {}
        return {int(r[0]): (None if r[1] is None else int(r[1])) for r in self.db.execute(
            "SELECT id, pos FROM changes WHERE id = ANY(%s)", (list(ids),))}

    def last_change_id(self) -> int:
        """The id of the newest change (0 when none was ever written)."""
        with self.live_read() as head:
            return head

    def change_floor(self) -> int:
        """Changes up to this id were pruned: a reader behind it must re-snapshot."""
        return _number(self.db.execute("SELECT floor FROM change_sequencer"))

    def changes_after(self, scope: str, after: int, limit: int,
                      skip: Collection[int] = ()) -> list[ChangeRecord]:
        """The scope's changes with an id above ``after``, oldest first, at most ``limit``;
        ``skip``: rows (write ids, ``unnumbered_changes``) a reader's state already holds.

        Call it inside ``live_read()``: outside, rows not yet sequenced are not seen. A
        message's record carries no document (migration 0012): its session's document is
        read here, in the same snapshot (None when the session is gone; its
        ``session.deleted`` record comes later).
        """
        rows = self.db.execute(
            "WITH page AS (SELECT pos, scope, entity, entity_id, op, topic, doc, at FROM changes"
            " WHERE scope = %(scope)s AND pos > %(after)s"
            # a hashed subplan: ``NOT id = ANY(…)`` compared each row with every id
            " AND id NOT IN (SELECT unnest(%(skip)s::bigint[]))"
            " ORDER BY pos LIMIT %(limit)s),"
            # each session's document once, however many of its messages the page holds
            " docs AS (SELECT s.id, memlane_live_session(s) AS doc FROM sessions s"
            " WHERE s.scope = %(scope)s AND s.id IN (SELECT entity_id FROM page"
            " WHERE entity = 'session' AND doc IS NULL AND op <> 'delete'))"
            " SELECT p.pos, p.scope, p.entity, p.entity_id, p.op, p.topic, coalesce(p.doc,"
            " CASE WHEN p.entity = 'session' AND p.op <> 'delete' THEN d.doc END), p.at"
            " FROM page p LEFT JOIN docs d ON d.id = p.entity_id ORDER BY p.pos",
            {"scope": scope, "after": after, "limit": limit, "skip": list(skip)},
        )
        return [ChangeRecord(*r) for r in rows]

    def live_documents(self, scope: str) -> dict[str, Any]:
        """The scope's state documents: ``{"sessions" | "items" | "facts": {id: doc},
        "last_pack": doc | None}`` (the same documents the change log carries)."""
        q = self.db.execute
        out: dict[str, Any] = {
            "sessions": dict(q("SELECT id, memlane_live_session(s) FROM sessions s"
                               " WHERE scope = %s ORDER BY id", (scope,)).fetchall()),
            "items": dict(q("SELECT id, memlane_live_item(i) FROM items i WHERE scope = %s"
                            " AND kind <> 'turn' ORDER BY id", (scope,)).fetchall()),
            "facts": dict(q("SELECT id, memlane_live_fact(f) FROM facts f WHERE scope = %s"
                            " ORDER BY id", (scope,)).fetchall()),
        }
        row = q("SELECT memlane_live_pack(p) FROM packs p WHERE scope = %s ORDER BY id DESC"
                " LIMIT 1", (scope,)).fetchone()
        out["last_pack"] = row[0] if row else None
        return out

    def delivered_change_id(self) -> int:
        """The last change id a reader may have been given, read without writing (a
        read-only database, a replica: ``last_change_id`` sequences rows first)."""
        return _number(self.db.execute("SELECT head FROM change_sequencer"))

    def restore_change_head(self, head: int) -> None:
        """After a copy (``memlane copy``): the log goes on from the source's last id,
        ``head``. The copy's own rows (not sequenced yet) take the ids after it, and the
        floor is ``head``: a reader at the source's last change gets them (the same state
        again), one behind it must re-snapshot, and the log replays from the floor."""
        with self.db.atomic():
            self.db.execute("LOCK TABLE change_sequencer IN EXCLUSIVE MODE")
            self.db.execute("UPDATE change_sequencer SET head = greatest(head, %(h)s),"
                            " floor = greatest(floor, %(h)s)", {"h": head})

    def prune_changes(self, *, before: float, keep: int) -> int:
        """Drop changes written before ``before`` (epoch seconds) and all but the newest
        ``keep``; raise the floor to the last id dropped. Returns how many rows went.

        The newest row always stays, as on SQLite (where it holds the position).
        """
        with self.db.atomic():
            # READ COMMITTED: each statement after the lock sees every earlier commit
            self.db.execute("LOCK TABLE change_sequencer IN EXCLUSIVE MODE")
            head = _number(self.db.execute(_SEQUENCE))
            first_kept = self.db.execute(
                "SELECT pos FROM changes WHERE pos IS NOT NULL AND at >= %s ORDER BY pos LIMIT 1",
                (before,),
            ).fetchone()
            cut = min(max(head - keep, (first_kept[0] - 1) if first_kept else head), head - 1)
            if cut <= self.change_floor():
                return 0
            # the texts the records hold of rows no longer stored lose their cached vectors
            # first: an erase after the prune would not find them (session 28)
            self.forget_pruned("pos", cut)  # type: ignore[attr-defined]
            n = self.db.execute("DELETE FROM changes WHERE pos <= %s", (cut,)).rowcount
            self.db.execute("UPDATE change_sequencer SET floor = %s", (cut,))
            return n
