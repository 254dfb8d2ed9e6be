"""Shared SQL's placeholders: psycopg's ``%s`` / ``%(name)s``, translated for SQLite.

Why not ``?``: PostgreSQL's jsonb operators ``?``, ``?|`` and ``?&`` are spelled with it,
so a ``?`` in shared SQL could be either. Shared SQL therefore writes psycopg's format,
which PostgreSQL runs unchanged, and ``to_qmark`` rewrites it for SQLite: ``%s`` → ``?``,
``%(name)s`` → ``:name``, ``%%`` → ``%``, skipping string literals (``'…'``, ``E'…'``),
quoted names (``"…"``) and comments (``-- …``, ``/* … */``). A ``?`` outside those, or a
``%`` that is none of the three, is an error rather than a guess: it would mean a
parameter to SQLite and an operator to PostgreSQL.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["to_qmark"]

_NAMED = re.compile(r"%\(([A-Za-z_][A-Za-z0-9_]*)\)s")


@lru_cache(maxsize=2048)
def to_qmark(sql: str) -> str:
    """``sql`` in psycopg's placeholder format, rewritten in SQLite's (see the module).

    Raises ``ValueError`` naming the offset of a ``?``, of an unknown ``%`` sequence, of
    an unterminated literal or comment, or when positional and named placeholders mix.
    """
    out: list[str] = []
    i, n = 0, len(sql)
    kinds: set[str] = set()
    while i < n:
        c = sql[i]
        if c == "'" or (c in "Ee" and sql.startswith("'", i + 1)
                        and (i == 0 or not (sql[i - 1].isalnum() or sql[i - 1] == "_"))):
            j = _end_of_string(sql, i)
        elif c == '"':
            j = _end_of_quoted(sql, i, '"')
        elif sql.startswith("--", i):
            nl = sql.find("\n", i)
            j = n if nl < 0 else nl + 1
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            if end < 0:
                raise ValueError(f"shared SQL: unterminated comment at offset {i}")
            j = end + 2
        elif c == "%":
            if sql.startswith("%s", i):
                out.append("?")
                kinds.add("positional")
                i += 2
                continue
            if sql.startswith("%%", i):
                out.append("%")
                i += 2
                continue
            m = _NAMED.match(sql, i)
            if m is None:
                raise ValueError(
                    f"shared SQL: {sql[i:i + 4]!r} at offset {i} is not %s, %(name)s or %%"
                )
            out.append(":" + m.group(1))
            kinds.add("named")
            i = m.end()
            continue
        elif c == "?":
            raise ValueError(
                f"shared SQL: '?' at offset {i}; write %s for a parameter (a jsonb ? operator "
                "belongs in PostgreSQL's own SQL)"
            )
        else:
            j = i + 1
            while j < n and sql[j] not in "'\"-/%?Ee":
                j += 1
            j = max(j, i + 1)
        out.append(sql[i:j])
        i = j
    if len(kinds) > 1:
        raise ValueError("shared SQL: positional (%s) and named (%(name)s) placeholders are mixed")
    return "".join(out)


def _end_of_string(sql: str, i: int) -> int:
    """Offset just past the string literal starting at ``i`` (``'…'`` or ``E'…'``)."""
    escapes = sql[i] in "Ee"
    j = i + 2 if escapes else i + 1
    n = len(sql)
    while j < n:
        c = sql[j]
        if escapes and c == "\\":
            j += 2
            continue
        if c == "'":
            if sql.startswith("''", j):
                j += 2
                continue
            return j + 1
        j += 1
    raise ValueError(f"shared SQL: unterminated string literal at offset {i}")


def _end_of_quoted(sql: str, i: int, quote: str) -> int:
    j = i + 1
    while True:
        k = sql.find(quote, j)
        if k < 0:
            raise ValueError(f"shared SQL: unterminated quoted name at offset {i}")
        if sql.startswith(quote * 2, k):
            j = k + 2
            continue
        return k + 1
