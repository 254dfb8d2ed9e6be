"""Session 56 (rat56b), rationale (docs/summary-eval.md, "Session 56: rationale, a reason said
before the choice (rat56b)"), both ways: a participant's decision said after its reason, the reason
first and the choice after a comma or semicolon ("…, let's …", "…; let's take …"), writes the first
clause as the rationale and keeps the decision (``_Reader.reason_fronted``); a courtesy, a second
choice ("…, and let's …") or a "let's" that only sees is no reason."""

import pytest

from memlane.testing import offline_summary


def _allotment(answer):
    return ("Priya: Shall we rent the half plot on Mill Lane or the full plot by the river?",
            f"Tom: {answer}")


@pytest.mark.parametrize("model", ["shipped", None])
@pytest.mark.parametrize(("answer", "reason"), [
    ("The half plot is closer to the tap, let's go with Mill Lane.",
     "The half plot is closer to the tap."),
    ("The river plot floods every winter; let's take the half plot on Mill Lane.",
     "The river plot floods every winter."),
])
def test_a_reason_said_before_the_choice_is_the_rationale(model, answer, reason):
    summary, _ = offline_summary(*_allotment(answer), model=model)
    assert summary.rationale == (reason,), summary.rationale
    assert len(summary.decisions) == 1 and summary.decisions[0] != reason, summary.decisions


@pytest.mark.parametrize("model", ["shipped", None])
@pytest.mark.parametrize("answer", [
    "Fair enough, let's go with Mill Lane.",  # courtesy first
    "Mill Lane, and let's get a water butt too.",  # a second choice
])
def test_no_reason_before_a_courtesy_or_a_second_choice(model, answer):
    summary, _ = offline_summary(*_allotment(answer), model=model)
    assert summary.rationale == (), summary.rationale
