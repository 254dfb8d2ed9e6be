"""Column lists and row converters that both stores read the same way.

Each backend's ``rows`` module adds what differs (how items, lists and vectors decode).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from memlane.types import Item, Message, Session, StoredEntity, StoredFact

__all__ = [
    "ENTITY_COLS", "FACT_COLS", "ITEM_COLS", "ITEM_FIELDS", "MESSAGE_COLS", "SESSION_COLS", "dt",
    "entity", "fact", "item", "message", "session",
]

ITEM_FIELDS = (
    "id", "kind", "text", "at", "scope", "agent", "project", "session_id", "message_id", "seq",
    "role", "keywords", "entities", "source", "durability", "lane", "trust", "privacy",
    "ttl_seconds", "parents", "children", "status", "dedupe_hash", "extra", "pinned",
)
"""Item's fields in order, each read from the items column of that name."""
if tuple(f.name for f in fields(Item)) != ITEM_FIELDS:  # item decoders pass them by position
    raise ImportError("memlane.types.Item's fields changed: update memlane.store.rows")
ITEM_COLS = ", ".join(ITEM_FIELDS)
SESSION_COLS = (
    "id, scope, status, started_at, ended_at, message_count, participants, agent, project, "
    "closed_reason, failed_reason, summary_version, indexed_at, attempts, summarized_at, summary_model,"
    " deferrals"
)
FACT_COLS = (
    "id, item_id, scope, subject, predicate, object, source, session_id, message_id, at, "
    "reinforcements, last_accessed, superseded_by, status"
)
ENTITY_COLS = "id, scope, name, type, context, mentions, first_seen, last_seen"
MESSAGE_COLS = "id, session_id, scope, role, text, at, seq, speaker, ext_id, agent, project, redactions"


def dt(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


def session(r: Sequence[Any]) -> Session:
    return Session(
        id=r[0], scope=r[1], status=r[2], started_at=dt(r[3]), ended_at=dt(r[4]),
        message_count=r[5], participants=tuple(json.loads(r[6])), agent=r[7], project=r[8],
        closed_reason=r[9], failed_reason=r[10], summary_version=r[11], indexed=r[12] is not None,
        attempts=r[13], summarized=r[14] is not None, summary_model=r[15],
        deferrals=r[16],
    )


def fact(r: Sequence[Any]) -> StoredFact:
    return StoredFact(
        id=r[0], item_id=r[1], scope=r[2], subject=r[3], predicate=r[4], object=r[5], source=r[6],
        session_id=r[7], message_id=r[8], at=dt(r[9]), reinforcements=r[10],
        last_accessed=dt(r[11]), superseded_by=r[12], status=r[13],
    )


def message(r: Sequence[Any]) -> Message:
    return Message(
        id=r[0], session_id=r[1], scope=r[2], role=r[3], text=r[4], at=dt(r[5]), seq=r[6],
        speaker=r[7], ext_id=r[8], agent=r[9], project=r[10], redactions=r[11],
    )


def entity(r: Sequence[Any]) -> StoredEntity:
    return StoredEntity(r[0], r[1], r[2], r[3], r[4], r[5], dt(r[6]), dt(r[7]))


_fromts = datetime.fromtimestamp
_loads = json.loads
_new = object.__new__
if "__post_init__" in vars(Item) or not hasattr(Item, "__slots__"):  # ``item`` sets the slots itself
    raise ImportError("memlane.types.Item gained a __post_init__ or lost its slots: update memlane.store.rows.item")
(_set_id, _set_kind, _set_text, _set_at, _set_scope, _set_agent, _set_project, _set_session_id,
 _set_message_id, _set_seq, _set_role, _set_keywords, _set_entities, _set_source, _set_durability,
 _set_lane, _set_trust, _set_privacy, _set_ttl, _set_parents, _set_children, _set_status,
 _set_dedupe, _set_extra, _set_pinned) = (getattr(Item, f).__set__ for f in ITEM_FIELDS)


_ZULU_KINDS = frozenset(("summary", "observation"))


def _zulu(value: Any) -> Any:
    return value[:-6] + "Z" if isinstance(value, str) and value.endswith("+00:00") else value


def zulu_extra(extra: dict[str, Any]) -> dict[str, Any]:
    """A summary's ``extra.summary.time_start``/``time_end`` and an observation's
    ``extra.event_date`` as every other time memlane answers with (``…Z``). Until session
    20 they were stored as ``…+00:00``: one answer of the service (a session, a search hit)
    carried both forms, ``started_at`` in one and ``time_start`` in the other."""
    summary = extra.get("summary")
    if isinstance(summary, dict):
        for key in ("time_start", "time_end"):
            if key in summary:
                summary[key] = _zulu(summary[key])
    if "event_date" in extra:
        extra["event_date"] = _zulu(extra["event_date"])
    return extra


def item(r: Sequence[Any]) -> Item:
    """An Item from a row of ``ITEM_COLS``, in the order ``ITEM_FIELDS`` checks. JSON lists
    are text on both backends, and most are empty: those skip the JSON parser.

    Each slot is set through its descriptor, as the frozen dataclass's ``__init__`` does
    through ``object.__setattr__`` (the same object: ``Item`` has no ``__post_init__``,
    checked on import), in half the time: a search builds 300-500 items (measured 400
    rows: 2.3 against 4.0 ms; docs/scaling.md, seventh round)."""
    (id_, kind, text, at, scope, agent, project, session_id, message_id, seq, role, keywords,
     entities, source, durability, lane, trust, privacy, ttl, parents, children, status, dedupe,
     extra, pinned) = r
    o = _new(Item)
    _set_id(o, id_)
    _set_kind(o, kind)
    _set_text(o, text)
    _set_at(o, _fromts(at, UTC))
    _set_scope(o, scope)
    _set_agent(o, agent)
    _set_project(o, project)
    _set_session_id(o, session_id)
    _set_message_id(o, message_id)
    _set_seq(o, seq)
    _set_role(o, role)
    _set_keywords(o, () if keywords == "[]" else tuple(_loads(keywords)))
    _set_entities(o, () if entities == "[]" else tuple(_loads(entities)))
    _set_source(o, source)
    _set_durability(o, durability)
    _set_lane(o, lane)
    _set_trust(o, trust)
    _set_privacy(o, privacy)
    _set_ttl(o, ttl)
    _set_parents(o, () if parents == "[]" else tuple(_loads(parents)))
    _set_children(o, () if children == "[]" else tuple(_loads(children)))
    _set_status(o, status)
    _set_dedupe(o, dedupe)
    if extra == "{}":
        _set_extra(o, {})
    elif kind in _ZULU_KINDS:
        _set_extra(o, zulu_extra(_loads(extra)))
    else:
        _set_extra(o, _loads(extra))
    _set_pinned(o, bool(pinned))
    return o
