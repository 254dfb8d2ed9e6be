"""Advice questions: the user asks the assistant for suggestions.

"My laptop has been running hot lately. Any tips?", "I was thinking of repainting my
kitchen this month. Any tips?". The evidence is the user's own earlier statement of a
like, habit, possession or plan ("I want a tidy place for my cables, like the new
charger I bought"), and the question's request words ("tips", "suggestions", "thinking", "not sure
which one to choose", "lately") are the words every other request in the memory shares:
they matched other sessions' requests better than the subject matched the evidence
(docs/retrieval.md, eighth round). ``advice_terms`` leaves them out of the query.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["ADVICE_WORDS", "advice_terms", "asks_advice"]

ASKS_ADVICE = re.compile(
    r"\bany (?:\w+ ){0,2}(?:tips|suggestions?|ideas|advice|recommendations?)\b"
    r"|\b(?:can|could|would) you (?:\w+ )?(?:suggest|recommend|give me (?:some )?(?:tips|advice|ideas))\b"
    r"|\b(?:what|do) (?:do )?you think\b"
    r"|\bshould i\b",
    re.IGNORECASE)
"""A request to the assistant for advice ("Any tips?", "Can you recommend ...", "What do
you think?"); not a question about advice someone gave ("What advice did Ivan give
Omar?")."""

ADVICE_WORDS = frozenset(
    "tip tips suggest suggestion suggestions recommend recommendation recommendations "
    "advice idea ideas thinking thought sure choose one lately trouble upcoming soon "
    "wondering decide whether good great new some way ways help something anything "
    "things stuff trying try want like".split())
"""Words of the request itself, not of its subject."""


def asks_advice(query: str) -> bool:
    """Whether ``query`` asks the assistant for advice (``ASKS_ADVICE``)."""
    return ASKS_ADVICE.search(query) is not None


def advice_terms(terms: Sequence[str]) -> list[str]:
    """``terms`` without the request's own words (``ADVICE_WORDS``); all of them if
    nothing else remains."""
    kept = [t for t in terms if t.lower() not in ADVICE_WORDS]
    return kept or list(terms)
