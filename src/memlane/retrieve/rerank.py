"""Reranking signals: small pure functions, each returning a value in [0, 1].

A hit's final score is ``sum(weight[s] * value[s])`` over the signals below, minus the
coverage penalty times its weight (see ``memlane.retrieve.presets`` for the weights and
``memlane.retrieve.twostage`` for where each value comes from). Every value is kept on
the hit so that a ranking can be explained.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime

from memlane.retrieve.timeparse import TimeWindow

__all__ = [
    "HALF_LIVES_HOURS",
    "SIGNALS",
    "coverage_penalty",
    "graph_relevance",
    "half_life_hours",
    "kind_bonus",
    "recency",
    "summary_bonus",
    "time_match",
    "token_overlap",
    "trust",
]

SIGNALS = ("relevance", "session", "bm25", "cosine", "recency", "confidence", "graph",
           "overlap", "summary", "trust", "pin", "kind", "time", "coverage")
"""Every signal a hit can carry, in the order they are reported."""

HALF_LIVES_HOURS = {"short": 6.0, "ephemeral": 6.0, "long": 7 * 24.0, "chat": 72.0,
                    "decision": 30 * 24.0}
"""Recency half-lives: by durability (short 6 h, long 7 d), chat turns 72 h, decisions 30 d."""


def half_life_hours(kind: str, durability: str) -> float:
    """The recency half-life for an item: decisions 30 d, chat turns 72 h, else by durability."""
    if kind == "decision":
        return HALF_LIVES_HOURS["decision"]
    if durability in ("short", "ephemeral"):
        return HALF_LIVES_HOURS["short"]
    if kind == "turn":
        return HALF_LIVES_HOURS["chat"]
    return HALF_LIVES_HOURS["long"]


def recency(age_hours: float, half_life: float) -> float:
    """``0.5 ** (age / half_life)``; 1.0 for an item from the future or of age 0."""
    if half_life <= 0:
        raise ValueError("half_life must be > 0")
    return 0.5 ** (max(age_hours, 0.0) / half_life)


def graph_relevance(query_terms: Collection[str], entities: Iterable[str]) -> float:
    """1 when the query names one of the item's entities (every word of it), else 0.

    Entities come from the item and its session's summary ("Ana Silva", "Lisbon"); words
    are compared case-folded. A single named entity is already a strong link, so the
    value does not grow with more matches.
    """
    q = {t.lower() for t in query_terms}
    for e in entities:
        words = [w for w in e.lower().replace("-", " ").split() if w]
        if words and all(w in q for w in words):
            return 1.0
    return 0.0


def token_overlap(query_terms: Sequence[str], text_words: Collection[str]) -> float:
    """Fraction of distinct query terms that occur among the item's words (both lowercased)."""
    terms = {t.lower() for t in query_terms}
    if not terms:
        return 0.0
    return sum(1 for t in terms if t in text_words) / len(terms)


def summary_bonus(kind: str) -> float:
    """1 for a session summary, else 0."""
    return 1.0 if kind == "summary" else 0.0


def coverage_penalty(already_from_session: int) -> float:
    """``1 - 0.5 ** n`` for the n hits of the same session ranked above this one.

    The first hit of a session is not penalised; the second loses half a unit, the third
    three quarters: what a session already contributes covers part of the next turn.
    """
    return 1.0 - 0.5 ** max(already_from_session, 0)


def trust(value: float) -> float:
    """The item's trust, clamped to [0, 1]."""
    return min(1.0, max(0.0, value))


def kind_bonus(kind: str, bonuses: Mapping[str, float]) -> float:
    """The configured bonus of the item's kind (0 when none), clamped to [0, 1]."""
    return min(1.0, max(0.0, bonuses.get(kind, 0.0)))


def time_match(at: datetime, windows: Sequence[TimeWindow], tolerance_days: float = 3.0) -> float:
    """1 inside a window the query names, decaying as ``exp(-distance / tolerance)`` outside.

    The tolerance grows with the window (a tenth of its length, at least
    ``tolerance_days``): "two months ago" is vaguer than "yesterday". 0 with no windows.
    ``at`` is compared as a naive datetime in the windows' zone.
    """
    best = 0.0
    for w in windows:
        span = (w.end - w.start).total_seconds() / 86400
        tol = max(tolerance_days, span / 10)
        best = max(best, math.exp(-w.distance_days(at) / tol))
    return best
