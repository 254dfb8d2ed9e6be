"""Validation of caller input. Every error is a ValidationError that names the field.

The checkers here are the one vocabulary of input rules: the facade (``memlane.ingest.params``)
applies them to every public ``Memory`` parameter, the importer to every line.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from memlane.errors import ValidationError
from memlane.types import ROLES

__all__ = [
    "INT64_MAX",
    "MAX_CHARS_KEY",
    "MAX_NESTING",
    "json_nesting",
    "value_nesting",
    "MAX_SCOPE_CHARS",
    "check_bool",
    "check_float",
    "check_int",
    "int_range",
    "int_refused",
    "Whole",
    "check_id_text",
    "check_label",
    "check_role",
    "check_scope",
    "canonical_scope",
    "FORMAT_CHARACTERS",
    "has_control",
    "check_text",
    "check_unicode",
    "parse_time",
]

MAX_SCOPE_CHARS = 256
INT64_MAX = 2**63 - 1
# Times a database column and every later conversion can hold, whatever the offset.
_MIN_TIME = datetime(1, 1, 2, tzinfo=UTC)
_MAX_TIME = datetime(9999, 12, 30, tzinfo=UTC)
_RANGE = "times from 0001-01-02 to 9999-12-30 UTC, or epoch seconds between them"
# Characters that render as nothing: text made only of them is empty.
_INVISIBLE = {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e"}


def _fail(field: str, message: str) -> ValidationError:
    return ValidationError(f"{field}: {message}", field=field)


def check_unicode(value: str, field: str) -> str:
    """Refuse lone surrogates (text that cannot be written as UTF-8)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise _fail(field, f"is not valid Unicode text (a lone surrogate {value[e.start]!r} "
                           f"at character {e.start})") from None
    return value


# Unicode's categories Cc (U+0000-001F, U+007F-009F), Zl (U+2028) and Zp (U+2029) as one
# class: a search in C instead of a category lookup a character (a test checks the class
# against unicodedata over every code point).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _has_control(value: str) -> int:
    """Index of the first control, format-breaking or line-breaking character, or -1."""
    m = _CONTROL.search(value)
    return -1 if m is None else m.start()


has_control = _has_control


def check_label(value: Any, field: str, max_chars: int = MAX_SCOPE_CHARS) -> str:
    """A short single-line name (scope, agent, project, speaker, id, entity…): a non-empty
    string of at most ``max_chars`` characters with no control characters or newlines."""
    if not isinstance(value, str):
        raise _fail(field, f"must be a string, got {type(value).__name__}")
    value = value.strip()
    if not value:
        raise _fail(field, "must be a non-empty string")
    if len(value) > max_chars:
        raise _fail(field, f"must be at most {max_chars} characters, got {len(value)}")
    check_unicode(value, field)
    bad = _has_control(value)
    if bad >= 0:
        raise _fail(field, f"must be one line without control characters "
                           f"(found {value[bad]!r} at character {bad})")
    return value


# Unicode's format characters (category Cf: zero-width space, joiners, word joiner, BOM,
# soft hyphen, bidi marks, embeddings, overrides and isolates, the Mongolian vowel separator,
# tags...): invisible, so two scopes that differ only by one look the same. A scope, agent
# or project holding one is refused (session 22); one class, checked against unicodedata
# over every code point by a test.
_FORMAT = re.compile(
    "[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    "\U000e0020-\U000e007f]")

FORMAT_CHARACTERS = _FORMAT


def canonical_scope(value: str) -> str:
    """The one spelling memlane stores and matches for an identifier (scope, agent,
    project) that may have been written otherwise: trimmed, in Unicode NFC, without format
    characters. An old database may hold a scope written before session 22's rule;
    ``memlane.store.spellings`` finds it again by this key."""
    if value.isascii():  # no format character is ASCII: the common case skips the regex
        return value.strip()
    value = _FORMAT.sub("", value).strip()
    return value if value.isascii() else unicodedata.normalize("NFC", value)


def check_scope(scope: Any, field: str = "scope") -> str:
    """An identifier (scope, agent, project): a label (``check_label``) in Unicode NFC, so
    that "café" typed as one code point or as "e" and a combining accent is one scope, and
    without format characters (zero-width, bidi controls, soft hyphen: ``team\u200b`` would
    look like ``team`` and be another scope), refused naming the field."""
    if isinstance(scope, str) and not scope.isascii():
        # composed before its length is judged: 200 accented letters typed as letter and
        # accent (400 code points) are the 200-character scope typed composed
        scope = unicodedata.normalize("NFC", check_unicode(scope, field))
    value = check_label(scope, field)
    if value.isascii():
        return value
    bad = _FORMAT.search(value)
    if bad is not None:
        raise _fail(field, f"must not hold invisible format characters such as zero-width "
                           f"spaces, joiners or bidi controls (found U+{ord(bad.group()):04X} "
                           f"at character {bad.start()})")
    return value


