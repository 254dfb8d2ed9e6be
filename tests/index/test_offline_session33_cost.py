"""Session 33's speed shortcuts give what the plain computation gives.

``cues._may_cue_assistant`` groups its substring tests: it must pass what testing each
string on its own passes. ``people._GATE`` is written so that ``re`` can skip to its first
character: it must find a match exactly where the plain form (a look-behind, then "I", "we",
"my" or "our" ignoring case) finds one. Both are checked on the labelled conversations' text
and on generated text (the gate also on text generated from either pattern). The word
patterns written possessive (``offline._WORD_LOW``, ``cues._WORD``) find the plain ones' words.
"""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import FRESH, SETS, TRAIN, load_set
from memlane.index import cues, offline, people

TEXTS = [text for name in SETS + TRAIN + FRESH for conv in load_set(name) for _, text in conv.turns]

PLAIN_GATE = re.compile(r"(?<![\w'’])(?:(?:I|we)" + people._SUBJECT_NEXT + r"|(?:my|our)" + people._RELATIVE + r")",
                        re.IGNORECASE)
"""The gate as sessions 18-32 wrote it."""

GATE_FRAGMENTS = [
    "I", "i", "İ", "ı", "we", "We", "WE", "my", "My", "our", "Our", "OUR", "'", "’", "_", "x", "a", "1",
    " ", "  ", "\n", "\t", "\u00a0", ", ", ". ", "'m", "’m", "'ve", "'re", " am", " was", " live in",
    " lives", " work", " works at", " moved", " allergic", " have", " don't", " never", " 30", " now",
    " sister", " brother", " wife", " little", " older", " 3-year-old", " mum", " dog", " kids",
    " really", " also", " just", "Σ", "é", "K",
]
GATE_TEXT = st.lists(st.sampled_from(GATE_FRAGMENTS) | st.text(max_size=3), max_size=14).map("".join)


def _same(text: str) -> None:
    assert (people._GATE.search(text) is None) == (PLAIN_GATE.search(text) is None), text


def test_gate_finds_what_the_plain_form_finds_in_labelled_text() -> None:
    found = 0
    for text in TEXTS:
        for sentence in [text, *re.split(r"(?<=[.!?])\s+", text)]:
            _same(sentence)
            found += PLAIN_GATE.search(sentence) is not None
    assert found >= 50  # the sets hold sentences of the kind


@settings(max_examples=500, deadline=None)
@given(st.from_regex(PLAIN_GATE) | st.from_regex(people._GATE))
def test_gate_finds_what_the_plain_form_finds_in_their_own_matches(text: str) -> None:
    _same(text)


@settings(max_examples=2000, deadline=None)
@given(GATE_TEXT)
def test_gate_finds_what_the_plain_form_finds_in_generated_text(text: str) -> None:
    _same(text)


def _plain_may_cue_assistant(low: str) -> bool:
    """``cues._may_cue_assistant`` as sessions 23-32 wrote it: each string tested on its own."""
    return ("i'll" in low or "e'll" in low or "y'll" in low or "open" in low or "decide" in low
            or "t know" in low or "not sure" in low or "unclear" in low or "tbd" in low
            or "remember to" in low or "forget to" in low or "i will" in low
            or "next step" in low or "plan is to" in low or "nobody answered" in low
            or "to be seen" in low or "haven" in low or "no idea" in low or "no answer" in low
            or "no plan" in low or "no clue" in low or "nobody " in low or "question " in low
            or cues._ill_opens_word(low)
            or ("ill" in low and (cues._WILL_CALL.search(low) is not None or "y know" in low or (
                ("know" in low or "idea" in low or "answer" in low or "plan" in low or "clue" in low)
                and ("  " in low or not low.isprintable() or low[:1] == " " or low[-1:] == " ")))))


CUE_FRAGMENTS = ["i'll", "we'll", "they'll", "'ll", "ll", "no ", "no", "nobody", "nobody answered", "idea",
                 "answer", "plan", "clue", " ", "  ", "i", "e", "y", "'", "o", "open", "question", "ill"]


def test_may_cue_assistant_passes_what_its_plain_form_passes_in_labelled_text() -> None:
    passed = 0
    for text in TEXTS:
        low = text.lower()
        assert cues._may_cue_assistant(low) == _plain_may_cue_assistant(low), text
        passed += cues._may_cue_assistant(low)
    assert 0 < passed < len(TEXTS)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(CUE_FRAGMENTS) | st.text(max_size=3), max_size=12).map("".join))
def test_may_cue_assistant_passes_what_its_plain_form_passes_in_generated_text(text: str) -> None:
    low = text.lower()
    assert cues._may_cue_assistant(low) == _plain_may_cue_assistant(low)


WORD_TEXT = st.lists(st.sampled_from(["a", "z", "0", "9", "'", "+", "-", "''", "--", "c++", "don't", " ", "é", "A", "_"])
                     | st.text(max_size=3), max_size=16).map("".join)


@settings(max_examples=2000, deadline=None)
@given(WORD_TEXT)
def test_possessive_word_patterns_find_the_plain_patterns_words(text: str) -> None:
    for low in (text, text.lower()):
        assert offline._WORD_LOW.findall(low) == re.findall(r"[a-z](?:[a-z0-9'+-]*[a-z0-9])?", low)
        assert cues._WORD.findall(low) == re.findall(r"[a-z0-9]+(?:'[a-z]+)?", low)
