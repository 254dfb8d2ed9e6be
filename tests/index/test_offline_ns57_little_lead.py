"""Session 57 (ns57): a step opening on a few words that say little ("Noted, I'll …", "No idea, I'll …")
is written from the commitment on, both ways the offline backend runs (``_Reader.little_lead``);
a lead that carries the act's matter stays."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_an_assent_before_the_commitment_is_cut(model):
    steps = _steps(model, "Dom: the revolve jammed again in act two tonight",
                   "Priya: someone should tell the cast before Thursday",
                   "Dom: Noted, I'll tell the cast.")
    assert "Dom: I'll tell the cast." in steps, steps
    assert not any("Noted" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_lead_with_the_acts_matter_stays(model):
    steps = _steps(model, "Mira: we need the new logo files for the print run",
                   "Ben: Colours only, I'll have a first version by the 12th")
    assert any(s.startswith("Ben: Colours only") for s in steps), steps
