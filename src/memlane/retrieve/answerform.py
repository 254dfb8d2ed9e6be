"""The answer's form: a question that asks for named things is answered by turns that name one.

"What films has Rosa seen?", "Which places has Omar been to?", "What card games does Ivan
play?" gather instances whose words differ from the question's ("I'm reading "Ivanhoe" by
Walter Scott", "I was in Lisbon, it was lovely!"), but whose form is the same: the
instance is a name, written in quotes or with a capital letter inside a sentence. On
LoCoMo's dev conversations 16% of the turns name something that way, against 67% of the
evidence turns of its multi-hop questions that ask for such things (docs/retrieval.md,
twelfth round). ``asks_named`` reads the question, ``names_thing`` the turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from functools import lru_cache

from memlane.retrieve.speaker import speaker_words

__all__ = ["ASKS_DOING", "NAMED_KINDS", "asks_doing", "asks_named", "names_thing", "namer", "tells_doing"]

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
    return namer(speakers)(text)


def namer(speakers: Collection[str] = ()) -> Callable[[str], bool]:
    """``names_thing`` for many texts of one conversation: its speakers' words read once."""
    words = speaker_words(speakers)
    return lambda text: _names(text, words)


ASKS_DOING = re.compile(
    r"^(?:what|which)\b(?:[^?]{0,30}?\b(?:activit(?:y|ies)|hobb(?:y|ies)|sports|pastimes)\b"
    r"|\s+(?:kinds? of|types? of|sorts? of)\s+[^?]{0,30}?\b(?:does|do|did|has|have)\s+\w+"
    r"(?:\s+\w+)?\s+(?:do|does|make|write|pursue|practi[sc]e|play|enjoy|take|join(?:ed)?|tried)\b"
    r"|\s+does\s+\w+(?:'s)?\s+do\s+(?:to|with|for|on|in|when)\b)",
    re.IGNORECASE)
"""A question asking what someone does: "What activities does Rosa take part in?", "What
are Lena's hobbies?", "What sports does Omar like?", "What kind of crafts does Lena
do?", "What does Ivan do to unwind?"."""

_ADVERBS = (r"(?:just |recently |finally |also |even |really |usually |always |often "
            r"|sometimes |actually |still |all |both )*")
_DOING = re.compile(
    r"\b(?:i|we|\w+ and i)(?:'ve| have| had|'m| am| was| were|'d|’ve|’m|’d)?\s+" + _ADVERBS
    + r"(?:went|go|going|gone|started|start|starting|tried|try|trying|took|take|taking"
    r"|signed up|joined|join|love|loved|enjoy|enjoyed|like|liked|play|played|playing|did|do"
    r"|doing|made|make|making|got into|picked up|learned|learning|taught|practice|practicing)\b"
    r"|\b(?:go|went|love|loved|enjoy|enjoyed|started|start|tried|try|like|liked)\s+"
    + _ADVERBS + r"\w{3,}ing\b",
    re.IGNORECASE)


def asks_doing(query: str) -> bool:
    """Whether ``query`` asks what someone does (``ASKS_DOING``)."""
    return ASKS_DOING.search(query.strip()) is not None


@lru_cache(maxsize=16384)
def tells_doing(text: str) -> bool:
    """Whether ``text`` tells of doing something in the first person: "we went sailing",
    "I took up rowing three years ago", "I'm also trying out tai chi", "I love painting"
    (a shared photo's caption left out)."""
    return _DOING.search(text.split(_PHOTO, 1)[0]) is not None
