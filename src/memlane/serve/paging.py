"""Pages of long listings, shared by the HTTP API, the MCP server, the CLI and the inspector.

A scope's facts were read 1,000 at most (the store's page) and every surface showed those
as if they were all: ``fact_page`` and ``session_page`` read one page and say whether
another follows, both as an offset and as a cursor (``memlane.cursor``): an offset
repeats or skips a row when rows before it are added or removed between pages, a cursor
does not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memlane.cursor import cursor_after, read_cursor
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


def _page(rows: list[Any], limit: int, offset: int, cursor: str | None) -> Page:
    more = len(rows) > limit
    rows = rows[:limit]
    return Page(rows, offset,
                offset + limit if more and cursor is None else None,
                cursor_after(rows[-1]) if more else None)


def fact_page(mem: Memory, scope: str | None, subject: str | None, *,
              include_superseded: bool = False, now: Any = None, limit: int = 1000,
              offset: int = 0, cursor: str | None = None) -> Page:
    """``limit`` facts from the ``offset``-th on (or after ``cursor``), and whether more
    follow (one more is read, so a page of exactly the last facts says there is no next)."""
    return _page(mem.facts(scope, subject or None, include_superseded=include_superseded,
                           now=now, limit=limit + 1, offset=offset, cursor=cursor),
                 limit, offset, cursor)


def session_page(mem: Memory, scope: str | None, status: str | None, *, limit: int = 50,
                 offset: int = 0, cursor: str | None = None, stored: bool = False) -> Page:
    """``limit`` sessions, newest first, from the ``offset``-th on (or after ``cursor``),
    and whether more follow. ``stored``: ``scope`` is a spelling the store holds (the
    inspector's ``resolve_scope``), read as it is: an old database's ``team\u200b`` is
    refused as a new scope's name but still listed (``offset`` 0 with a ``cursor``)."""
    if stored:
        after = None if cursor is None else read_cursor(cursor, "sessions")
        rows = mem.store.list_sessions(scope=scope, status=status, limit=limit + 1,
                                       offset=offset, after=after)
    else:
        rows = mem.sessions(scope=scope, status=status, limit=limit + 1, offset=offset,
                            cursor=cursor)
    return _page(rows, limit, offset, cursor)
