"""Session 42 (rat42): with the assistant, nothing of the user's opening turn is a rationale,
whichever reader placed it: it brings the problem the answer and the choice address; a reason
the user gives later stands (docs/summary-eval.md, "Session 42: rationale (rat42)")."""

import pytest

from memlane.testing import offline_summary

_ANSWER = "assistant: You could switch to the off-peak plan at £29 or pay per visit at £6."
_CHOICE = "I'll switch to the off-peak plan."


@pytest.mark.parametrize("model", [None, "shipped"])
def test_the_problem_brought_is_no_reason(model):
    summary, _ = offline_summary("user: My gym membership went up to £45 a month and I only go twice a week.",
                                 _ANSWER, f"user: {_CHOICE}", model=model)
    assert summary.decisions == ("Switch to the off-peak plan.",), summary
    assert not summary.rationale, summary.rationale


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_reason_given_with_the_choice_stands(model):
    summary, _ = offline_summary("user: My gym membership went up to £45 a month.", _ANSWER,
                                 f"user: I only go twice a week, never before seven. {_CHOICE}", model=model)
    assert summary.decisions == ("Switch to the off-peak plan.",), summary
    assert summary.rationale == ("I only go twice a week, never before seven.",), summary.rationale
