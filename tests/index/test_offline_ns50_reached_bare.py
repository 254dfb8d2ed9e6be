"""Session 50 (ns50): a step put as a bare imperative of reaching someone by a pronoun ("Ring her
tomorrow about …") says whom by the name said before it, as rn44's "I'll ring her" does, both ways
the offline backend runs; not a day ("Tuesdays") nor a place after "at the" ("at the Drovers")
(``_Reader.reached_named``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_a_bare_imperative_names_whom(model):
    steps = _steps(model, "Dee: We need the hall for the jumble sale on the 14th.",
                   "Raj: Nadia Kerr does the hall bookings now.",
                   "Dee: Raj, ring her tomorrow about the Saturday slot.", "Raj: Will do.")
    assert any("Ring Nadia Kerr tomorrow about the Saturday slot" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_place_after_at_the_is_not_whom(model):
    steps = _steps(model, "Dee: Could we meet at the Red Lion after?",
                   "Raj: Ask her about the Saturday slot tomorrow.", "Dee: Fine.")
    assert not any("Red Lion" in s and s.split(": ")[-1].startswith("Ask") for s in steps), steps
