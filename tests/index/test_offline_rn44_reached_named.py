"""Session 44 (rn44): a step of reaching someone named by a pronoun ("I'll ask her tonight.") says
whom by the name said before it ("Ask Priya Sandhu tonight."), both ways the offline backend runs,
among people and with the assistant; not a participant, not a place after a preposition
(``_Reader.reached_named``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
OPENING = "Mo: The open day needs a face painter for the kids' corner."


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_the_step_names_whom_among_people(model):
    steps = _steps(model, OPENING, "Jo: Priya Sandhu did the school fair last summer, she was brilliant.",
                   "Mo: I'll ask her tonight.", "Jo: Great.")
    assert "Mo: Ask Priya Sandhu tonight." in steps


@pytest.mark.parametrize("model", WAYS)
def test_the_step_names_whom_with_the_assistant(model):
    steps = _steps(model, "user: My turntable hums when the amp is on. Is it the earth wire?",
                   "assistant: Most likely: clip the turntable's earth lead to the amp's GND post. Fraser Doyle "
                   "from the club repairs old amps if it doesn't stop.",
                   "user: I'll ask him on Saturday.", "assistant: Good plan.")
    assert "user: Ask Fraser Doyle on Saturday." in steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", ["Jo: Jo Brennan did it on Saturday, she was brilliant.",
                                  "Jo: The painter we had came up from Harrogate, she was brilliant."])
def test_a_participant_or_a_place_is_not_whom(model, said):
    steps = _steps(model, OPENING, said, "Mo: I'll ask her tonight.", "Jo: Great.")
    assert "Mo: I'll ask her tonight." in steps
