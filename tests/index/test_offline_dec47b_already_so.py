"""Session 47 (dec47b), decisions (docs/summary-eval.md, "Session 47: heldout43's decisions read
(dec47b)"): a decision whose first clause tells what is already so ("We already have the gazebo
from the scout group, …") is the situation, not a choice, and is taken out; a choice said first,
with "already" only in its reason after, stays."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPEN = "Maya: The allotment open day is on the 9th and the committee wants a plant stall."
_CHOICE = ("Maya: Good. Then we sell the seedlings at a pound each.", "Olu: Fine, a pound each. I'll make the signs.")


def test_what_is_already_had_is_no_decision():
    summary, _ = offline_summary(
        _OPEN, "Olu: We already have the gazebo from the scout group, so the shelter side is there.", *_CHOICE,
        model="shipped")
    assert not any("gazebo" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_the_choice_beside_what_is_already_had_stays(model):
    summary, _ = offline_summary(
        _OPEN, "Olu: We already have the gazebo from the scout group, so the shelter side is there.", *_CHOICE,
        model=model)
    assert "Sell the seedlings at a pound each." in summary.decisions, summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_with_already_in_its_reason_stays(model):
    summary, _ = offline_summary(
        _OPEN, "Olu: Should we buy a gazebo or borrow the scouts' one?",
        "Maya: Let's borrow the scouts' gazebo, it's already in the shed.", model=model)
    assert any(d.startswith("Borrow the scouts' gazebo") for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_what_is_already_so_split_off_a_choice_is_no_decision(model):
    summary, _ = offline_summary(
        "Maya: The allotment open day is on the 9th and the committee wants a plant stall. What do we charge?",
        "Olu: A pound each for the seedlings, and the folding tables are already in the shed.", "Maya: Fine by me.",
        model=model)
    assert summary.decisions == ("A pound each for the seedlings.",), summary.decisions
