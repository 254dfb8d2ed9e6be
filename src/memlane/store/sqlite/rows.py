"""Column lists and row converters shared by the SQLite store's modules."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from memlane.types import Item, Message, Session, StoredFact

__all__ = ["LEXICAL_POSTINGS", "fts_query"]

_ITEM_FIELDS = (
    "id", "kind", "text", "at", "scope", "agent", "project", "session_id", "message_id", "seq",
    "role", "keywords", "entities", "source", "durability", "lane", "trust", "privacy",
    "ttl_seconds", "parents", "children", "status", "dedupe_hash", "extra", "pinned",
)
"""Item's fields in order, each read from the items column of that name."""
if tuple(f.name for f in fields(Item)) != _ITEM_FIELDS:  # _item passes them by position
    raise ImportError("memlane.types.Item's fields changed: update memlane.store.sqlite.rows")
_ITEM_COLS = ", ".join(_ITEM_FIELDS)
_SESSION_COLS = (
    "id, scope, status, started_at, ended_at, message_count, participants, agent, project, "
    "closed_reason, failed_reason, summary_version, indexed_at, attempts, summarized_at, summary_model"
)
_FACT_COLS = (
    "id, item_id, scope, subject, predicate, object, source, session_id, message_id, at, "
    "reinforcements, last_accessed, superseded_by, status"
)
_MESSAGE_COLS = "id, session_id, scope, role, text, at, seq, speaker, ext_id, agent, project, redactions"


_fromts = datetime.fromtimestamp
_loads = json.loads


def _dt(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


def _session(r: Sequence[Any]) -> Session:
    return Session(
        id=r[0], scope=r[1], status=r[2], started_at=_dt(r[3]), ended_at=_dt(r[4]),
        message_count=r[5], participants=tuple(json.loads(r[6])), agent=r[7], project=r[8],
        closed_reason=r[9], failed_reason=r[10], summary_version=r[11], indexed=r[12] is not None,
        attempts=r[13], summarized=r[14] is not None, summary_model=r[15],
    )


def _fact(r: Sequence[Any]) -> StoredFact:
    return StoredFact(
        id=r[0], item_id=r[1], scope=r[2], subject=r[3], predicate=r[4], object=r[5], source=r[6],
        session_id=r[7], message_id=r[8], at=_dt(r[9]), reinforcements=r[10],
        last_accessed=_dt(r[11]), superseded_by=r[12], status=r[13],
    )


def _message(r: Sequence[Any]) -> Message:
    return Message(
        id=r[0], session_id=r[1], scope=r[2], role=r[3], text=r[4], at=_dt(r[5]), seq=r[6],
        speaker=r[7], ext_id=r[8], agent=r[9], project=r[10], redactions=r[11],
    )


def _list(text: str) -> tuple[Any, ...]:
    return () if text == "[]" else tuple(json.loads(text))  # most lists are empty: skip JSON


def _item(r: Sequence[Any]) -> Item:
    """An Item from a row of ``_ITEM_COLS``; arguments by position (a third faster than by
    keyword, measured hydrating 400 items), in the order ``_ITEM_FIELDS`` checks."""
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
