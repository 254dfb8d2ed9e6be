"""Session 54 (oq54), open questions (docs/summary-eval.md, "Session 54: open questions, the fronted
doubt (oq54)"): a question a participant fronts and then leaves unknown ("Whether …, no idea.", "How
long …, I honestly don't know.", "Whether … is another matter.") is the open question it leaves,
written as a question; a fronted clause followed by what is known is none."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPENING = "Ffion: The allotment open day is on the 14th of June, same field as last year."


@pytest.mark.parametrize("model", _WAYS)
def test_a_fronted_whether_left_unknown_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Gareth: Whether the water board will switch the standpipe back on before the open day, no idea.",
        "Ffion: Let's put the plant stall by the gate.",
        model=model)
    assert "Will the water board switch the standpipe back on before the open day?" in summary.open_questions, \
        summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_fronted_how_left_unknown_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Gareth: How many jars of chutney the stall can sell in an afternoon, I honestly don't know.",
        "Ffion: Let's put the plant stall by the gate.",
        model=model)
    assert "How many jars of chutney the stall can sell in an afternoon?" in summary.open_questions, \
        summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_fronted_whether_that_is_another_matter_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Gareth: Whether the marquee survives the wind on the top field is another matter.",
        "Ffion: Let's put the plant stall by the gate.",
        model=model)
    assert any("marquee survives the wind" in q for q in summary.open_questions), summary.open_questions
    assert not any("marquee" in x for x in summary.rationale + summary.decisions), summary


@pytest.mark.parametrize("model", _WAYS)
def test_a_fronted_clause_with_what_is_known_is_no_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Gareth: Whether the water board switches the standpipe on or not, we have the rain butts.",
        "Ffion: Let's put the plant stall by the gate.",
        model=model)
    assert not any("standpipe" in q for q in summary.open_questions), summary.open_questions
