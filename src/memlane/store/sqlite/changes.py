"""SQLite store: the change log behind the live memory stream (migrations 0006, 0009).

Triggers write the log; this mixin reads and prunes it. SQLite has one writer at a time,
so a change's id is its position in commit order and a reader never meets a gap.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from memlane.store.sqlite.db import Database
from memlane.types import ChangeRecord

__all__ = ["ChangesMixin"]

_VIEWS = (("sessions", "live_sessions"), ("items", "live_items"), ("facts", "live_facts"))


class ChangesMixin:
    """Mixed into SqliteStore; uses ``self.db``."""

    db: Database

    @contextmanager
    def live_read(self) -> Iterator[int]:
        """A consistent read of the live state: yields the last change id it includes;
        every read inside sees exactly the changes up to that id."""
        with self.db.read():
            yield self.last_change_id()

    def last_change_id(self) -> int:
        """The id of the newest change (0 when none was ever written)."""
        return int(self.db.execute("SELECT coalesce(max(id), 0) FROM changes").fetchone()[0])

    def change_floor(self) -> int:
        """Changes up to this id were pruned: a reader behind it must re-snapshot."""
        return int(self.db.execute("SELECT floor FROM change_log_floor").fetchone()[0])

    def changes_after(self, scope: str, after: int, limit: int) -> list[ChangeRecord]:
        """The scope's changes with an id above ``after``, oldest first, at most ``limit``.

        A scan of every scope's rows after ``after`` (there is no scope index, to keep
        writes cheap): quick for a reader that keeps up. A message's record carries no
        document (migration 0009): its session's document is read here, as it is now
        (None when the session is gone; its ``session.deleted`` record comes later).
        Call it inside ``live_read()`` so that document and ``head`` agree.
        """
        rows = self.db.execute(
            "SELECT c.id, c.scope, c.entity, c.entity_id, c.op, c.topic, coalesce(c.doc,"
            " CASE WHEN c.entity = 'session' AND c.op <> 'delete' THEN (SELECT s.doc"
            " FROM live_sessions s WHERE s.id = c.entity_id AND s.scope = c.scope) END), c.at"
            " FROM changes c WHERE c.scope = ? AND c.id > ? ORDER BY c.id LIMIT ?",
            (scope, after, limit),
        )
        return [ChangeRecord(r[0], r[1], r[2], r[3], r[4], r[5],
                             json.loads(r[6]) if r[6] is not None else None, r[7]) for r in rows]

    def live_documents(self, scope: str) -> dict[str, Any]:
        """The scope's state documents: ``{"sessions" | "items" | "facts": {id: doc},
        "last_pack": doc | None}`` (the same documents the change log carries)."""
        out: dict[str, Any] = {}
        for key, view in _VIEWS:
            out[key] = {r[0]: json.loads(r[1]) for r in self.db.execute(
                f"SELECT id, doc FROM {view} WHERE scope = ? ORDER BY id", (scope,))}
        row = self.db.execute(
            "SELECT doc FROM live_packs WHERE scope = ? ORDER BY id DESC LIMIT 1", (scope,)
        ).fetchone()
        out["last_pack"] = json.loads(row[0]) if row else None
        return out

    def delivered_change_id(self) -> int:
        """The last change id a reader may have been given (here every row's is)."""
        return self.last_change_id()

    def restore_change_head(self, head: int) -> None:
        """After a copy (``memlane copy``): the log goes on from the source's last id,
        ``head``. The copy's own rows move to the ids after it, and the floor is ``head``:
        a reader at the source's last change gets them (the same state again), one behind
        it must re-snapshot, and the log replays from the floor."""
        with self.db.atomic():
            floor = self.change_floor()
            if head <= floor:
                return
            shift = head - floor
            # in two steps: an id moved by ``shift`` may be another row's until that moves
            self.db.execute("UPDATE changes SET id = -id WHERE id > ?", (floor,))
            self.db.execute("UPDATE changes SET id = ? - id WHERE id < 0", (shift,))
            if self.last_change_id() < head:  # nothing above: one row of no scope (no
                # reader's) holds the position, as ids are max(id) + 1
                self.db.execute(
                    "INSERT INTO changes (id, scope, entity, entity_id, op, topic, doc, at)"
                    " VALUES (?, '', 'log', 0, 'update', 'log.copied', NULL, ?)",
                    (head, time.time()))
            self.db.execute("UPDATE change_log_floor SET floor = ?", (head,))

    def prune_changes(self, *, before: float, keep: int) -> int:
        """Drop changes written before ``before`` (epoch seconds) and all but the newest
        ``keep``; raise the floor to the last id dropped. Returns how many rows went.

        The newest row always stays: ids are ``max(id) + 1``, so it holds the position.
        """
        with self.db.atomic():
            head = self.last_change_id()
            first_kept = self.db.execute(
                "SELECT id FROM changes WHERE at >= ? ORDER BY id LIMIT 1", (before,)
            ).fetchone()
            cut = min(max(head - keep, (first_kept[0] - 1) if first_kept else head), head - 1)
            if cut <= self.change_floor():
                return 0
            # the texts the records hold of rows no longer stored lose their cached vectors
            # first: an erase after the prune would not find them (session 28)
            self.forget_pruned("id", cut)  # type: ignore[attr-defined]
            n = self.db.execute("DELETE FROM changes WHERE id <= ?", (cut,)).rowcount
            self.db.execute("UPDATE change_log_floor SET floor = ?", (cut,))
            return n
