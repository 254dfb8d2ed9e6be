"""Session 54 (ns54): a participant's sentence that the readers took for a next step only for its
"after that" (what follows something, told) is taken out, both ways the offline backend runs
(``_Reader.after_that_only``); a "let's … after that" stays the group's step."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
OPENING = "Mared: The hall roof repair starts on Monday and runs for two weeks."
CLOSING = "Mared: Fine. I'll tell the choir to park on Chapel Street from Monday."


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_a_sentence_with_after_that_alone_is_no_step(model):
    steps = _steps(model, OPENING, "Owain: The scaffold stays up till the 20th, after that the car park is ours again.",
                   CLOSING)
    assert any(s.startswith("Mared: ") and "chapel street" in s.lower() for s in steps), steps
    assert not any("scaffold" in s.lower() for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_lets_with_after_that_stays_a_step(model):
    steps = _steps(model, OPENING, "Owain: Let's ask the roofers on Monday how long the scaffold stays, "
                   "and book the line painters after that.", CLOSING)
    assert any("ask the roofers on monday" in s.lower() for s in steps), steps
