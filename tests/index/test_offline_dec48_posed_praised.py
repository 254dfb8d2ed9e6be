"""Session 48 (dec48), decisions (docs/summary-eval.md, "Session 48: heldout43's missed decisions
read (dec48)"): a terse choice ("Beta it is.") written with the sentence that posed it, when that
sentence only praises the choice ("Then the Beta is the better choice."), is written with the
earlier sentence that named the choice and said what it is; a posing sentence that says more
stays."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_ASK = "user: I want to start sketching outdoors on my walks. Which sketchbook should I get?"
_OFFER = ("assistant: A pocket sketchbook like the Stillman & Birn Beta, with heavy 270 gsm paper, takes "
          "watercolour washes without buckling. A cheap spiral pad is fine for pencil only.")
_TAKEN = "user: Beta it is. I'll pick one up on Saturday."


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_posed_by_praise_is_written_with_what_named_it(model):
    summary, _ = offline_summary(
        _ASK, _OFFER, "user: Mostly pencil, but I'd like to try paint later.",
        "assistant: Then the Beta is the better choice.", _TAKEN, model=model)
    assert summary.decisions == (
        "Beta — A pocket sketchbook like the Stillman & Birn Beta, with heavy 270 gsm paper, takes watercolour "
        "washes without buckling",), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_posed_by_a_sentence_saying_more_stays(model):
    summary, _ = offline_summary(
        _ASK, _OFFER, "user: Mostly pencil, but I'd like to try paint later.",
        "assistant: Then the Beta is the better choice, its paper takes a wash when you get to paint.", _TAKEN,
        model=model)
    assert summary.decisions == (
        "Beta — The Beta is the better choice, its paper takes a wash when you get to paint",), summary.decisions
