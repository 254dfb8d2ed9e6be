"""Session 55 (ns55): a step's "until then" / "by then" / "since then" is the step's own and stays
whole; a bare tail "then" ("Let's do that then.") is still cut. Both ways the offline backend runs."""

import pytest

from memlane.index.cues import clean
from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def test_clean_keeps_a_then_a_preposition_holds():
    assert clean("I'll keep the spare key until then.") == "I'll keep the spare key until then."
    assert clean("We'll have the quotes by then!") == "We'll have the quotes by then!"
    assert clean("Nothing has moved since then.") == "Nothing has moved since then."
    assert clean("OK, let's book the van then.") == "Let's book the van."


@pytest.mark.parametrize("model", WAYS)
def test_a_step_keeps_until_then(model):
    summary, _ = offline_summary(
        "Ffion: The new boiler goes in on the 14th.",
        "Gareth: I'll keep the old heater in the back room until then.",
        "Ffion: Good.",
        model=model)
    steps = list(summary.next_steps) + list(summary.action_items)
    assert any(s.lower().endswith("back room until then.") for s in steps), steps
    assert not any(s.lower().endswith("until.") for s in steps), steps
