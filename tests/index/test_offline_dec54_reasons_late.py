"""Session 54 (dec54), rationale (docs/summary-eval.md, "Session 54: decisions, a choice named
against what it is not, placed nowhere (dec54)"): the reasons are read again once the late decision
readers have written theirs, so a reason said the turn before a choice drawn with "then"
(`_Reader.then_chosen`, which reads after `_Reader.reasons`) is its rationale."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_reason_beside_a_late_decision_is_its_rationale(model):
    summary, _ = offline_summary(
        "Ana: The chess club needs money for new boards and clocks this spring.",
        "Ben: Last year the raffle made almost nothing and the members hated selling tickets.",
        "Ana: Then a £20 joining fee for every adult member.",
        "Ben: Fine by me, I'll put it in the newsletter.",
        model=model)
    assert summary.decisions == ("A £20 joining fee for every adult member.",), summary.decisions
    assert "Last year the raffle made almost nothing and the members hated selling tickets." in summary.rationale, \
        summary.rationale
