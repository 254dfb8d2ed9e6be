"""Session 42's cheaper forms of the offline summarizer's tests (issue #17, the speed) answer
as the forms they replace, so no output changes.

Each new form is held to the old one, written out here, on texts hypothesis draws from the
pieces the test looks at. ``tools/summary_dump.py --check`` holds whole summaries to the same
output.
"""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import cues
from memlane.testing import offline_summary


def _ill_opens_word_by_loop(low: str) -> bool:
    """Session 23's form: every "ill", by ``str.find``, and the character before it."""
    i = low.find("ill")
    while i >= 0:
        if i == 0 or not (low[i - 1].isalnum() or low[i - 1] == "_"):
            return True
        i = low.find("ill", i + 1)
    return False


ILL_PIECES = st.sampled_from(["ill", "i'll", "will", "still", "skill", "_ill", "9ill", "éill", "\u0663ill",
                              "\u00b2ill", "-ill", "'ill", "il", "l", "i", " ", "\n", ".", "w", "é", "x"])
ILL_TEXTS = st.lists(ILL_PIECES, max_size=12).map("".join)


@settings(max_examples=800, deadline=None)
@given(ILL_TEXTS)
def test_ill_opening_a_word_is_the_loop(low: str) -> None:
    assert cues._ill_opens_word(low) == _ill_opens_word_by_loop(low)


def test_ill_opening_a_word_passes_what_the_cue_pattern_needs() -> None:
    assert cues._ill_opens_word("ill send it tonight")  # at the start
    assert cues._ill_opens_word("sure, ill send it")  # after a blank
    assert cues._ill_opens_word("it will work, ill check")  # a later "ill" after "will"
    assert not cues._ill_opens_word("it will still take skill")
    assert not cues._ill_opens_word("_ill and 2ill")
    for said in ("i'll send it", "ill send it", "ok ill do that."):
        assert re.search(r"\bi'?ll", said) is not None and cues._ill_opens_word(said.replace("'", ""))


def _rent(between: str) -> list[str]:
    return ["Bronwen: The post office wants a hosted counter in the hall.", "Gethin: I'll reply to their letter.",
            "Bronwen: Also, do we charge them rent? The hall committee will want something.",
            f"Gethin: {between}", "Bronwen: Let's not charge rent for the first year.", "Gethin: Fine by me."]


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_turn_putting_off_between_keeps_the_question_open(model: str | None) -> None:
    """``decided_next`` skips a question no decision ahead shares a word with; one that a decision
    two turns on answers is still searched, so the turn between that puts it off still counts."""
    summary, _ = offline_summary(*_rent("Let's table that for now."), model=model)
    assert "Do we charge them rent?" in summary.open_questions
    summary, _ = offline_summary(*_rent("The committee meets in May."), model=model)
    assert not any("rent" in q for q in summary.open_questions), summary.open_questions
    assert any("rent" in d for d in summary.decisions), summary.decisions
