"""Plain-data views of memlane objects, for ``--json`` output with stable keys."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memlane.ingest.spellings import resolve_scope
from memlane.pack.phrase import fact_sentence
from memlane.store.filters import Filters
from memlane.types import PRIVACIES, Hit, Item, Message, Session

if TYPE_CHECKING:
    from memlane.memory import Memory

__all__ = ["dumps", "fact_key", "fact_sentence", "filters_given", "hit_dict", "item_dict", "message_dict", "no_match", "nothing_note", "scope_is_empty",
           "session_dict", "to_plain"]


_SCALARS = (str, int, float, bool, type(None))
_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def to_plain(obj: Any) -> Any:
    """JSON-ready data: dataclasses as dicts, datetimes as ISO-8601 (``Z`` for UTC)."""
    if isinstance(obj, _SCALARS):
        return obj
    if isinstance(obj, dict):
        return {str(k): to_plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_plain(v) for v in obj]
    if isinstance(obj, datetime):
        return obj.isoformat().replace("+00:00", "Z")
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {name: to_plain(getattr(obj, name)) for name in _field_names(type(obj))}
    return obj


def session_dict(s: Session) -> dict[str, Any]:
    return to_plain(s)


def message_dict(m: Message) -> dict[str, Any]:
    return to_plain(m)


def item_dict(i: Item) -> dict[str, Any]:
    return to_plain(i)


def hit_dict(h: Hit) -> dict[str, Any]:
    """A hit's public keys. Its item and session stay dataclasses: ``dumps`` (through
    ``to_plain``) and the service's orjson encoder write them the same way."""
    return {"score": h.score, "scores": h.scores, "item": h.item, "session": h.session}


def place(it: Item) -> str:
    """Where an item sits, for a person: "session 3 turn 2", "session 3" (a summary, fact or
    entity read from the whole session) or "no session" (an upserted item)."""
    if it.session_id is None:
        return "no session"
    return f"session {it.session_id} turn {it.seq}" if it.seq else f"session {it.session_id}"


def fact_key(subject: str, predicate: str) -> str:
    """The stored key of a fact, as ``memlane facts history`` and MCP's fact_history take it."""
    return f"subject {subject!r}, predicate {predicate!r}"


def dumps(obj: Any) -> str:
    return json.dumps(to_plain(obj), ensure_ascii=False, indent=2, sort_keys=False)


def scope_is_empty(mem: Memory, scope: str) -> bool:
    """True when ``scope`` holds no session and no item at all."""
    return mem._scope_holds_nothing(scope)


UNINDEXED_LOOK = 200
"""How many of the newest sessions ``nothing_note`` looks at for ones not indexed yet."""


def no_match(mem: Memory, filtered: Sequence[str] = (), default_privacy: bool = True,
             scope: str | None = None) -> str:
    """Why a search of indexed memories found nothing: a hit shares a word with the query
    or is nearer to it in meaning than ``retrieval.min_similarity`` (docs/retrieval.md,
    "Session 31: a floor under the vector list"). ``filtered``: the names of the filters
    the search was given (``filters_given``), which it then says it was among: a memory
    the filters left out may share a word (session 32: ``--since 2030-01-01`` was told
    "no memory shares a word with the query" of a scope holding one). ``default_privacy``:
    the search was given no privacy levels, so ``search.default_privacy`` chose them; when
    ``scope`` (None: every scope) holds a memory of a level it leaves out, it is named among
    the filters too (session 33: a "shared" memory of the query's word, left out by the
    default, was told "no memory shares a word with the query")."""
    filtered = list(filtered)
    levels = mem.config.search.default_privacy
    left_out = tuple(p for p in PRIVACIES if p not in levels)
    if default_privacy and left_out and mem.store.any_item(Filters.build(
            scope=resolve_scope(mem.store, scope) if scope is not None else None, privacy=left_out)):
        filtered.append(f"search.default_privacy = {', '.join(levels)}")
    floor = mem.config.retrieval.min_similarity
    near = (f", and none is nearer to it in meaning than retrieval.min_similarity ({floor:g})"
            if floor > -1 else "")
    among = f" of those the filters keep ({', '.join(filtered)})" if filtered else ""
    return f"no memory{among} shares a word with the query{near}"


def filters_given(**filters: Any) -> tuple[str, ...]:
    """The names of the search filters given a value (not None, not empty), sorted: what
    ``no_match`` says a search that found nothing was among."""
    return tuple(sorted(name for name, value in filters.items()
                        if value is not None and value != [] and value != ()))


def nothing_note(mem: Memory, scope: str | None, default: str = "no results",
                 search: bool = False, filtered: Sequence[str] = (),
                 default_privacy: bool = True) -> str:
    """Why a read found nothing: a query without words, a scope with no memories, sessions
    not indexed yet (messages are searchable once their session is closed and indexed), or
    simply no match (for a ``search``, what a match is: ``no_match``)."""
    if mem.last_notice:
        return str(mem.last_notice)
    if scope is not None and scope.strip() and scope_is_empty(mem, scope):
        return f"scope {scope!r} has no memories"
    waiting = sum(not s.indexed for s in mem.sessions(scope=scope, limit=UNINDEXED_LOOK))
    if waiting:
        where = f" in scope {scope!r}" if scope is not None and scope.strip() else ""
        return (f"{default}; {waiting} session(s){where} not indexed yet: `memlane index` closes "
                "idle sessions and indexes every closed one (`memlane serve` runs the index "
                "worker itself)")
    return (f"{default}: {no_match(mem, filtered, default_privacy, scope)}" if search
            else default)
