"""Session 52 (dec52b), decisions (docs/summary-eval.md, "Session 52: decisions, the large classes
(dec52b)"): a participant's sentence saying what they want done ("I'd want helmets on every rider
…"), which the readers placed as rationale, is a decision; a wish to talk to someone first, or one
that is not the clause's head ("Nobody there said they'd want …"), stays rationale."""

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
