"""SQLite store: FTS5 query text and batching helpers (row decoders are ``memlane.store.rows``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from memlane.store.sql.lexical import LEXICAL_POSTINGS

__all__ = ["LEXICAL_POSTINGS", "chunks", "fts_query"]


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


def chunks(seq: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(seq), size):
        yield seq[i : i + size]
