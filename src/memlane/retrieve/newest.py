"""Newest truth first: questions about the present rank the newest evidence first.

"What is my current ...", "how many ... do I have now", "where do I still ...": when
several sessions speak to the subject, the newest one holds the answer. For such a
question (``present_tense``), the rerank adds ``newest_weight × r`` to each hit of the top
sessions, ``r`` the session's place in time among them (0 the oldest, 1 the newest: a
tie-break among sessions that are all relevant, not a recency filter), and subtracts
``newest_weight`` from a turn whose stated facts have all been superseded since (the
store's supersession links). A question that names an earlier time ("initially",
"previously", "when I first started", "before ...") is not about the present.
"""

from __future__ import annotations

import re

__all__ = ["present_tense"]

_PAST = re.compile(
    r"\b(initially|originally|previous(ly)?|former(ly)?|at first|used to|first|earlier|"
    r"before|back then|back when|when i (just )?(started|began|joined|got)|was|were|did|"
    r"had|ago|last (week|month|year|time))\b",
    re.IGNORECASE,
)
_PRESENT = re.compile(
    r"\b(now|currently|current|still|these days|at the moment|at present|nowadays|anymore|"
    r"latest|most recent(ly)?|recently|so far|up to now|today|"
    r"(do|does|am|is|are|have|has) (i|we|my|our|you))\b|\bwhat('s| is| are)\b|"
    r"\bhow (many|much|often|long)\b",
    re.IGNORECASE,
)
_NOW_WORDS = re.compile(r"\b(now|currently|current|still|latest|most recent(ly)?)\b",
                        re.IGNORECASE)


def present_tense(query: str) -> bool:
    """Whether ``query`` asks about the present state of something.

    A word that names the present outright ("now", "currently", "still", "latest") wins;
    otherwise a present-tense form ("what is", "do I", "how many") counts unless the
    question also names an earlier time ("initially", "when I just started", "did").
    """
    if _NOW_WORDS.search(query):
        return True
    return bool(_PRESENT.search(query)) and not _PAST.search(query)
