"""Session 54 (ns54): the assistant's last answer tells the user what to do, and the user's last
turn answers it with a step of their own: the user's step is written and the advice is not, both
ways the offline backend runs (``_Reader.advice_answered``); advice the conversation ends on, or
one the user answers without a step, stays the user's step."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
ASKED = ("user: My new bookshelf came flat-packed and the leaflet says to glue the dowels. "
         "Will any wood glue do?")
ADVICE = "assistant: Yes, ordinary PVA wood glue is fine. Test the glue on a spare dowel first."


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_advice_answered_by_the_users_own_step_is_taken_out(model):
    steps = _steps(model, ASKED, ADVICE, "user: Good tip. I'll build it on Saturday morning with my brother.")
    assert any("build it on saturday" in s.lower() for s in steps), steps
    assert not any("spare dowel" in s.lower() for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_advice_the_conversation_ends_on_stays(model):
    steps = _steps(model, ASKED, ADVICE)
    assert any("spare dowel" in s.lower() for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_advice_answered_without_a_step_stays(model):
    steps = _steps(model, ASKED, ADVICE, "user: Brilliant, thank you!")
    assert any("spare dowel" in s.lower() for s in steps), steps
