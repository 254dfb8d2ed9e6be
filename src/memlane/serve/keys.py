"""API keys of the HTTP service: made here, only their SHA-256 kept by the store.

A key is ``ml_`` and 43 URL-safe random characters (256 bits from ``secrets``). It is
shown once, when created; the database keeps its hash, its first characters (to tell keys
apart in ``memlane keys list``), its scope patterns and whether it may write.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from functools import lru_cache

from memlane.config import IngestConfig
from memlane.errors import ValidationError
from memlane.ingest.redact import redact, scrub
from memlane.ingest.validate import (
    FORMAT_CHARACTERS,
    MAX_SCOPE_CHARS,
    canonical_scope,
    check_label,
    has_control,
)
from memlane.store.contract import Store

__all__ = ["NewKey", "create_key", "hash_key", "parse_scopes", "scope_matches"]

PREFIX = "ml_"


def hash_key(key: str) -> str:
    """The stored form of a key."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def parse_scopes(text: str | list[str] | tuple[str, ...]) -> list[str]:
    """``'team-*,alex'`` as ``['team-*', 'alex']``: the patterns a key may touch
    (``scope_matches``)."""
    parts = text.split(",") if isinstance(text, str) else list(text)
    for p in parts:  # as a scope refuses them (a pattern stored without them said another)
        bad = FORMAT_CHARACTERS.search(p) if isinstance(p, str) else None
        if bad is not None:
            raise ValidationError(f"scopes: {p.strip()!r} holds an invisible format character "
                                  f"(U+{ord(bad.group()):04X}); a scope cannot", field="scopes")
    scopes = [canonical_scope(p) for p in parts if canonical_scope(p)]
    if not scopes:
        raise ValidationError("scopes: give at least one scope or pattern, e.g. 'team-*,alex' "
                              "('*' for every scope)", field="scopes")
    for s in scopes:
        # what a scope may hold, a pattern may: a space inside ("Acme Corp") and up to 256
        # characters (patterns refused both, so no key could hold such a scope; session 22)
        if len(s) > MAX_SCOPE_CHARS or has_control(s) >= 0:
            raise ValidationError(f"scopes: {s!r} is not a scope pattern (one line without "
                                  f"control characters, at most {MAX_SCOPE_CHARS} characters)",
                                  field="scopes")
    return scopes


@lru_cache(maxsize=4096)
def _pattern(pattern: str) -> re.Pattern[str]:
    return re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c)
                              for c in pattern), re.DOTALL)


def scope_matches(scope: str, pattern: str) -> bool:
    """Whether ``scope`` matches ``pattern``, case-sensitive, whose wildcards are ``*`` (any
    characters) and ``?`` (one character), as the README says; every other character is
    itself. fnmatch also read ``[...]`` as a set of characters: a key made for the scope
    ``user[1]`` reached ``user1`` and not ``user[1]``. Both are compared in the one spelling
    memlane stores (``canonical_scope``: NFC, trimmed, no format characters), so a key made
    for "café" typed one way holds "café" typed the other (session 22)."""
    return _pattern(canonical_scope(pattern)).fullmatch(canonical_scope(scope)) is not None


@dataclass(frozen=True)
class NewKey:
    """A key just created: ``key`` is shown once and never stored."""

    id: int
    key: str
    name: str
    scopes: tuple[str, ...]
    read_only: bool


def create_key(store: Store, scopes: str | list[str], *, read_only: bool = False,
               name: str | None = None, ingest: IngestConfig | None = None) -> NewKey:
    """Make a random key, store its hash, return it (the only time it is seen).

    ``name`` is a label: one line of at most 256 characters, redacted as a message's
    speaker is (by ``ingest``'s rules, or the built-in formats when none is given). It was
    stored as given: a token pasted into ``--name`` reached the database, and a newline in
    it broke ``memlane keys list``'s table (session 25)."""
    patterns = parse_scopes(scopes)
    key = PREFIX + secrets.token_urlsafe(32)
    label = f"key-{key[3:9]}"
    if (name or "").strip():
        label = check_label(name, "name")
        label = scrub(ingest, label)[0] if ingest is not None else redact(label)[0]
    with store.atomic():
        key_id = store.add_api_key(label, hash_key(key), key[:9], patterns, read_only, time.time())
    return NewKey(key_id, key, label, tuple(patterns), read_only)
