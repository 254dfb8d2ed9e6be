"""Which query terms a lexical search ranks by: the rule both backends share.

Ranking every match of a very common term is what makes BM25 slow at scale (FTS5 and
``tsvector`` alike score each match), and such a term carries little weight. So terms are
taken rarest first while their matches together stay within ``LEXICAL_POSTINGS`` (the
rarest is always taken); a query of common terms only is ranked by its rarest term, unless
that term is in most items (BM25's idf is then <= 0 and cannot rank), and then only by its
newest ``COMMON_MATCHES`` matches.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["COMMON_MATCHES", "LEXICAL_POSTINGS", "rarest_within"]

LEXICAL_POSTINGS = 5_000
"""Most documents a lexical query ranks (above: its common terms are left out)."""

COMMON_MATCHES = 1_000
"""A query of common terms only (each above ``LEXICAL_POSTINGS``) ranks this many of its
rarest term's newest matches, not every one (up to half the items). Ranking costs about
2 µs of CPU a match on SQLite (FTS5 reads each match's length for BM25): at 1M items a
quarter to a third of the bench's unscoped queries are of common terms only, and ranking
5,000 of their matches took p50 26-37 ms at load 10, 1,000 took 8-15 ms (docs/scaling.md,
fifth round). Stores of up to ``LEXICAL_POSTINGS`` items never take this path."""


def rarest_within(dfs: Sequence[tuple[int, str]], cap: int) -> list[str] | None:
    """The terms to rank by, given ``(document count, term)`` in query order.

    Rarest first (the first of equals) while the counts add up to at most ``cap``, in that
    order; a count of 0 is taken as rare (SQLite counts a phrase so). ``None`` if every
    term is above ``cap``: the caller then picks the rarest by exact counts.
    """
    ranked = sorted(dfs, key=lambda x: x[0])
    if not ranked or ranked[0][0] > cap:
        return None
    kept: list[str] = []
    total = 0
    for df, t in ranked:
        if kept and total + df > cap:
            break
        kept.append(t)
        total += df
    return kept
