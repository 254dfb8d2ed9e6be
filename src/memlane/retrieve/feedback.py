"""Feedback: the best hit's own words find the evidence that shares them, not the question's.

A question that gathers ("What are the breeds of Lena's cats?", "What does Ivan do to
unwind?") has its evidence spread over several sessions, and only some of it shares
a word with the question: "They're all rescues, two are tabby mixes" is found, "Ginger
and Smoke are Siamese mixes" in a later session is not, though it says the same kind of thing.
``feedback_terms`` takes the content words of the best candidate turn (pseudo-relevance
feedback); the search runs the lexical list again with the query's terms and these, and
fuses it as a third list, so turns that share the best hit's rarer words ("mutts",
"mixes") join the candidates and lift their sessions. BM25 weighs the added words by their
rarity, so common ones do little. It runs only when the query names one of a
conversation's speakers (``memlane.retrieve.speaker``), and then only that speaker's turns
give feedback.
"""

from __future__ import annotations

from collections.abc import Sequence

from memlane.retrieve.text import query_terms

__all__ = ["feedback_terms"]


def feedback_terms(texts: Sequence[str], terms: Sequence[str], drop: Sequence[str] = (),
                   limit: int = 24, min_len: int = 4) -> list[str]:
    """The content words of ``texts`` (no stopwords, digits or words shorter than
    ``min_len``, none of ``terms`` or the words of ``drop``), in order of first use, at most
    ``limit``."""
    seen = {t.lower() for t in terms} | {w.lower() for d in drop for w in d.split()}
    out: list[str] = []
    for text in texts:
        for t in query_terms(text):
            w = t.lower()
            if len(w) >= min_len and w.isalpha() and w not in seen:
                seen.add(w)
                out.append(t)
                if len(out) >= limit:
                    return out
    return out
