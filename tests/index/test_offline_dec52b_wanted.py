"""Session 52 (dec52b), decisions (docs/summary-eval.md, "Session 52: decisions, the large classes
(dec52b)"): a participant's sentence that the readers placed as rationale is a decision when it
says what they want done ("I'd want helmets on every rider …", `_Reader.wanted`) or names a choice
against what it is not ("…, not the small ones.", `_Reader.contrasted`); a wish to talk to someone
first, one inside another's clause, and a contrast that tells what something is are not."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


def _park(said):
    return ("Ines: The bike park has offered our youth club a Saturday morning in May.",
            "Tom: Twelve riders at most, and it costs us £90 for the morning.",
            f"Ines: Fine. {said} Last summer a boy broke his wrist.",
            "Tom: Yes, helmets for all, jumps for the older ones. I'll book the morning today.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_wish_placed_as_rationale_is_a_decision(model):
    wish = "I'd want helmets on every rider and the jumps only for the ones over twelve."
    summary, _ = offline_summary(*_park(wish), model=model)
    assert wish in summary.decisions, summary.decisions
    assert wish not in summary.rationale, summary.rationale
    assert "Last summer a boy broke his wrist." in summary.rationale, summary.rationale


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("said", [
    "I'd want to talk to every rider's parents and the jumps only for the ones over twelve.",
    "Nobody there said they'd want helmets on every rider and the jumps only for the ones over twelve.",
])
def test_a_wish_to_talk_first_or_said_by_others_stays_rationale(model, said):
    summary, _ = offline_summary(*_park(said), model=model)
    assert said in summary.rationale, summary.rationale
    assert said not in summary.decisions, summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_against_what_it_is_not_placed_as_rationale_is_a_decision(model):
    choice = "Helmets on every rider, and the jumps for the ones over twelve, not the small ones."
    summary, _ = offline_summary(*_park(choice), model=model)
    assert choice in summary.decisions, summary.decisions
    assert choice not in summary.rationale, summary.rationale


@pytest.mark.parametrize("model", _WAYS)
def test_a_contrast_that_tells_what_something_is_stays_rationale(model):
    told = "The jumps are the risk, not the track."
    summary, _ = offline_summary(*_park(told), model=model)
    assert told in summary.rationale, summary.rationale
    assert told not in summary.decisions, summary.decisions
