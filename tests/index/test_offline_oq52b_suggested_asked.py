"""Session 52 (oq52b), open questions (docs/summary-eval.md, "Session 52: open questions, the
large classes (oq52b)"): a participant's suggestion put as a question, opening on a verb ("Pass
a hat round?"), is no open question; a question about the matter ("Do we charge for it?") and a
choice between two ("Sell the tickets ourselves, or go through the box office?") stay open."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPENING = "Imani: The band wants 150 for the night and we have nothing in the kitty."


@pytest.mark.parametrize("model", _WAYS)
def test_a_suggestion_put_as_a_question_is_no_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Rhys: We have no money. Pass a hat round at the interval?",
        "Imani: Let's see if the band says yes first.",
        model=model)
    assert not any("hat round" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_about_the_matter_stays_open(model):
    summary, _ = offline_summary(
        _OPENING,
        "Rhys: Do we charge for entry at the door this year?",
        "Imani: Let's see if the band says yes first.",
        model=model)
    assert any("charge for entry" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_between_two_suggestions_stays_open(model):
    summary, _ = offline_summary(
        _OPENING,
        "Rhys: Sell the tickets ourselves, or go through the box office at the arts centre?",
        "Imani: Let's see if the band says yes first.",
        model=model)
    assert any("box office" in q for q in summary.open_questions), summary.open_questions
