"""Session 48 (dec48b), decisions (docs/summary-eval.md, "Session 48: decisions said where no field
holds them (dec48b)"): among people, a participant's sentence saying how things go from now on
("Shin pads or no warm-up match, from next week.") is a decision, though it has no verb of choosing;
the same said in the opening turn, or in a question, is not."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_rule_from_next_week_is_a_decision(model):
    summary, _ = offline_summary(
        "Marta: Half the squad turned up without shin pads again on Saturday.",
        "Joel: The ref nearly didn't let us play, it was close.",
        "Marta: Fine. Shin pads or no warm-up match, from next week.",
        model=model)
    assert summary.decisions == ("Shin pads or no warm-up match, from next week.",), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_from_next_week_decides_nothing(model):
    summary, _ = offline_summary(
        "Marta: Half the squad turned up without shin pads again on Saturday.",
        "Joel: The ref nearly didn't let us play, it was close.",
        "Marta: Shin pads or no warm-up match, from next week?",
        model=model)
    assert not any("shin pads" in d for d in summary.decisions), summary.decisions
