"""Session 24's shortcuts (the cost), each held to the pattern it replaces or guards:
``offline._said_owned`` counts what its two look-behind patterns found, and the ASCII
"still" test before ``ending.still_answers`` reads a question passes every text
``_STILL_Q`` matches."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import SETS, TRAIN, load_set
from memlane.index.ending import _STILL_Q
from memlane.index.offline import _said_owned

NAMES = ("Tom", "Sainsbury", "Anna", "An", "Ünal", "K")
PIECES = ("Tom", "Sainsbury", "Anna", "An", "Ünal", "K", "'s", "’s", "s", "-", "_", "'", "’",
          " ", "\n", ".", "at ", "x", "é", "1", "٣", "ſ", "Tom's", "Tomás", "sTom")


def _patterns(name: str, text: str) -> tuple[int, int]:
    word = re.escape(name)
    return (len(re.findall(r"(?<![\w'’])" + word + r"(?![\w-])", text)),
            len(re.findall(r"(?<![\w'’])" + word + r"['’]s\b", text)))


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(NAMES), st.lists(st.sampled_from(PIECES), max_size=14).map("".join))
def test_said_owned_counts_what_the_patterns_find(name, text):
    assert _said_owned(name, text) == _patterns(name, text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(NAMES), st.text(max_size=40))
def test_said_owned_on_any_text(name, text):
    text = text + name + text[::-1] + name + "'s"
    assert _said_owned(name, text) == _patterns(name, text)


def test_said_owned_on_the_labelled_conversations():
    for conv in [c for name in (*SETS, *TRAIN) for c in load_set(name)]:
        text = "\n".join(t for _, t in conv.turns)
        for name in {w for w in re.findall(r"[A-Z][a-z]+", text)}:
            assert _said_owned(name, text) == _patterns(name, text), (conv.id, name)


QUESTION = st.lists(st.sampled_from(
    ("so ", "and ", "do", "are", "have", " you", "you're", "you are", " still ", "Still",
     "STILL", "stil", " live in Leeds", " at Acme", "?", " ", "  ", ",", "ok ")),
    max_size=10).map("".join)


@settings(max_examples=600, deadline=None)
@given(QUESTION)
def test_every_ascii_still_question_holds_still(text):
    if text.isascii() and _STILL_Q.search(text.strip()):
        assert "still" in text.lower()
