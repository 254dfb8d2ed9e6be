"""Session 48 (dec48b), decisions (docs/summary-eval.md, "Session 48: decisions said where no field
holds them (dec48b)"): among people, a participant's "we'll <do> …" heading a clause ("ok. we'll
print the picture round on paper instead.") is a decision; what we'll need is not."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]
_OPEN = ("Ana: The hall's booked for the quiz night but the projector is broken.",
         "Ben: The school said we could borrow theirs, but only on weekdays.")


@pytest.mark.parametrize("model", _WAYS)
def test_what_we_will_do_is_a_decision(model):
    summary, _ = offline_summary(*_OPEN, "Ana: ok. we'll print the picture round on paper instead.", model=model)
    assert summary.decisions == ("Print the picture round on paper instead.",), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_what_we_will_need_decides_nothing(model):
    summary, _ = offline_summary(*_OPEN, "Ana: we'll need a new projector for the spring quiz.", model=model)
    assert summary.decisions == (), summary.decisions
