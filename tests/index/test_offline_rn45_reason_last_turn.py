"""Session 45 (rn45): nothing said in the conversation's last turn is a rationale, whichever reader
placed it, both ways the offline backend runs: the last turn closes the talk with a remark or what
is left, while the reason of the choice is said before or with it (``_Reader.reason_last_turn``).
Not when the last turn or the one before it holds the decision: then the last turn may take up the
choice and say why."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
CHOSEN = ("Ana: The team dinner needs a venue before Friday.",
          "Ben: The Mill is £55 a head, Rosa's £40 with no deposit.",
          "Ana: Let's book Rosa's for Friday, it's cheaper and nearer the office.")
REMARK = "The Mill's kitchen was shut for a month last year anyway."


@pytest.mark.parametrize("model", WAYS)
def test_a_remark_in_the_last_turn_is_no_reason(model):
    summary, _ = offline_summary(*CHOSEN, "Ben: Fine, I'll ring them tonight.", f"Ana: Good. {REMARK}",
                                 model=model)
    assert not any("kitchen was shut" in reason for reason in summary.rationale)
    assert "It's cheaper and nearer the office." in summary.rationale
    assert "The Mill is £55 a head, Rosa's £40 with no deposit." in summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_the_last_turn_answering_the_decision_keeps_its_reason(model):
    summary, _ = offline_summary(*CHOSEN, f"Ben: Fine. {REMARK}", model=model)
    assert any("kitchen was shut" in reason for reason in summary.rationale)