def check_role(role: Any) -> str:
    if not isinstance(role, str) or role.strip().lower() not in ROLES:
        shown = role if isinstance(role, str) and len(role) < 40 else type(role).__name__
        raise ValidationError(f"role: must be one of {', '.join(ROLES)}, got {shown!r}", field="role")
    return role.strip().lower()


MAX_CHARS_KEY = "ingest.max_message_chars"
"""The setting a message's, a note's or an item's ``extra``'s length is held to: a refusal of a
longer one names it (session 33: it said the limit, not what sets it)."""


def check_text(text: Any, max_chars: int, field: str = "text", key: str | None = None) -> str:
    """Free text: a string with something visible in it, at most ``max_chars`` (``key``: the
    setting that limit is, named in the refusal so a user knows what to raise); NUL bytes
    are dropped."""
    if not isinstance(text, str):
        raise _fail(field, f"must be a string, got {type(text).__name__}")
    if len(text) > max_chars:
        raise _fail(field, f"{len(text)} characters is over the limit of {max_chars}"
                    + (f" ({key})" if key else ""))
    check_unicode(text, field)
    text = text.replace("\x00", "")
    if not text.strip() or all(ch.isspace() or ch in _INVISIBLE for ch in text):
        raise _fail(field, "must not be empty (nothing visible in it)")
    return text


def int_range(low: int, high: int = INT64_MAX) -> str:
    """An integer parameter's range in words, as every surface (library, CLI, HTTP, MCP)
    says it: ``from 1 to 1000``, or ``of at least 1`` when the only upper end is what 64
    bits hold (``from 1 to 9223372036854775807`` read as a range nobody chose)."""
    return f"of at least {low}" if high >= INT64_MAX else f"from {low} to {high}"


def int_refused(value: Any, low: int, high: int = INT64_MAX) -> str | None:
    """Why ``value`` is not an integer (not a bool) in ``[low, high]``, ``must be an
    integer of at least 1, got 0``; None when it is one. A value past an upper end that
    is only what 64 bits hold is told so (``of at least 1 that 64 bits hold, got
    18446744073709551616``): ``of at least 1`` alone is a rule such a value keeps."""
    if isinstance(value, bool) or not isinstance(value, int):
        return f"must be an integer {int_range(low, high)}, got {type(value).__name__}"
    if not low <= value <= high:
        shown = value if abs(value) < 10**30 else f"a {len(str(abs(value)))}-digit number"
        bits = " that 64 bits hold" if value > high >= INT64_MAX else ""
        return f"must be an integer {int_range(low, high)}{bits}, got {shown}"
    return None


def check_int(value: Any, field: str, low: int = 1, high: int = INT64_MAX) -> int:
    """An integer (not a bool) in ``[low, high]``; the default range fits SQLite's int64."""
    refused = int_refused(value, low, high)
    if refused is not None:
        raise _fail(field, refused)
    return value  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Whole:
    """An integer field's range for pydantic (the HTTP service's and the MCP tools' inputs):
    ``Annotated[int, Whole(1, 1000)]``. Its JSON schema has ``minimum`` and ``maximum`` as
    ``Field(ge=, le=)`` gives them; a value outside is refused in ``int_refused``'s words
    (error type ``int_range``), where pydantic said "Input should be greater than or equal
    to 1" and, past 64 bits, named 9223372036854775807."""

    low: int
    high: int = INT64_MAX

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic import ValidationError as PydanticError
        from pydantic_core import PydanticCustomError, core_schema

        schema = {**handler(source), "ge": self.low, "le": self.high}

        def check(value: Any, inner: Any) -> Any:
            try:
                return inner(value)
            except PydanticError as e:
                if not any(err["type"] in _BOUNDS for err in e.errors()):
                    raise
                try:
                    number = value if isinstance(value, int) else int(value)
                except (TypeError, ValueError):
                    raise e from None
                said = int_refused(number, self.low, self.high) or ""
                raise PydanticCustomError("int_range", said) from None

        return core_schema.no_info_wrap_validator_function(check, schema)


_BOUNDS = {"greater_than_equal", "less_than_equal", "greater_than", "less_than"}


def check_id_text(text: str, field: str) -> int:
    """An id written as text (a URL path segment, a resource URI): ASCII digits naming an
    integer from 1 to 2^63-1. ``str.isdigit`` alone lets '²' or '٣' through to ``int``."""
    if not (text.isascii() and text.isdigit()):
        raise _fail(field, f"must be a whole number, got {text[:40]!r}")
    return check_int(int(text), field)


