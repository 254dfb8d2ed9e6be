"""Session 52 (dec52), decisions (docs/summary-eval.md, "Session 52: decisions missed, read and
classed (dec52)"): a participant's choice drawn with "then" ("Then two butts and a stand from the
grant money.") is a decision, among people and with the assistant; a consequence drawn with
"then" ("Then the shed would be too full …") is not."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]
_BUTTS = ("Ruth: The allotment society wants water butts for the top plots.",
          "Owen: The big green ones are £60 each and the council grant covers half.")


def _elsewhere(summary):
    return (*summary.rationale, *summary.open_questions, *summary.next_steps, *summary.action_items)


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_drawn_with_then_is_a_decision(model):
    summary, _ = offline_summary(*_BUTTS, "Ruth: Then two butts and a stand from the grant money.", model=model)
    assert summary.decisions == ("Two butts and a stand from the grant money.",), summary.decisions
    assert not any("butts" in x for x in _elsewhere(summary)), _elsewhere(summary)


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_drawn_with_then_with_the_assistant(model):
    summary, _ = offline_summary(
        "user: I want to paint the garden fence this weekend.",
        "assistant: A water-based stain dries in an hour; an oil one lasts longer but needs a dry day after.",
        "user: Then the water-based stain in dark oak, two coats.", model=model)
    assert summary.decisions == ("The water-based stain in dark oak, two coats.",), summary.decisions
    assert not any("stain" in x for x in _elsewhere(summary)), _elsewhere(summary)


@pytest.mark.parametrize("model", _WAYS)
def test_a_consequence_drawn_with_then_decides_nothing(model):
    summary, _ = offline_summary(*_BUTTS, "Ruth: Then the shed would be too full for the mowers.", model=model)
    assert summary.decisions == (), summary.decisions
