"""Session 54 (dec54), decisions (docs/summary-eval.md, "Session 54: decisions, a choice named
against what it is not, placed nowhere (dec54)"): a participant's sentence after the first turn
that no reader placed, naming its choice against the alternative ("… rather than …", "… instead.",
`_Reader.contrasted`), is a decision, and the reason said beside it its rationale; one with a "but"
is not."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


def _raffle(said):
    return ("Maya: The PTA asked us to run the raffle at the summer fete.",
            "Joe: Last year the tombola barely broke even and the prizes were tat.",
            f"Maya: {said}",
            "Joe: Good, I'll ask the bakery for a prize.")


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("said", [
    "Strips of five tickets at the gate rather than single tickets at the stall.",
    "Vouchers from the shops on the high street instead.",
])
def test_a_choice_against_what_it_is_not_placed_nowhere_is_a_decision(model, said):
    summary, _ = offline_summary(*_raffle(said), model=model)
    assert said in summary.decisions, summary.decisions
    # the reason said the turn before, read once the sentence is a decision
    assert "Last year the tombola barely broke even and the prizes were tat." in summary.rationale, summary.rationale


def test_a_contrast_with_a_but_is_no_decision():
    # patterns alone: the sentence model may take such a sentence up on its own
    said = "Vouchers from the high street shops rather than bought prizes, but just for this year."
    summary, _ = offline_summary(*_raffle(said), model=None)
    assert said not in summary.decisions, summary.decisions
