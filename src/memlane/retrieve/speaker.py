"""Speaker focus: a question about one participant of a conversation reads that
participant's own turns first.

In a chat between people ("What activities does Rosa take part in?", "What did Lena
research?") the evidence is nearly always what the named person said (on LoCoMo's dev
split, 438 of the 455 evidence turns of multi-hop questions). The name itself is a poor
search word there: it is in the keys of every turn that person spoke and in the text of
every turn that addresses them, so it ranks the other speaker's "Wow, Caroline!" as high as
Caroline's own news. When the query names exactly one of the speakers among the candidate
turns (every word of the name is a query term) and at least one other speaker spoke,
``focus_speaker`` returns that speaker: the search then runs the lexical list again without
the name's words and lets turns spoken by anyone else keep only ``other_factor`` of their
relevance. Memories without speakers (an assistant and its user) are never affected.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from memlane.types import Item

__all__ = ["first_named_speaker", "focus_speaker", "query_without_name", "speaker_of", "speaker_words",
           "speakers_of", "without_name"]


def speaker_of(item: Item) -> str | None:
    """The speaker a turn was stored with (``add_message(..., speaker=...)``), if any."""
    if item.kind != "turn":
        return None
    s = item.extra.get("speaker") if item.extra else None
    return s if isinstance(s, str) and s.strip() else None


def _words(name: str) -> list[str]:
    return [w for w in name.lower().replace("'", " ").split() if w]


def speakers_of(items: Iterable[Item]) -> set[str]:
    """The speakers of these items (``speaker_of``; none in a chat between a user and an
    assistant)."""
    # (``it.extra and``: an item without extra has no speaker; a search asks of ~400)
    return {s for it in items if it.extra and (s := speaker_of(it)) is not None}


def speaker_words(speakers: Iterable[str]) -> frozenset[str]:
    """The lower-case words of these speakers' names ("Mary Ann" gives "mary", "ann")."""
    return frozenset(w for s in speakers for w in _words(s))


def _bare(term: str) -> str:
    """A query term lowercased without a possessive ("Caroline’s": the query splitter
    keeps a typographic apostrophe inside the word)."""
    t = term.lower()
    for end in ("\u2019s", "'s"):
        if t.endswith(end) and len(t) > len(end):
            return t[: -len(end)]
    return t


def focus_speaker(items: Iterable[Item], terms: Collection[str]) -> str | None:
    """The one speaker of these turns whose name the query ``terms`` spell out, when the
    turns have at least two speakers; None otherwise (no name, or several)."""
    speakers = speakers_of(items)
    if len(speakers) < 2:
        return None
    q = {_bare(t) for t in terms}
    named = [s for s in speakers if (w := _words(s)) and all(x in q for x in w)]
    return named[0] if len(named) == 1 else None


JOINED = re.compile(r"\b(?:and|or|both|together|each other|between|with each other)\b|&",
                    re.IGNORECASE)
"""Words that join two named people into one subject ("Caroline and Melanie", "both",
"together"): the question is about both of them."""


def first_named_speaker(items: Iterable[Item], query: str) -> str | None:
    """When the query names two of these turns' speakers apart ("What news did Omar
    share with Ivan?", "What did Ivan do for Lena?"), the first one named: the one the
    question asks about, the other only its listener. None when it names fewer or more
    than two, or joins them (``JOINED`` between the two names: "Caroline and Melanie")."""
    speakers = speakers_of(items)
    if len(speakers) < 2:
        return None
    places: list[tuple[int, int, str]] = []
    for s in speakers:
        w = _words(s)
        if not w:
            continue
        m = re.search(r"\b" + r"\W+".join(re.escape(x) for x in w) + r"\b", query, re.IGNORECASE)
        if m is not None:
            places.append((m.start(), m.end(), s))
    if len(places) != 2:
        return None
    (_, end, first), (start, _, _) = sorted(places)
    return None if JOINED.search(query[end:start]) else first


def without_name(terms: Collection[str], name: str) -> list[str]:
    """The query terms without the words of ``name`` (all of them when nothing else is left)."""
    drop = set(_words(name))
    return [t for t in terms if _bare(t) not in drop] or list(terms)


def query_without_name(query: str, name: str) -> str:
    """The query's text without the words of ``name`` (a possessive with them: "What does
    Melanie's son like?" gives "What does son like?"), spaces closed up; the query as it is
    when nothing else would be left. A turn's text does not hold its own speaker's name, so
    a vector of the question without it is nearer that speaker's turns."""
    words = _words(name)
    if not words:
        return query
    pat = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")(?:['\u2019]s)?\b",
                     re.IGNORECASE)
    out = re.sub(r"\s+([?.!,;:])", r"\1", " ".join(pat.sub(" ", query).split()))
    return out if re.search(r"\w", out) else query