def check_float(value: Any, field: str, low: float, high: float) -> float:
    """A finite number in ``[low, high]`` (an int is accepted; a bool is not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _fail(field, f"must be a number from {low} to {high}, got {type(value).__name__}")
    try:
        number = float(value)
    except OverflowError:
        raise _fail(field, f"must be a number from {low} to {high}") from None
    if not math.isfinite(number) or not low <= number <= high:
        raise _fail(field, f"must be a number from {low} to {high}, got {number!r}")
    return number


def check_bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(field, f"must be true or false, got {type(value).__name__}")
    return value


def parse_time(value: Any, field: str = "at") -> datetime:
    """A timezone-aware UTC datetime from a datetime, ISO-8601 string or epoch seconds.

    Naive datetimes and strings without an offset are taken as UTC. Times whose UTC value
    falls outside 0001-01-02 to 9999-12-30 (a day short of Python's own range at each end,
    so a time zone or a session gap added to it still fits) are refused, naming the range.
    """
    hint = "an ISO-8601 time (e.g. 2024-05-01T14:30:00Z)"
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, bool):
        raise _fail(field, f"expected {hint}, got {value!r}")
    elif isinstance(value, (int, float)):
        try:
            dt = datetime.fromtimestamp(float(value), UTC)
        except (OverflowError, OSError, ValueError):
            raise _fail(field, f"{value!r} is out of range ({_RANGE}){_millis(value)}") from None
    elif isinstance(value, str):
        check_unicode(value, field)
        if len(value) > 64:
            raise _fail(field, f"expected {hint}, got {len(value)} characters")
        try:
            dt = _from_iso(value.strip())
        except ValueError:
            raise _fail(field, f"{value!r} is not {hint}") from None
    else:
        raise _fail(field, f"expected {hint}, got {type(value).__name__}")
    try:
        if dt.tzinfo is None:
            dt = dt.replace(tzinfo=UTC)
        dt = dt.astimezone(UTC)
        dt.timestamp()
    except (OverflowError, OSError, ValueError):
        raise _fail(field, f"{value!s} is out of range ({_RANGE})") from None
    if not _MIN_TIME <= dt <= _MAX_TIME:
        raise _fail(field, f"{value!s} is out of range ({_RANGE}){_millis(value)}")
    return dt


def _millis(value: Any) -> str:
    """A hint for epoch milliseconds (JavaScript's ``Date.now()``, the live stream's times)
    given where seconds are read: such a number was refused as out of range alone."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            seconds = float(value) / 1000
            if seconds >= 0 and datetime.fromtimestamp(seconds, UTC) <= _MAX_TIME:
                return (f"; epoch milliseconds? memlane reads epoch seconds: {seconds:.3f} is "
                        f"{datetime.fromtimestamp(seconds, UTC):%Y-%m-%dT%H:%M:%S}Z")
        except (OverflowError, OSError, ValueError):
            pass
    return ""


_LEAP_SECOND = re.compile(r"(?<=[T ]\d\d:\d\d):60(?=$|[.,Z+-])")


def _from_iso(text: str) -> datetime:
    """``datetime.fromisoformat``, also taking what RFC 3339 allows beside ISO-8601's
    capitals: a lowercase ``t`` and ``z``, and a leap second (``23:59:60``), which is read
    as the second after ``:59`` (as POSIX time counts it)."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        upper = text.upper()
        leap = _LEAP_SECOND.search(upper) is not None
        if not leap and upper == text:
            raise
        dt = datetime.fromisoformat(_LEAP_SECOND.sub(":59", upper))
        return dt + timedelta(seconds=1) if leap else dt


MAX_NESTING = 64
"""Deeper JSON is refused before it is parsed or encoded: a RecursionError inside the json
module can leave CPython 3.11's recursion bookkeeping off, so that a later ``compile()``
in the same process fails; not recursing at all is the only safe answer."""


def json_nesting(raw: str, limit: int = MAX_NESTING) -> int:
    """How deep the arrays and objects of JSON text ``raw`` nest, counted without
    recursion (brackets inside strings do not count); stops counting past ``limit``."""
    if raw.count("[") + raw.count("{") <= limit:
        return 0  # cannot be deeper than the number of openers
    depth = deepest = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def value_nesting(value: object, limit: int = MAX_NESTING) -> int:
    """How deep lists, tuples and dicts nest inside ``value``, without recursion; stops
    past ``limit`` (and is cycle-safe)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    seen: set[int] = set()
    while stack:
        item, depth = stack.pop()
        if not isinstance(item, (list, tuple, dict)) or id(item) in seen:
            continue
        seen.add(id(item))
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children)
    return deepest
