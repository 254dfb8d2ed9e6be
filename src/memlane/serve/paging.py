"""Pages of long listings, shared by the HTTP API, the MCP server, the CLI and the inspector.

A scope's facts were read 1,000 at most (the store's page) and every surface showed those
as if they were all: ``fact_page`` and ``session_page`` read one page and say whether
another follows, both as an offset and as a cursor (``memlane.cursor``): an offset
repeats or skips a row when rows before it are added or removed between pages, a cursor
does not. Past the first page, a page names the cursor of the page before it too
(``prev_cursor``, read as ``before``; session 29)."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

from memlane.cursor import cursor_after, read_start
from memlane.memory import Memory

__all__ = ["Page", "fact_page", "session_page"]


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a listing (``fact_page``, ``session_page``) and where the next starts,
    by offset and by cursor."""

    rows: list[Any]
    """The page's rows, in the listing's order."""
    offset: int
    """The position of the first of them (0 the first row; 0 too for a page read by
    cursor, whose position is not counted)."""
    next_offset: int | None
    """Where the next page starts by offset; None after the last (and for a page read by
    cursor: offsets and cursors do not mix)."""
    next_cursor: str | None
    """The cursor of the next page; None after the last."""
    prev_cursor: str | None = None
    """The cursor (``before``) of the page before, which ends just before this one's first
    row; None on the first page."""


def _page(rows: list[Any], limit: int, offset: int, cursor: str | None) -> Page:
    more = len(rows) > limit
    rows = rows[:limit]
    return Page(rows, offset,
                offset + limit if more and cursor is None else None,
                cursor_after(rows[-1]) if more else None,
                cursor_after(rows[0]) if rows and (offset or cursor) else None)


def _back(rows: list[Any], limit: int, read: Callable[[str | None, int], list[Any]]) -> Page:
    """The page of a ``before`` read (``limit`` + 1 rows read back, in the listing's
    order): its last ``limit`` rows, a page before them if the read found one more, a next
    page if ``read(cursor, 1)`` finds a row after them. With no row before ``before`` (all
    removed since), the first page."""
    if not rows:
        return _page(read(None, limit + 1), limit, 0, None)
    more = len(rows) > limit
    rows = rows[-limit:]
    after = cursor_after(rows[-1])
    return Page(rows, 0, None, after if read(after, 1) else None,
                cursor_after(rows[0]) if more else None)


def fact_page(mem: Memory, scope: str | None, subject: str | None, *,
              include_superseded: bool = False, now: Any = None, limit: int = 1000,
              offset: int = 0, cursor: str | None = None, before: str | None = None) -> Page:
    """``limit`` facts from the ``offset``-th on (or after ``cursor``, or the ``limit``
    just before ``before``), and whether more follow (one more is read, so a page of
    exactly the last facts says there is no next)."""
    def read(after: str | None, n: int, back: str | None = None) -> list[Any]:
        # an empty subject is refused as a blank one is, naming it: `or None` read it as no
        # subject, every fact (session 33)
        return mem.facts(scope, subject, include_superseded=include_superseded,
                         now=now, limit=n, offset=offset, cursor=after, before=back)

    if before is not None:
        return _back(read(cursor, limit + 1, before), limit, read)
    return _page(read(cursor, limit + 1), limit, offset, cursor)


def session_page(mem: Memory, scope: str | None, status: str | None, *, limit: int = 50,
                 offset: int = 0, cursor: str | None = None, stored: bool = False,
                 before: str | None = None) -> Page:
    """``limit`` sessions, newest first, from the ``offset``-th on (or after ``cursor``),
    and whether more follow. ``stored``: ``scope`` is a spelling the store holds (the
    inspector's ``resolve_scope``), read as it is: an old database's ``team\u200b`` is
    refused as a new scope's name but still listed (``offset`` 0 with a ``cursor``).
    ``before``: the ``limit`` sessions just before that cursor's row (newer than it). On
    either path any two of ``cursor``, ``before`` and an ``offset`` other than 0 are refused
    (``memlane.cursor.read_start``)."""
    def read(after: str | None, n: int, back: str | None = None) -> list[Any]:
        if stored:
            keys = read_start(after, back, offset, "sessions", scope=scope)
            return mem.store.list_sessions(scope=scope, status=status, limit=n, offset=offset,
                                           after=keys[0], before=keys[1])
        return mem.sessions(scope=scope, status=status, limit=n, offset=offset, cursor=after,
                            before=back)

    if before is not None:
        return _back(read(cursor, limit + 1, before), limit, read)
    return _page(read(cursor, limit + 1), limit, offset, cursor)
