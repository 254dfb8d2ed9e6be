"""Session 48 (rn48), next steps (docs/summary-eval.md, "Session 48: heldout43's rationale and
next steps read (rn48)"): a speaker's own step joined last to the choice it follows ("Paper plates
for the stall, and I'll pick them up on Friday") is written from its "I'll"; a request said first
("Please book the hall today, and I'll …") is a step of its own and the sentence stays whole."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPEN = ("Priya: The church fete needs a tombola stall this year. Who runs it?",
         "Sam: I can, if someone sorts the prizes.")


@pytest.mark.parametrize("model", _WAYS)
def test_the_step_after_the_choice_is_written_alone(model):
    summary, _ = offline_summary(
        *_OPEN, "Priya: Tickets at a pound each with Sam on the stall, and I'll collect the prizes from the shop on Friday.",
        model=model)
    steps = (*summary.next_steps, *summary.action_items)
    assert "Priya: I'll collect the prizes from the shop on Friday." in steps, steps
    assert not any("Tickets at a pound" in s for s in steps), steps


@pytest.mark.parametrize("model", _WAYS)
def test_a_request_said_first_stays_whole(model):
    summary, _ = offline_summary(
        *_OPEN, "Priya: Please book the hall for the Saturday, Sam, and I'll collect the prizes from the shop on Friday.",
        model=model)
    steps = (*summary.next_steps, *summary.action_items)
    assert any("book the hall" in s.lower() for s in steps), steps
