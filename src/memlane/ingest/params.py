"""The one place that checks every public ``Memory`` method's parameters.

``RULES`` maps each public method to a rule per parameter; ``validated`` wraps the method
so that a bad value raises ``ValidationError`` naming the parameter before any work is
done (never a TypeError, OverflowError, RecursionError or UnicodeEncodeError from deep
inside). The HTTP service and the MCP server call the same methods, so they inherit it.
A test checks that every public method and every parameter has a rule.
"""

from __future__ import annotations

import functools
import inspect
import io
import json
import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from memlane.config import Config
from memlane.errors import ValidationError
from memlane.cursor import read_cursor
from memlane.ingest.spellings import is_old_spelling, stored_scope
from memlane.ingest.validate import (
    INT64_MAX,
    MAX_CHARS_KEY,
    MAX_NESTING,
    check_bool,
    check_float,
    check_int,
    check_label,
    check_scope,
    check_role,
    check_text,
    check_unicode,
    parse_time,
    value_nesting,
)
from memlane.types import (
    DURABILITIES,
    ENGINE_KINDS,
    ENGINE_LANES,
    KINDS,
    LANES,
    PRIVACIES,
    SESSION_STATUSES,
    SOURCES,
    UPSERT_KINDS,
)

__all__ = ["RULES", "bounds", "check_query", "validated"]

# how deep this thread is in validated calls: a call made by another (``pack`` calling
# ``search``, ``format_context`` calling ``pack``) may be given the scope's old spelling the
# outer one looked up (``team\u200b``), which its check refused (session 34); a caller's own
# ``team\u200b`` is still refused
_inside = threading.local()

Rule = Callable[[Any, str, Config], Any]  # (value, parameter name, config) -> checked value
F = TypeVar("F", bound=Callable[..., Any])

MAX_BUDGET = 1_000_000
MAX_K = 1000
MAX_SHORT_TEXT = 1000  # subjects, predicates, objects, topics, entities, model names


def _opt(rule: Rule) -> Rule:
    def check(value: Any, field: str, config: Config) -> Any:
        return None if value is None else rule(value, field, config)
    _bounded(check, *getattr(rule, "bounds", (None, None)))
    return check


def _bounded(rule: Rule, low: float | None, high: float | None) -> Rule:
    """Mark a numeric rule with its range (``bounds(method, name)``, which the CLI's option
    types read: one range per parameter on every surface)."""
    if low is not None or high is not None:
        rule.bounds = (low, high)  # type: ignore[attr-defined]
    return rule


def bounds(method: str, name: str) -> tuple[Any, Any]:
    """``(low, high)`` of ``RULES[method][name]``, a numeric parameter's range."""
    found: tuple[Any, Any] = RULES[method][name].bounds  # type: ignore[attr-defined]
    return found


def _label(value: Any, field: str, config: Config) -> str:
    return check_label(value, field)


def _ident(value: Any, field: str, config: Config) -> str:
    return check_scope(value, field)


def _short(value: Any, field: str, config: Config) -> str:
    return check_label(value, field, MAX_SHORT_TEXT)


def _cursor(listing: str) -> Rule:
    def check(value: Any, field: str, config: Config) -> str:
        read_cursor(value, listing, field)  # refuses, naming the parameter, what no answer gave
        return str(value)
    return _opt(check)


def _id(value: Any, field: str, config: Config) -> int:
    return check_int(value, field)


_bounded(_id, 1, INT64_MAX)


def _int(low: int, high: int) -> Rule:
    return _bounded(lambda value, field, config: check_int(value, field, low, high), low, high)


def _num(low: float, high: float) -> Rule:
    return _bounded(lambda value, field, config: check_float(value, field, low, high), low, high)


def _bool(value: Any, field: str, config: Config) -> bool:
    return check_bool(value, field)


def _time(value: Any, field: str, config: Config) -> Any:
    parse_time(value, field)
    return value


