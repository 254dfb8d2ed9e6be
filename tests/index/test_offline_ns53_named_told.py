"""Session 53 (ns53): among people, a sentence no reader placed that names another participant and
tells that one to do something with a verb an instruction opens with ("Kieran, get the final quote
from the printers.") is the named one's next step, both ways the offline backend runs; not with
"if" (``_Reader.named_told``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_the_named_one_is_told(model):
    steps = _steps(model, "Nia: The printers sent two quotes for the programme.", "Gethin: I saw them.",
                   "Nia: Gethin, get the final quote from the printers.")
    assert any(s.startswith("Gethin: ") and "final quote from the printers" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_condition_is_no_step(model):
    steps = _steps(model, "Nia: The printers sent two quotes for the programme.", "Gethin: I saw them.",
                   "Nia: Gethin, get the final quote if the committee says yes.")
    assert not any("final quote" in s for s in steps), steps
