"""The answer's form: a question that asks for named things is answered by turns that name one.

"What books has Tim read?", "Which cities has John been to?", "What video games does Nate
play?" gather instances whose words differ from the question's ("I'm reading "Dune" by
Frank Herbert", "I was in Chicago, it was awesome!"), but whose form is the same: the
instance is a name, written in quotes or with a capital letter inside a sentence. On
LoCoMo's dev conversations 16% of the turns name something that way, against 67% of the
evidence turns of its multi-hop questions that ask for such things (docs/retrieval.md,
twelfth round). ``asks_named`` reads the question, ``names_thing`` the turn.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache

__all__ = ["NAMED_KINDS", "asks_named", "names_thing"]

NAMED_KINDS = re.compile(
    r"^(?:what|which)\b[^?]{0,40}?\b(?:books|novels|authors|movies|films|series|shows"
    r"|games|songs|albums|artists|bands|cities|countries|places|locations|states)\b",
    re.IGNORECASE)
"""A question that starts "What/Which" and asks, within its first words, for a kind of
thing that is known by its name: titles (books, movies, series, games, songs), people who
make them (authors, artists, bands) and places."""

_QUOTED = re.compile(r"[\"“][A-Z0-9][^\"”]{1,80}[\"”]")
_CAPITAL = re.compile(r"\b[A-Z][\w'’:-]*")
_SENTENCE_END = frozenset(".!?-–—(\"“:;")
_NOT_NAMES = frozenset(
    "i i'm i've i'd i'll ok okay hey hi hello thanks thank wow yeah yes no oh omg lol btw "
    "mom dad monday tuesday wednesday thursday friday saturday sunday january february "
    "march april may june july august september october november december".split())
_PHOTO = " [shares a photo:"


def asks_named(query: str) -> bool:
    """Whether ``query`` asks for things known by their names (``NAMED_KINDS``)."""
    return NAMED_KINDS.search(query.strip()) is not None


@lru_cache(maxsize=16384)
def _names(text: str, speakers: frozenset[str]) -> bool:
    body = text.split(_PHOTO, 1)[0]  # a shared photo's caption is lower case
    if _QUOTED.search(body):
        return True
    for m in _CAPITAL.finditer(body):
        word = m.group(0).lower()
        for end in ("'s", "’s"):
            if word.endswith(end):
                word = word[: -len(end)]
        if word in _NOT_NAMES or word in speakers:
            continue
        before = body[: m.start()].rstrip()
        if before and before[-1] not in _SENTENCE_END:
            return True  # a capital inside a sentence
    return False


def names_thing(text: str, speakers: Collection[str] = ()) -> bool:
    """Whether ``text`` names something: a quoted title ("Dune", "The Wheel of Time") or a
    word with a capital letter inside a sentence ("I was in Chicago"), other than a
    speaker's name ("Thanks, Caroline!"), "I", a weekday or a month."""
    names = frozenset(w for s in speakers for w in s.lower().replace("'", " ").split())
    return _names(text, names)