def _choice(allowed: tuple[str, ...]) -> Rule:
    def check(value: Any, field: str, config: Config) -> str:
        if not isinstance(value, str) or value not in allowed:
            shown = value if isinstance(value, str) and len(value) <= 40 else type(value).__name__
            raise ValidationError(f"{field}: must be one of {', '.join(allowed)}, got {shown!r}",
                                  field=field)
        return value
    return check


def _upsert_kind(value: Any, field: str, config: Config) -> str:
    """A kind a client may store: not one memlane writes itself (a forged ``summary`` or
    ``turn`` passed for the engine's own)."""
    if isinstance(value, str) and value == "fact":
        raise ValidationError(f"{field}: store facts with add_fact(subject, predicate, object)"
                              f" (memory.upsert takes {', '.join(UPSERT_KINDS)})", field=field)
    if isinstance(value, str) and value in ENGINE_KINDS:
        raise ValidationError(
            f"{field}: {value!r} items are written by memlane itself "
            f"({', '.join(ENGINE_KINDS)}); must be one of {', '.join(UPSERT_KINDS)}", field=field)
    return _choice(UPSERT_KINDS)(value, field, config)


def _upsert_lane(value: Any, field: str, config: Config) -> str:
    if isinstance(value, str) and value in ENGINE_LANES:
        allowed = ", ".join(x for x in LANES if x not in ENGINE_LANES)
        raise ValidationError(
            f"{field}: {value!r} is kept by memlane itself (a topic's thread: pass topics); "
            f"must be one of {allowed}", field=field)
    return _choice(LANES)(value, field, config)


UPSERT_RESERVED_EXTRA = ("absorbed", "children")
"""Keys of ``extra`` the engine reads as links of its own roll-ups (erasure follows them)."""


def _upsert_extra(value: Any, field: str, config: Config) -> dict[str, Any] | None:
    if value is None:
        return None
    out = _extra(value, field, config)
    for key in UPSERT_RESERVED_EXTRA:
        if isinstance(out, dict) and key in out:
            raise ValidationError(
                f"{field}.{key}: reserved for memlane's own roll-ups (keys "
                f"{', '.join(UPSERT_RESERVED_EXTRA)}); name it otherwise", field=f"{field}.{key}")
    return out


def _choices(allowed: tuple[str, ...]) -> Rule:
    """A list or tuple of allowed values (a comma-separated string is accepted too)."""
    def check(value: Any, field: str, config: Config) -> tuple[str, ...]:
        if isinstance(value, str):
            check_unicode(value, field)
            value = [v for v in value.split(",") if v]
        if not isinstance(value, (list, tuple)):
            raise ValidationError(f"{field}: must be a list of {', '.join(allowed)}, "
                                  f"got {type(value).__name__}", field=field)
        if not value:  # an empty list would match nothing (or, in SQL, not parse)
            raise ValidationError(f"{field}: name at least one of {', '.join(allowed)} "
                                  "(or pass None for the default)", field=field)
        return tuple(_choice(allowed)(v, field, config) for v in value)
    return check


def _message_text(value: Any, field: str, config: Config) -> str:
    return check_text(value, config.ingest.max_message_chars, field, MAX_CHARS_KEY)


def _callable(value: Any, field: str, config: Config) -> Any:
    if not callable(value):
        raise ValidationError(f"{field}: must be a function, got {type(value).__name__}", field=field)
    return value


def check_query(value: Any, field: str, config: Config) -> str:
    """A query: a string with something in it, at most ``retrieval.max_query_chars``."""
    if not isinstance(value, str):
        raise ValidationError(f"{field}: must be a string, got {type(value).__name__}", field=field)
    limit = config.retrieval.max_query_chars
    if len(value) > limit:
        raise ValidationError(
            f"{field}: {len(value)} characters is over the limit of {limit} "
            "(retrieval.max_query_chars)", field=field)
    check_unicode(value, field)
    if not value.strip():
        raise ValidationError(f"{field}: must not be empty; ask a question", field=field)
    return value


