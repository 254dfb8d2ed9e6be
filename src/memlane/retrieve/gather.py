"""Gathering: a question that names a category finds the named speaker's instances of it.

A question about one participant of a conversation often gathers: "What instruments does
Melanie play?", "Which countries has James visited?", "What pets does Nate have?". Its
evidence is an instance of the category ("I've been practising the clarinet", "we landed in
Greenland") and shares no word with the question. A text's static vector is the sum of its
words' rows, so one instance word in a long message is drowned by the rest of it.

``gather_scores`` scores each of the focused speaker's turns word by word instead: for every
content term of the query, the best cosine between that term's static row and any content
word of the turn (late interaction over single words, as ColBERT does over tokens), averaged
over the query's terms. "instruments" meets "clarinet", "countries" meets "Greenland",
wherever they stand in the message. ``memlane.retrieve.search`` lets the best of these turns
join the candidates with a relevance in proportion to their score (``gather_weight``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["content_words", "gather_scores"]

_ALPHA = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")

STOP = frozenset("""
a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing done down during each few for
from further get got had has have having he her here hers herself him himself his how i if
in into is it its itself just like me more most my myself no nor not now of off on once only
or other our ours ourselves out over own really same she should so some such than that the
their theirs them themselves then there these they this those through to too under until up
very was we were what when where which while who whom why will with would you your yours
yourself yourselves yeah yes wow thanks thank great awesome cool sure okay glad hey hi oh
love lot lots much many thing things something anything everything kind type types sort
one ones way well good time times day days still even always never ever lately recently
going gonna want wanted know think feel felt make made take took see saw say said tell told
look looks looking sounds sound amazing nice definitely totally pretty super happy
""".split())
"""Words that say nothing about what a turn is about (function words and chat fillers)."""


def content_words(text: str, drop: Sequence[str] = (), min_len: int = 3) -> list[str]:
    """The distinct lowercased words of ``text`` that may name something: no stopwords,
    no words of ``drop`` (the speakers' names), none shorter than ``min_len``."""
    skip = {w.lower() for d in drop for w in d.split()}
    out: list[str] = []
    seen: set[str] = set()
    for m in _ALPHA.finditer(text):
        w = m.group(0).lower().replace("’", "'")
        if w.endswith("'s"):
            w = w[:-2]
        if len(w) < min_len or w in STOP or w in skip or w in seen:
            continue
        seen.add(w)
        out.append(w)
    return out


def gather_scores(query_words: Sequence[str], texts: dict[int, str],
                  embed: Callable[[Sequence[str]], np.ndarray],
                  drop: Sequence[str] = ()) -> dict[int, float]:
    """Each text's mean over ``query_words`` of the best cosine between the query word's
    row and any of the text's content words (``embed`` maps words to unit vectors); 0 for
    a text with no content word. Empty when the query has no content word."""
    q = [w.lower() for w in query_words]
    if not q or not texts:
        return {}
    words_of = {i: content_words(t, drop) for i, t in texts.items()}
    vocab = sorted({w for ws in words_of.values() for w in ws} | set(q))
    if not vocab:
        return {}
    vecs = embed(vocab)
    row = {w: r for r, w in enumerate(vocab)}
    qm = vecs[[row[w] for w in q]]  # (q, d)
    sims = qm @ vecs.T  # (q, vocab)
    out: dict[int, float] = {}
    for i, ws in words_of.items():
        ws = [w for w in ws if w not in q]  # the query's own words are the lexical list's work
        if not ws:
            out[i] = 0.0
            continue
        cols = [row[w] for w in ws]
        m = sims[:, cols].max(axis=1)
        import os
        out[i] = float(m.max() if os.environ.get("GATHER_AGG") == "max" else m.mean())
    return out
