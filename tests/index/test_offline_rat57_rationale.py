"""Session 57 (rat57), rationale (docs/summary-eval.md, "Session 57: rationale, the reason said with
a late decision and the turn before the first choice (rat57)"). Both ways: ``_Reader.reason_aside``
(and ``reason_fronted``) read again after the late decision readers, so a decision they place ("…
from now on, <a clause with a subject of its own>") gives its last clause as the rationale, as the
first read does for the decisions placed before it; not where the decision is a list whose last
item the clause is. Patterns alone: ``_Reader.reason_before_choice``, a participant's statement in
the turn right before the first decision is its rationale; not a question or a small remark."""

import pytest

from memlane.testing import offline_summary

_ASKED = "Ana: What do we do about the rackets after training?"


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_reason_said_with_a_late_decision_is_the_rationale(model):
    summary, _ = offline_summary(
        _ASKED, "Raj: Helmets are compulsory from now on, the insurer won't cover head injuries any more.",
        model=model)
    assert summary.decisions == ("Helmets are compulsory from now on.",), summary.decisions
    assert summary.rationale == ("The insurer won't cover head injuries any more.",), summary.rationale


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_lists_last_item_is_no_reason(model):
    said = "Rackets in the cupboard, shuttles in the tin from now on, the rest stays in the bag."
    summary, _ = offline_summary(_ASKED, f"Raj: {said}", model=model)
    assert summary.decisions == (said,), summary.decisions
    assert summary.rationale == (), summary.rationale


def _club(before):
    return ("Mia: Where do we hold the quiz night in May?", f"Sam: {before}", "Mia: Then we meet at the Fox.")


def test_the_situation_said_the_turn_before_the_choice_is_its_reason_patterns_alone():
    summary, _ = offline_summary(*_club("The Crown's back room is booked every Friday in May."), model=None)
    assert summary.decisions, summary.decisions
    assert "The Crown's back room is booked every Friday in May." in summary.rationale, summary.rationale


def test_no_reason_from_the_turn_before_the_choice_when_it_asks_or_is_small():
    for said in ("Is the Crown's back room free on Fridays in May?", "Not sure."):
        summary, _ = offline_summary(*_club(said), model=None)
        assert summary.rationale == (), (said, summary.rationale)
