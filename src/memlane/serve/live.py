"""The live memory stream's data: a scope's state document and the JSON Patches that
keep it current, read from the change log the database writes with every change.

No HTTP here: the service's ``GET /state/memory`` sends ``snapshot()`` as its first event,
then each ``Change`` of ``changes_since()`` as a JSON Patch (RFC 6902) event whose id is
``Change.id``. A client that applies every patch to the snapshot holds what a fresh
snapshot would hold. Resuming from an id the log no longer retains raises
``ResetRequired``: the client must take a new snapshot, never skip changes silently.

The state document of a scope (map keys are ids as strings, so JSON Pointers are
``/sessions/12``, ``/items/40``, ``/facts/7``)::

    {"scope": "chat-42",
     "sessions": {"12": {"status", "started", "ended", "turn_count", "participants",
                         "indexed", "closed_reason", "failed_reason", "agent", "project"}},
     "items": {"40": {"kind", "text", "lane", "status", "pinned", "durability", "privacy",
                      "trust", "source", "at", "expires", "session_id", "keywords",
                      "parents", "topic"}},
     "facts": {"7": {"subject", "predicate", "object", "source", "status",
                     "reinforcements", "superseded_by", "at", "session_id", "item_id"}},
     "last_pack": null | {"id", "query", "budget", "used", "created"}}

Items are every memory of the scope except turns (one per message: a session's
``turn_count`` counts them), so the document stays proportional to what was learnt, not
to the conversation's length. Times are UTC epoch milliseconds (integers). Nothing in it
depends on the wall clock (confidence is derived from ``source`` and ``reinforcements``).

Topics (``Change.topic``): ``session.opened`` / ``closed`` / ``summarized`` / ``failed``
/ ``indexed`` / ``updated`` / ``deleted``, ``message.added``, ``memory.item.upserted`` /
``expired`` / ``evicted`` / ``deleted``, ``fact.added`` / ``reinforced`` / ``superseded``
/ ``restored`` / ``updated`` / ``forgotten``, ``memory.pack.journaled``; erasure's
``scope.erased``, ``session.erased`` and ``memory.pack.deleted`` (docs/erasure.md).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import jsonpatch

from memlane.errors import ResetRequired, ValidationError
from memlane.ingest.spellings import resolve_scope
from memlane.ingest.validate import int_range
from memlane.store.contract import ChangeStore
from memlane.types import ChangeRecord

__all__ = [
    "MAX_LIMIT",
    "TOPICS",
    "Change",
    "Poll",
    "ResetRequired",
    "Snapshot",
    "apply",
    "changes_since",
    "poll",
    "read_snapshot",
    "snapshot",
]

MAX_LIMIT = 10_000
"""The most changes one read returns."""

TOPICS = (
    "session.opened", "session.closed", "session.summarized", "session.failed",
    "session.indexed", "session.updated", "session.deleted", "message.added",
    "memory.item.upserted", "memory.item.expired", "memory.item.evicted",
    "memory.item.deleted", "fact.added", "fact.reinforced", "fact.superseded",
    "fact.restored", "fact.updated", "fact.forgotten", "memory.pack.journaled",
    "memory.pack.deleted", "session.erased", "scope.erased",
)
"""Every topic a change can have (erasure's three were missing until session 20: a client
keeping only these dropped the events that empty its state)."""

_COLLECTIONS = {"session": "sessions", "item": "items", "fact": "facts"}


@dataclass(frozen=True)
class Change:
    """One change of a scope's live state: its position in the log (the stream's event
    id), its topic and the JSON Patch (RFC 6902 operations) that applies it."""

    id: int
    topic: str
    patch: list[dict[str, Any]]


@dataclass(frozen=True)
class Poll:
    """One read of the log: the changes, and the position to resume from (the last
    change's id, or the log's head when the scope has nothing newer)."""

    changes: list[Change]
    cursor: int
    pending: frozenset[int] = frozenset()
    """The snapshot's changes not numbered yet, or not passed yet (see ``Snapshot``): pass
    them to the next poll."""
    resume_from: int | None = 0
    """The changes with an id from this one up are positions a client may resume from;
    None: none of this poll's is (a change its snapshot holds is still ahead, and would be
    sent again). 0 once ``pending`` is empty, as it always is where the log is numbered
    by its readers."""


@dataclass(frozen=True)
class Snapshot:
    """A scope's state document and the last change id it includes (``head``).

    ``pending``: on a connection that may not write (a read replica, a read-only or
    SELECT-only role) nothing numbers the log when it reads, so the state may also hold
    changes committed and not numbered yet (their write ids). A writer numbers them later,
    above ``head``: ``poll(..., pending=)`` skips them, and until they are all passed no
    id read is a position to resume from (``Poll.resume_from``). Empty where the reader
    numbers the log (SQLite, a PostgreSQL role that may write)."""

    head: int
    state: dict[str, Any]
    pending: frozenset[int] = frozenset()


def _state(scope: str, docs: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = {"scope": scope}
    for key in _COLLECTIONS.values():
        state[key] = {str(i): d for i, d in docs[key].items()}
    state["last_pack"] = docs["last_pack"]
    return state


def read_snapshot(store: ChangeStore, scope: str) -> Snapshot:
    """The ``Snapshot`` of ``scope``, read consistently: every change up to its head is in
    the document, and after it only its ``pending`` ones."""
    scope = resolve_scope(store, scope)
    with store.live_read() as head:
        docs = store.live_documents(scope)
        unnumbered = getattr(store, "unnumbered_changes", None)
        pending = frozenset(unnumbered(scope)) if unnumbered is not None else frozenset()
    return Snapshot(head, _state(scope, docs), pending)


def snapshot(store: ChangeStore, scope: str) -> tuple[int, dict[str, Any]]:
    """``(last change id included, state document)`` of ``scope``, read consistently:
    every change up to that id is in the document and none after it, unless the
    connection may not write (then use ``read_snapshot``, whose ``pending`` says which)."""
    got = read_snapshot(store, scope)
    return got.head, got.state


def _patch(rec: ChangeRecord) -> list[dict[str, Any]]:
    if rec.entity == "scope":  # scope.erased: everything went at once (docs/erasure.md)
        return [*({"op": "replace", "path": f"/{key}", "value": {}}
                  for key in _COLLECTIONS.values()),
                {"op": "replace", "path": "/last_pack", "value": None}]
    if rec.entity == "pack":
        return [{"op": "replace", "path": "/last_pack", "value": rec.doc}]
    path = f"/{_COLLECTIONS[rec.entity]}/{rec.entity_id}"
    if rec.op == "delete":
        return [{"op": "remove", "path": path}]
    return [{"op": "add" if rec.op == "insert" else "replace", "path": path, "value": rec.doc}]


def _check_position(after: Any, limit: Any) -> tuple[int, int]:
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise ValidationError(f"after: must be a change id, an integer {int_range(0)}, "
                              f"got {after!r}",
                              field="after")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise ValidationError(f"limit: must be an integer from 1 to {MAX_LIMIT}, got {limit!r}",
                              field="limit")
    return after, limit


def poll(store: ChangeStore, scope: str, after: int, limit: int = 500,
         pending: frozenset[int] = frozenset()) -> Poll:
    """The scope's changes after ``after`` (at most ``limit``), and where to resume;
    ``pending``: a ``Snapshot``'s or the last ``Poll``'s, whose changes are skipped.

    Raises ``ResetRequired`` when ``after`` is older than the retained log or newer than
    its head (a position from another database): take a new snapshot.
    """
    scope = resolve_scope(store, scope)
    after, limit = _check_position(after, limit)
    with store.live_read() as head:
        floor = store.change_floor()
        if after < floor or after > head:
            why = ("older than the retained change log (it starts after {floor})" if after < floor
                   else "ahead of the change log (its last id is {head})")
            raise ResetRequired(
                f"after: change {after} is " + why.format(floor=floor, head=head)
                + "; take a new snapshot",
                after=after, floor=floor, head=head,
            )
        if pending and after == head:  # nothing numbered since: nothing to read or pass
            return Poll([], head, pending, None)
        if pending:
            records = store.changes_after(scope, after, limit, skip=pending)  # type: ignore[call-arg]
            where = store.numbered_positions(pending)  # type: ignore[attr-defined]
        else:
            records = store.changes_after(scope, after, limit)
    # A message's record is read with its session's current document; a session deleted
    # since has none, and its session.deleted record (later in the log) says so: skip it.
    changes = [Change(r.id, r.topic, _patch(r)) for r in records
               if r.doc is not None or r.op == "delete"]
    cursor = records[-1].id if len(records) == limit else head
    if not pending:
        return Poll(changes, cursor)
    # a row pruned since is gone from ``where``: it was at or below the floor, so passed
    left = frozenset(i for i in pending if i in where and (where[i] or cursor + 1) > cursor)
    passed = [p for i, p in where.items() if p is not None and p <= cursor]
    return Poll(changes, cursor, left, None if left else max(passed, default=0))


def changes_since(store: ChangeStore, scope: str, after: int, limit: int = 500) -> list[Change]:
    """The scope's changes after ``after``, oldest first, at most ``limit`` (see ``poll``)."""
    return poll(store, scope, after, limit).changes


def apply(state: dict[str, Any], changes: Iterable[Change]) -> dict[str, Any]:
    """A copy of ``state`` with every change's patch applied, in order (for clients and
    tests; a JavaScript client does the same with any RFC 6902 library)."""
    out = copy.deepcopy(state)
    for change in changes:
        out = jsonpatch.apply_patch(out, change.patch, in_place=True)
    return out
