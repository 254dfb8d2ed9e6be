"""Newest truth first: when several sessions say nearly the same thing, the newest leads.

"What is my current ...", "how many ... do I have", "where did my sister move to": when
several sessions speak to the subject, the newest one holds the answer unless the
question names an earlier time ("initially", "at first", "before ...", "two weeks ago").
A request for advice ("Any tips?") asks for no value that changed, and is left alone too.
``asks_newest`` tells them apart; the rerank (``memlane.retrieve.search``) then adds
``newest_weight × r × q`` to the best hit of each top session that says nearly what the most
relevant turn says, ``r`` the session's place in time among them (0 the oldest, 1 the
newest: a tie-break among sessions that are all relevant, not a recency filter, and only
their best hit, so the turns the list holds stay the same) and ``q`` its best hit's
relevance over the most relevant turn's (at most 1: a newer session that matches the
question much less well is less likely the same subject's new value), and subtracts
``newest_weight`` from a turn whose stated facts have all been superseded since (the
store's supersession links).

``present_tense`` is the narrower reading the first round used (a present-tense form and
no past one); grammatical past ("where did ...", "what was ...") is not an earlier time,
so ``asks_newest`` does not require it.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from datetime import date

from memlane.retrieve.advice import asks_advice

__all__ = ["asks_newest", "names_earlier_time", "newest_places", "present_tense"]

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
_EARLIER = re.compile(
    r"\b(initially|originally|at first|in the beginning|at the (start|beginning)|used to|"
    r"first|earlier|previously|before|back then|back when|"
    r"when i (just |first )?(started|began|joined)|ago|last (week|month|year|time))\b",
    re.IGNORECASE,
)
"""Words that point the question at an earlier state than the latest one. "previous" and
"former" are not among them: "my former manager Rachel" names a person, not a time."""


def names_earlier_time(query: str) -> bool:
    """Whether ``query`` points at an earlier time ("initially", "at first", "two weeks
    ago", "before I moved", "when I just started")."""
    return bool(_EARLIER.search(query))


def asks_newest(query: str) -> bool:
    """Whether the newest of several near-duplicate sessions should lead for ``query``:
    never for a request for advice (``memlane.retrieve.advice.asks_advice``: "I'm planning
    a trip to Porto soon. Any suggestions?" is answered by what the user said they like,
    and a newer session is no newer value of it); always when it names the present ("now",
    "currently", "still", "latest"); otherwise unless it names an earlier time
    (``names_earlier_time``)."""
    if asks_advice(query):
        return False
    return bool(_NOW_WORDS.search(query)) or not names_earlier_time(query)


def present_tense(query: str) -> bool:
    """Whether ``query`` asks about the present state of something.

    A word that names the present outright ("now", "currently", "still", "latest") wins;
    otherwise a present-tense form ("what is", "do I", "how many") counts unless the
    question also names an earlier time ("initially", "when I just started", "did").
    """
    if _NOW_WORDS.search(query):
        return True
    return bool(_PRESENT.search(query)) and not _PAST.search(query)


def newest_places(days: Mapping[Hashable, date]) -> dict[Hashable, float]:
    """Each session's place in time among near-duplicate sessions, 0 (oldest day) to 1
    (newest day), from the last day each was spoken on. Sessions of the same day share a
    place: an update takes time, and the order of one day's sessions says nothing about
    which holds the newer value. With a single day every session is newest (1)."""
    distinct = sorted(set(days.values()))
    if len(distinct) < 2:
        return {k: 1.0 for k in days}
    step = {d: i / (len(distinct) - 1) for i, d in enumerate(distinct)}
    return {k: step[d] for k, d in days.items()}
