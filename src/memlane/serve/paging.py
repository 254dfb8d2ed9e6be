"""Pages of long listings, shared by the HTTP API, the MCP server and the inspector.

A scope's facts were read 1,000 at most (the store's page) and every surface showed those
as if they were all: ``fact_page`` reads one page and says whether another follows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memlane.memory import Memory

__all__ = ["FactPage", "fact_page"]


@dataclass(frozen=True, slots=True)
class FactPage:
    facts: list[Any]
    """The page's facts (``FactView``), in ``Memory.facts`` order."""
    offset: int
    """The position of the first of them (0 the first fact)."""
    next_offset: int | None
    """Where the next page starts; None after the last."""


def fact_page(mem: Memory, scope: str | None, subject: str | None, *,
              include_superseded: bool = False, limit: int = 1000, offset: int = 0) -> FactPage:
    """``limit`` facts from the ``offset``-th on, and whether more follow (one more read
    when the page is full, so a page of exactly the last facts says there is no next)."""
    rows = mem.facts(scope, subject or None, include_superseded=include_superseded,
                     limit=limit, offset=offset)
    more = len(rows) == limit and bool(
        mem.facts(scope, subject or None, include_superseded=include_superseded, limit=1,
                  offset=offset + limit))
    return FactPage(rows, offset, offset + limit if more else None)
