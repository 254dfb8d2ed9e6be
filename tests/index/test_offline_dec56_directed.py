"""Session 56 (dec56), decisions (docs/summary-eval.md, "Session 56: decisions, a directive placed
nowhere (dec56)"): a participant's sentence after the first turn that tells what to do (its verb one
the patterns know), placed nowhere, is a decision (`_Reader.directed`); going ahead, bringing, a
request to the speaker, a "but", or a directive naming nothing (under three content words) is not."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


def _shed(said):
    return ("Joe: The allotment shed roof is leaking again over the seed trays.",
            "Mei: The felt is about ten years old.",
            f"Joe: {said}",
            "Mei: Good, I'll get a roll from the builders' merchant.")


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("said", [
    "Replace the felt on the shed roof before the autumn rains.",
    "Keep the seed trays in the greenhouse until the roof is done.",
])
def test_a_directive_placed_nowhere_is_a_decision(model, said):
    # patterns alone leave these nowhere without the rule; the sentence model writes them itself
    summary, _ = offline_summary(*_shed(said), model=model)
    assert summary.decisions == (said,), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("said", [
    "Go ahead and order the felt from the builders' merchant.",
    "Send me the builders' merchant's price list for roofing felt.",
    "Book it.",
])
def test_going_ahead_a_request_to_the_speaker_or_naming_nothing_is_no_decision(model, said):
    summary, _ = offline_summary(*_shed(said), model=model)
    assert summary.decisions == (), summary.decisions


@pytest.mark.parametrize("said", [
    "Bring the seed trays up to the greenhouse this weekend.",
    "Order the felt but check the width of the roof first.",
])
def test_bringing_or_a_but_is_no_decision(said):
    # patterns alone: the sentence model takes these up on its own
    summary, _ = offline_summary(*_shed(said), model=None)
    assert summary.decisions == (), summary.decisions
