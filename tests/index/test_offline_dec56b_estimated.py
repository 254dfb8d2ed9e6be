"""Session 56 (dec56b), decisions (docs/summary-eval.md, "Session 56: decisions, a figure given as
an estimate (dec56b)"): a decision whose sentence gives a figure as an estimate ("about £1,800",
"about 40 chairs") is taken out, whichever reader placed it (`_Reader.estimated`); a sentence that
says the choice ("Let's …") stays a decision."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


def _marquee(said):
    return ("Rhian: We need to sort the marquee for the summer show.",
            "Gareth: The Mill Field is flat enough.",
            f"Rhian: {said}",
            "Gareth: OK, I'll ring the committee.")


def test_an_amount_estimated_is_no_decision():
    # by default: the sentence model writes it; the patterns alone do not
    summary, _ = offline_summary(*_marquee("We'll need about 40 chairs and six trestle tables."), model="shipped")
    assert not any("chairs" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_price_estimated_is_no_decision_the_choice_beside_it_stays(model):
    summary, _ = offline_summary(*_marquee("The marquee's about £1,800, and we'll book one either way."), model=model)
    assert not any("£1,800" in d for d in summary.decisions), summary.decisions
    if model == "shipped":  # the sentence model writes the choice apart; the patterns read the sentence whole
        assert any("book one" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_said_with_an_estimate_stays_a_decision(model):
    summary, _ = offline_summary(*_marquee("Let's hire from Dyfed Tents, split between the two clubs it's about £900 each."),
                                 model=model)
    assert any("Dyfed Tents" in d for d in summary.decisions), summary.decisions
