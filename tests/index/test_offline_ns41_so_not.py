"""Session 41: a decision ending on what it prevents or keeps ("…, so it doesn't …", "…; that
keeps …") gives that clause as its rationale, both ways the offline backend runs
(docs/summary-eval.md, "Session 41: next steps and rationale (ns41)")."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]

_TURNS = ("Ana: The allotment committee needs to sort out the shared tools and the market day.",
          "Tom: The mowers keep going missing and half the stallholders work Fridays.")


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("said", "decided", "why"), [
    ("Let's lock the shed at night so the mowers don't walk off again.",
     "Lock the shed at night.", "So the mowers don't walk off again."),
    ("Let's move the market to Saturdays; that keeps the Friday volunteers free.",
     "Move the market to Saturdays.", "That keeps the Friday volunteers free."),
])
def test_what_a_decision_prevents_or_keeps_is_its_reason(model, said, decided, why):
    summary, _ = offline_summary(*_TURNS, f"Ana: {said}", model=model)
    assert decided in summary.decisions, summary.decisions
    assert why in summary.rationale, summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_what_follows_from_a_decision_stays_in_it(model):
    summary, _ = offline_summary(*_TURNS, "Ana: Let's lock the shed at night so the mowers are there on Saturday.",
                                 model=model)
    assert "Lock the shed at night so the mowers are there on Saturday." in summary.decisions, summary.decisions
    assert not summary.rationale, summary.rationale
