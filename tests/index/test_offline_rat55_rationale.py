"""Session 55 (rat55), rationale (docs/summary-eval.md, "Session 55: rationale, the short remark and
the price said of "that" (rat55)"), both ways: a rationale of six words at most in which the speaker
says "I" is their own stance or state, no reason (``_Reader.reason_mine_short``), while a longer
sentence of the speaker's that says why stays; a price said of "it / that / there" ("That's £2,800.")
is the sum worked out, no reason (``_Reader.reason_price_said``); a remark of five words at most
after the last decision is an aside, no reason (``_Reader.reason_brief_after``), while a longer one
stays."""

import pytest

from memlane.testing import offline_summary

CASTLE = ("Maya: Should the street party have a bouncy castle this year?",
          "Leon: {remark}",
          "Maya: The insurance for one costs £180 and the fund only has £250 left.",
          "Leon: Let's skip the castle and do a sack race instead.")


@pytest.mark.parametrize("model", ["shipped", None])
@pytest.mark.parametrize("remark", ["I'm not saying no.", "I have no clue.", "I don't own a pump."])
def test_a_short_remark_of_the_speakers_own_is_no_rationale(model, remark):
    turns = [t.format(remark=remark) for t in CASTLE]
    summary, _ = offline_summary(*turns, model=model)
    assert summary.decisions == ("Skip the castle and do a sack race instead.",), summary.decisions
    assert summary.rationale == ("The insurance for one costs £180 and the fund only has £250 left.",), \
        summary.rationale


@pytest.mark.parametrize("model", ["shipped", None])
def test_the_speakers_longer_reason_stands(model):
    summary, _ = offline_summary(
        "Maya: Should the street party have a bouncy castle this year?",
        "Leon: I don't own a pump and the hire shop is shut on Sundays.",
        "Maya: Let's skip the castle and do a sack race instead.",
        model=model)
    assert summary.rationale == ("I don't own a pump and the hire shop is shut on Sundays.",), summary.rationale


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_price_said_of_that_is_no_rationale(model):
    # the sum worked out ("That's £2,800.") is no reason; the reason said beside it stands, and
    # without the sentence model the price said with its thing stays too
    summary, _ = offline_summary(
        "Nadia: The ice carver wants £1,400 a day for the two market days.",
        "Tom: That's £2,800.",
        "Nadia: Half the stalls said the carving brought them nothing last year.",
        "Tom: Let's skip the carver this winter and put the money into lights.",
        model=model)
    assert "Skip the carver this winter." in summary.decisions, summary.decisions
    assert "That's £2,800." not in summary.rationale, summary.rationale
    assert "Half the stalls said the carving brought them nothing last year." in summary.rationale, \
        summary.rationale
    if model is None:
        assert "The ice carver wants £1,400 a day for the two market days." in summary.rationale, \
            summary.rationale


def _quiz(remark):
    return ("Priya: Should the quiz night move to the church hall?",
            "Sam: The pub back room only seats forty and we had sixty last month.",
            "Priya: Let's book the church hall for the March quiz.",
            f"Sam: {remark}",
            "Priya: Fine by me.")


@pytest.mark.parametrize("model", ["shipped", None])
@pytest.mark.parametrize("remark", ["The car park's already small.", "Parking is only 20 spaces."])
def test_a_brief_remark_after_the_last_decision_is_no_rationale(model, remark):
    summary, _ = offline_summary(*_quiz(remark), model=model)
    assert summary.decisions == ("Book the church hall for the March quiz.",), summary.decisions
    assert summary.rationale == ("The pub back room only seats forty and we had sixty last month.",), \
        summary.rationale


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_longer_remark_after_the_last_decision_stands(model):
    remark = "Parking is only 20 spaces on a weeknight."
    summary, _ = offline_summary(*_quiz(remark), model=model)
    assert remark in summary.rationale, summary.rationale
