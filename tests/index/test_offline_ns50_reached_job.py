"""Session 50 (ns50): a step of reaching someone by a pronoun ("I'll ring him on Monday.") says whom
when the sentence before names them by their job ("the plumber") or by a name opening the sentence
after "The" ("The Rotary Club of Kendal might help"), both ways the offline backend runs
(``_Reader._named_before``, read by ``_Reader.reached_named``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_the_step_names_whom_by_their_job(model):
    steps = _steps(model, "Dee: The boiler in the scout hut is leaking again.",
                   "Raj: The plumber fitted it in 2019, it should still be under warranty.",
                   "Dee: I'll ring him on Monday.", "Raj: Good.")
    assert "Dee: Ring the plumber on Monday." in steps


@pytest.mark.parametrize("model", WAYS)
def test_a_name_opening_with_the_is_whom(model):
    steps = _steps(model, "Dee: The new tent costs £600 and we have £250.",
                   "Raj: The Rotary Club of Kendal gave us a grant last year. I'll write to them.",
                   "Dee: Thanks.")
    assert "Raj: Write to Rotary Club of Kendal." in steps


@pytest.mark.parametrize("model", WAYS)
def test_a_thing_is_not_whom(model):
    steps = _steps(model, "Dee: The boiler in the scout hut is leaking again.",
                   "Raj: The boiler is under warranty, Jo said.",
                   "Dee: I'll ring them on Monday.", "Raj: Good.")
    assert not any("Ring the boiler" in s for s in steps)