def _source(value: Any, field: str, config: Config) -> Any:
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        if isinstance(path, bytes) or not path or "\x00" in path:
            raise ValidationError(f"{field}: not a usable file name", field=field)
        check_unicode(path, field)
        return value
    if isinstance(value, io.IOBase) or (hasattr(value, "read") and hasattr(value, "__iter__")):
        return value
    raise ValidationError(f"{field}: must be a file path or an open text file, "
                          f"got {type(value).__name__}", field=field)


def _extra(value: Any, field: str, config: Config) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValidationError(f"{field}: must be a dict, got {type(value).__name__}", field=field)
    if value_nesting(value) > MAX_NESTING:  # refused before json could recurse
        raise ValidationError(f"{field}: nested deeper than {MAX_NESTING} levels", field=field)
    try:
        # ensure_ascii=False: its \uXXXX escapes hid a lone surrogate from the check below,
        # and the item was stored, then failed every answer that carried it (a 500, and
        # every search of the scope reaching it)
        text = json.dumps(value, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as e:
        raise ValidationError(f"{field}: must hold only JSON values ({e})", field=field) from None
    check_unicode(text, field)
    where = _wide_int(value, field)
    if where is not None:
        raise ValidationError(f"{where}: an integer past 64 bits (from -2**63 to 2**63-1); "
                              "send a larger number as a string", field=field)
    if len(text) > config.ingest.max_message_chars:
        raise ValidationError(f"{field}: {len(text)} characters of JSON is over the limit of "
                              f"{config.ingest.max_message_chars} ({MAX_CHARS_KEY})", field=field)
    return value


def _wide_int(value: Any, field: str) -> str | None:
    """The dotted path of the first integer in ``value`` outside 64 bits, or None. JSON has
    no limit on an integer, but the service's encoder (orjson) and most JSON readers do:
    ``extra: {"n": 10**30}`` was stored, then every answer carrying the item (its upsert,
    each search reaching it) was a 500. Called once the value is known to be acyclic."""
    stack: list[tuple[Any, str]] = [(value, field)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, int) and not isinstance(item, bool):
            if not -2**63 <= item <= 2**63 - 1:
                return path
        elif isinstance(item, dict):
            stack.extend((v, f"{path}.{k}") for k, v in item.items())
        elif isinstance(item, (list, tuple)):
            stack.extend((v, f"{path}.{i}") for i, v in enumerate(item))
    return None


def _topics(value: Any, field: str, config: Config) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ValidationError(f"{field}: must be a list of strings, got {type(value).__name__}",
                              field=field)
    if len(value) > 100:
        raise ValidationError(f"{field}: at most 100 topics", field=field)
    return tuple(_short(v, field, config) for v in value)


MAX_BATCH = 10_000


def _batch(value: Any, field: str, config: Config) -> Any:
    """A list of message objects (each is checked by ``add_message``'s rules)."""
    if not isinstance(value, (list, tuple)):
        raise ValidationError(f"{field}: must be a list of message objects, got "
                              f"{type(value).__name__}", field=field)
    if len(value) > MAX_BATCH:
        raise ValidationError(f"{field}: at most {MAX_BATCH} messages at once, got {len(value)}",
                              field=field)
    return value


def _draft(value: Any, field: str, config: Config) -> Any:
    from memlane.memory import SummaryDraft

    if not isinstance(value, SummaryDraft):
        raise ValidationError(f"{field}: must be the SummaryDraft summarize_recent returned",
                              field=field)
    return value


def _counter(value: Any, field: str, config: Config) -> Any:
    if not callable(getattr(value, "count", None)) or not isinstance(getattr(value, "name", None), str):
        raise ValidationError(f"{field}: must be a TokenCounter (a name and a count(text) "
                              "method)", field=field)
    return value


_OPT_LABEL = _opt(_label)
_OPT_IDENT = _opt(_ident)
_OPT_TIME = _opt(_time)
_OPT_SHORT = _opt(_short)

RULES: dict[str, dict[str, Rule]] = {
    "add_message": {"scope": _ident, "role": lambda v, f, m: check_role(v), "text": _message_text,
                    "at": _OPT_TIME, "speaker": _OPT_LABEL, "id": _OPT_LABEL,
                    "agent": _OPT_IDENT, "project": _OPT_IDENT},
    "add_messages": {"messages": _batch},
    "import_file": {"source": _source, "strict": _bool, "scope": _OPT_IDENT},
    "close_session": {"scope": _OPT_IDENT, "session_id": _opt(_id)},
    "close_idle": {"now": _OPT_TIME},
    "session": {"session_id": _id},
    "sessions": {"scope": _OPT_IDENT, "status": _opt(_choice(SESSION_STATUSES)),
                 "limit": _int(1, 100_000), "offset": _int(0, INT64_MAX),
                 "cursor": _cursor("sessions"), "before": _cursor("sessions")},
    "messages": {"session_id": _id},
    "session_intelligence": {"session_id": _id},
    "item": {"item_id": _id},
    "index": {"now": _OPT_TIME, "progress": _opt(_callable), "resummarize": _bool,
              "scope": _OPT_IDENT, "summary_progress": _opt(_callable)},
    "summarize_recent": {"scope": _ident, "last": _int(1, 10_000)},
    "store_summary": {"draft": _draft},
    "backfill_embeddings": {"missing_only": _bool, "rate": _opt(_num(1e-3, 1e9)),
                            "progress": _opt(_callable), "batch": _int(1, 100_000)},
    "start_worker": {"poll_seconds": _num(0.01, 86_400)},
    "search": {"query": check_query, "scope": _OPT_IDENT, "k": _opt(_int(1, MAX_K)),
               "now": _OPT_TIME, "agent": _OPT_IDENT, "project": _OPT_IDENT,
               "kinds": _opt(_choices(KINDS)), "lanes": _opt(_choices(LANES)),
               "privacy": _opt(_choices(PRIVACIES)), "since": _OPT_TIME, "until": _OPT_TIME,
               "preset": _OPT_SHORT, "session_aware": _opt(_bool),
               "top_sessions": _opt(_int(1, MAX_K)), "turns_per_session": _opt(_int(1, MAX_K)),
               "mmr": _opt(_bool), "explain": _bool},
    "pack": {"query": check_query, "budget": _opt(_int(16, MAX_BUDGET)), "scope": _OPT_IDENT,
             "model": _OPT_SHORT, "now": _OPT_TIME, "instructions": _opt(_message_text),
             "token_counter": _opt(_counter), "include_recent": _bool},
    "format_context": {"scope": _ident, "query": check_query, "budget": _opt(_int(16, MAX_BUDGET)),
                       "model": _OPT_SHORT, "now": _OPT_TIME},
    "replay_pack": {"pack_id": _id},
    "upsert": {"text": _message_text, "kind": _upsert_kind, "scope": _OPT_IDENT,
               "agent": _OPT_IDENT, "project": _OPT_IDENT, "at": _OPT_TIME,
               "lane": _upsert_lane, "durability": _choice(DURABILITIES),
               "privacy": _choice(PRIVACIES), "trust": _num(0.0, 1.0),
               "source": _choice(SOURCES),
               "ttl_seconds": _opt(_id), "topics": _topics, "pinned": _bool, "dedupe": _bool,
               "extra": _upsert_extra},
    "pin": {"item_id": _id, "pinned": _bool},
    "thread": {"topic": _short, "scope": _OPT_IDENT},
    "add_fact": {"subject": _short, "predicate": _short, "obj": _short, "scope": _ident,
                 "source": _choice(SOURCES),
                 "at": _OPT_TIME},
    "facts": {"scope": _OPT_IDENT, "subject": _OPT_SHORT, "include_superseded": _bool,
              "now": _OPT_TIME, "limit": _int(1, 100_000), "offset": _int(0, INT64_MAX),
              "cursor": _cursor("facts"), "before": _cursor("facts")},
    "fact_history": {"subject": _short, "predicate": _short, "scope": _OPT_IDENT, "now": _OPT_TIME},
    "forget_fact": {"fact_id": _id},
    "forgotten_facts": {"subject": _short, "predicate": _short, "scope": _OPT_IDENT},
    "graph": {"entity": _short, "scope": _OPT_IDENT},
    "forget_item": {"item_id": _id},
    "forget_scope": {"scope": _ident},
    "forget_session": {"session_id": _id},
    "vacuum": {},
    "gc": {"now": _OPT_TIME},
    "compact": {"scope": _OPT_IDENT, "topic": _OPT_SHORT, "now": _OPT_TIME},
    "work_once": {"now": _OPT_TIME},
    "background_index": {"now": _OPT_TIME},
    "stats": {},
    "reading_only": {"on": _bool},
}


def validated(method: F) -> F:
    """Check ``method``'s arguments against ``RULES[method.__name__]`` before it runs.

    Arguments are matched to parameters by hand when that is plain (no ``*args``,
    ``**kwargs`` or positional-only parameter; no argument twice, none unknown, none
    required missing), else by ``inspect.Signature.bind``, which also words the error:
    the same outcome, without ``bind``'s 10 us a call on the hot path (``add_message``).
    Rules run in the parameters' order, so the first bad one is the one named.
    """
    rules = RULES[method.__name__]
    sig = inspect.signature(method)
    params = list(sig.parameters.values())
    plain = all(p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in params)
    positional = tuple(p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD)[1:]
    known = frozenset(p.name for p in params[1:])
    required = tuple(p.name for p in params[1:] if p.default is p.empty)
    ordered = tuple((p.name, rules[p.name]) for p in params if p.name in rules)
    # a scope is looked up as the database spells it (``ingest.spellings``), except where
    # the message path does it itself: it checks the scope again (``prepare``), which
    # refuses an old spelling holding a format character
    resolve = method.__name__ not in ("add_message", "import_file")

    def plain_call(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any] | None:
        """The arguments by parameter name, or None to leave the call to ``bind``."""
        if not plain or len(args) > len(positional) or not known.issuperset(kwargs):
            return None
        arguments = dict(zip(positional, args))
        if not arguments.keys().isdisjoint(kwargs):
            return None
        arguments.update(kwargs)
        return arguments if all(name in arguments for name in required) else None

    def checked(self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        arguments = plain_call(args, kwargs)
        if arguments is not None:
            held = resolve and _nested() and is_old_spelling(self.store, arguments.get("scope"))
            for name, rule in ordered:
                if name in arguments and not (held and name == "scope"):
                    arguments[name] = rule(arguments[name], name, self.config)
            if resolve and isinstance(arguments.get("scope"), str):
                arguments["scope"] = stored_scope(self.store, arguments["scope"])
            return _run(method, self, **arguments)
        try:
            bound = sig.bind(self, *args, **kwargs)
        except TypeError as e:
            raise ValidationError(f"{method.__name__}: {e}") from None
        held = resolve and _nested() and is_old_spelling(self.store, bound.arguments.get("scope"))
        for name, value in list(bound.arguments.items()):
            if name in rules and not (held and name == "scope"):
                bound.arguments[name] = rules[name](value, name, self.config)
        if resolve and isinstance(bound.arguments.get("scope"), str):
            bound.arguments["scope"] = stored_scope(self.store, bound.arguments["scope"])
        return _run(method, *bound.args, **bound.kwargs)

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls = getattr(self, "_calls", None)  # Memory's in-flight calls (close waits on them)
        if calls is None:
            return checked(self, args, kwargs)
        calls.begin()
        try:
            return checked(self, args, kwargs)
        finally:
            calls.end()

    return wrapper  # type: ignore[return-value]


def _nested() -> bool:
    """Whether this thread is inside a validated call (its arguments come from memlane)."""
    return getattr(_inside, "depth", 0) > 0


def _run(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    _inside.depth = getattr(_inside, "depth", 0) + 1
    try:
        return method(*args, **kwargs)
    finally:
        _inside.depth -= 1
