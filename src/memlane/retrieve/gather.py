"""Gathering questions: questions whose answer is spread over several sessions.

"How many jigsaw puzzles have I finished or bought?", "How much money did I spend on
workshops in total?" and "What activities does Rosa take part in?" each need one
statement from each of several sessions, often more sessions than the ``top_sessions``
that stage two reads (``retrieval.gather_sessions``, docs/retrieval.md, seventh round).
"""

from __future__ import annotations

import re

__all__ = ["GATHERS", "asks_habit", "asks_over_time", "asks_plural", "gathers"]

GATHERS = re.compile(
    r"\bhow (?:many|much)\b|\bin total\b|\btotal\b|\baltogether\b|\bcombined\b"
    r"|\baverage\b|\bin all\b",
    re.IGNORECASE)
"""Words of a question that adds up or counts what several statements say."""

_WORDS = re.compile(r"[a-z'’]+")
_SKIP = frozenset("kind kinds type types sort sorts of are were some the other".split())
_AUX = frozenset("does has is was are were do did have had".split())


def asks_plural(query: str) -> bool:
    """Whether ``query`` asks for several things by a plural noun: "What activities does
    Rosa take part in?", "What kinds of books has she read?", "What are Lena's
    hobbies?"."""
    w = _WORDS.findall(query.lower())
    if not w or w[0] not in ("what", "which"):
        return False
    i = 1
    while i < len(w) and w[i] in _SKIP:
        i += 1
    if i >= len(w):
        return False
    x = w[i]
    if x.endswith(("'s", "’s")) and i + 1 < len(w):
        x = w[i + 1]  # "What are Joanna's hobbies?"
    elif x in _AUX:
        return False
    return len(x) > 3 and x.endswith("s") and not x.endswith(("ss", "us", "is"))


PARTICIPLES = frozenset(
    "read seen done made gone met won bought taken written given found had got brought built "
    "caught felt heard kept left lost paid said sent sold spent taught thought told worn eaten "
    "known shown grown drawn begun chosen broken driven ridden spoken thrown flown sung swum "
    "run become come held led lent meant put set shot sat slept stood struck understood".split())
"""Past participles that do not end in "-ed"."""
_NOT_PARTICIPLES = frozenset("need feed seed speed breed bred shed bread embed".split())


def asks_over_time(query: str) -> bool:
    """Whether ``query`` asks, in the present perfect, what someone has done over time:
    "What has Rosa painted?", "Where has Rosa camped?", "What kinds of kites have
    Rosa and her kids made?". The answer is every time it happened, told in several
    sessions. Not an ongoing activity ("What has Omar been teaching?", "How long has Ivan
    been playing?") and not "have" as the verb ("What pets does Ivan have?")."""
    w = _WORDS.findall(query.lower())
    for i, x in enumerate(w):
        if x == "how" and w[i + 1 : i + 2] == ["long"]:
            return False  # "(For) how long has Tim had his turtles?": one span of time
        if x in ("has", "have"):
            for y in w[i + 1 : i + 7]:  # the subject: up to five words before the participle
                if y == "been":
                    return False
                if y in PARTICIPLES or (len(y) > 3 and y.endswith("ed")
                                        and y not in _NOT_PARTICIPLES):
                    return True
            return False
    return False


def asks_habit(query: str) -> bool:
    """Whether ``query`` asks, in the present simple, what someone does or is like: "What
    does Ivan do to unwind?", "What kind of songs does Ivan write?", "What does
    Lena see her cats as?". A habit, like what someone has done over time
    (:func:`asks_over_time`), is told in several sessions. A "what" or "which" question
    whose first auxiliary is "does" or "do": not one asking in the past ("What did Rosa
    and her family do at the lake?") or in another tense."""
    w = _WORDS.findall(query.lower())
    if not w or w[0] not in ("what", "which"):
        return False
    return next((x for x in w if x in _AUX), None) in ("does", "do")


def gathers(query: str) -> bool:
    """Whether ``query`` gathers over several statements: it counts or adds up
    (``GATHERS``), or asks for several things by a plural noun (``asks_plural``)."""
    return GATHERS.search(query) is not None or asks_plural(query)

