"""Column lists and row converters shared by the SQLite store's modules."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from memlane.store.rows import (
    FACT_COLS,
    ITEM_COLS,
    MESSAGE_COLS,
    SESSION_COLS,
    dt,
    fact,
    message,
    session,
)
from memlane.types import Item

__all__ = ["LEXICAL_POSTINGS", "fts_query"]

_ITEM_COLS = ITEM_COLS
_SESSION_COLS = SESSION_COLS
_FACT_COLS = FACT_COLS
_MESSAGE_COLS = MESSAGE_COLS
_dt, _session, _fact, _message = dt, session, fact, message
"""Shared with PostgreSQL (``memlane.store.rows``), under the names this store's modules use."""

_fromts = datetime.fromtimestamp
_loads = json.loads


def _list(text: str) -> tuple[Any, ...]:
    return () if text == "[]" else tuple(json.loads(text))  # most lists are empty: skip JSON


def _item(r: Sequence[Any]) -> Item:
    """An Item from a row of ``_ITEM_COLS``; arguments by position (a third faster than by
    keyword, measured hydrating 400 items), in the order ``memlane.store.rows.ITEM_FIELDS``
    checks."""
    (id_, kind, text, at, scope, agent, project, session_id, message_id, seq, role, keywords,
     entities, source, durability, lane, trust, privacy, ttl, parents, children, status, dedupe,
     extra, pinned) = r
    return Item(
        id_, kind, text, _fromts(at, UTC), scope, agent, project, session_id, message_id, seq,
        role, () if keywords == "[]" else tuple(_loads(keywords)),
        () if entities == "[]" else tuple(_loads(entities)), source, durability, lane, trust,
        privacy, ttl, () if parents == "[]" else tuple(_loads(parents)),
        () if children == "[]" else tuple(_loads(children)), status, dedupe,
        {} if extra == "{}" else _loads(extra), bool(pinned),
    )


def fts_query(terms: Sequence[str]) -> str | None:
    """An FTS5 MATCH expression OR-ing the terms, each as a quoted string.

    Quoting makes every term a literal (``AND``, ``NEAR``, ``*``, ``:``, parentheses lose
    their meaning) that FTS5 tokenizes exactly as it tokenized the documents; inner double
    quotes are doubled and NUL bytes dropped. ``None`` when nothing is searchable.
    """
    quoted = []
    for term in terms:
        term = term.replace("\x00", "")
        if term.strip():
            quoted.append('"' + term.replace('"', '""') + '"')
    return " OR ".join(quoted) if quoted else None


LEXICAL_POSTINGS = 5_000
"""Most documents a lexical query ranks (see ``SqliteStore.lexical_search``)."""


def _chunks(seq: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(seq), size):
        yield seq[i : i + size]
