"""Cursors of the listings a client pages through (sessions, facts).

A page read by ``offset`` repeated a row when one was added before it between two pages
and skipped one when one was removed. A cursor names the last row's sort key and id
instead (``cursor_after``), and the next page starts after that key however the rows
before it changed (``read_cursor`` gives the key the store's ``after`` takes).

A cursor is opaque: URL-safe base64 of the listing and key, a dot, and a checksum of them,
so a cut, edited or made-up cursor, or one of the other listing, is refused naming
``cursor`` (a 400 on the HTTP API; an empty or overlong one is a 422 of the request's
schema), never read as some other position. A cursor whose row was removed since still
reads on from where that row was.

Read the other way, as ``before``, a cursor is a page back: the rows just before its row
(``read_before``; session 29). A cursor holds its row's scope (and, of facts, subject), so
one given to another scope's or subject's listing is refused too. ``read_start`` is where
every listing's reader takes its ``cursor``, ``before`` and ``offset``."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
from typing import Any

from memlane.errors import ValidationError

__all__ = ["MAX_CURSOR", "cursor_after", "read_before", "read_cursor", "read_start"]

MAX_CURSOR = 8192
"""The longest cursor read (a fact's key holds its subject and predicate)."""

_SALT = b"memlane-cursor-1:"


def _sum(body: bytes) -> str:
    return hashlib.sha256(_SALT + body).hexdigest()[:16]


def cursor_after(row: Any) -> str:
    """The cursor of the page after ``row`` (a ``Session``, or a fact: ``FactView`` or
    ``StoredFact``), in its listing's order."""
    if hasattr(row, "started_at"):  # its scope: a cursor of one scope's listing is not another's
        key: list[Any] = ["sessions", row.started_at.timestamp(), row.id, row.scope]
    else:
        key = ["facts", row.scope, row.subject, row.predicate, row.at.timestamp(), row.id]
    body = json.dumps(key, ensure_ascii=False, separators=(",", ":")).encode()
    return f"{base64.urlsafe_b64encode(body).decode().rstrip('=')}.{_sum(body)}"


def _bad(why: str, field: str = "cursor") -> ValidationError:
    return ValidationError(f"{field}: {why}; pass the {field} of a link or answer as it was "
                           f"given, or leave {field} out to start at the first page",
                           field=field)


def read_cursor(cursor: str, listing: str, field: str = "cursor", *,
                scope: str | None = None, subject: str | None = None) -> tuple[Any, ...]:
    """The key ``cursor`` names in ``listing`` (``"sessions"``: ``(started_at, id)``;
    ``"facts"``: ``(scope, subject, predicate, at, id)``), or ``ValidationError`` naming
    ``field`` (the parameter that gave it) for anything ``cursor_after`` did not make for
    that listing, or for a cursor of another ``scope``'s listing (or, of facts, another
    ``subject``'s), the filters of the listing it is given to: a cursor of scope "alpha"'s
    sessions given to scope "beta"'s skipped beta's sessions newer than its row without a
    word, and one of beta's facts given to alpha's listed none (session 29)."""
    if not isinstance(cursor, str):
        raise _bad(f"expected a string, got {type(cursor).__name__}", field)
    if not cursor or len(cursor) > MAX_CURSOR:
        raise _bad(f"expected 1 to {MAX_CURSOR} characters, got {len(cursor)}", field)
    data, dot, check = cursor.partition(".")
    try:
        body = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        body = b""
    if not dot or not body or _sum(body) != check:
        raise _bad("not a cursor memlane gave (cut, changed or made up)", field)
    try:  # a checksum can be made to fit (the salt is no secret): the key is checked too
        key = json.loads(body)
    except (ValueError, RecursionError):
        raise _bad("not a cursor memlane gave", field) from None
    shapes = {"sessions": (float, int), "facts": (str, str, str, float, int)}
    if not isinstance(key, list) or not key or key[0] not in shapes:
        raise _bad("not a cursor memlane gave", field)
    if key[0] != listing:
        raise _bad(f"a cursor of the {key[0]} listing, not of {listing}", field)
    values = key[1:]
    shape = shapes[listing]
    own = None  # a sessions cursor's scope (one made before session 29 names none)
    if listing == "sessions" and len(values) == 3 and isinstance(values[2], str):
        own = values.pop()
    if len(values) != len(shape) or not all(
            isinstance(v, t) and not isinstance(v, bool) if t is not float else
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            for v, t in zip(values, shape, strict=False)):
        raise _bad("not a cursor memlane gave", field)
    _same_listing(field, listing, values[0] if listing == "facts" else own, scope,
                  values[1] if listing == "facts" else None, subject)
    return tuple(float(v) if t is float else v for v, t in zip(values, shape, strict=True))


def _same_listing(field: str, listing: str, own_scope: str | None, scope: str | None,
                  own_subject: str | None, subject: str | None) -> None:
    """Refuse a cursor of another scope's (or subject's) listing, each compared as the
    listing matches it (a scope in its one spelling, a subject by its key)."""
    from memlane.index.normalize import subject_key
    from memlane.ingest.validate import canonical_scope

    if scope is not None and own_scope is not None and \
            canonical_scope(own_scope) != canonical_scope(scope):
        raise _bad(f"a cursor of the {listing} of scope {own_scope!r}, not of scope {scope!r} "
                   f"(a cursor reads on in the listing that gave it)", field)
    if subject is not None and own_subject is not None and \
            subject_key(own_subject) != subject_key(subject):
        raise _bad(f"a cursor of the facts of subject {own_subject!r}, not of subject "
                   f"{subject!r} (a cursor reads on in the listing that gave it)", field)


def read_before(before: str, cursor: str | None, offset: int, listing: str, *,
                scope: str | None = None, subject: str | None = None) -> tuple[Any, ...]:
    """The key a page back's ``before`` names (a cursor of the page's first row, read the
    other way), refused naming ``before`` beside a ``cursor`` or an ``offset``: neither
    start is guessed to win."""
    if cursor is not None or offset:
        raise ValidationError("before: pass before, cursor or offset, one of them (before "
                              "reads back from a row, cursor on after one)", field="before")
    return read_cursor(before, listing, "before", scope=scope, subject=subject)


def read_start(cursor: str | None, before: str | None, offset: int, listing: str, *,
               scope: str | None = None, subject: str | None = None
               ) -> tuple[tuple[Any, ...] | None, tuple[Any, ...] | None]:
    """The keys a listing's store reads from, ``(after, before)`` (None for a start not
    given): ``before`` is checked first, so any two starts given together are refused
    naming it (``read_before``); then ``cursor`` with an ``offset`` other than 0, naming
    ``cursor``. Every reader of a listing's page starts here (``Memory.sessions``,
    ``Memory.facts``, the inspector's ``serve.paging.session_page``). ``scope`` and
    ``subject``: the listing's filters; a cursor of another's is refused (``read_cursor``)."""
    if before is not None:
        return None, read_before(before, cursor, offset, listing, scope=scope, subject=subject)
    if cursor is None:
        return None, None
    if offset:
        raise ValidationError("cursor: pass cursor or offset, not both (the cursor reads on "
                              "after a row; offset counts rows from the first)", field="cursor")
    return read_cursor(cursor, listing, scope=scope, subject=subject), None
