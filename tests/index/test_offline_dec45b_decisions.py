"""Session 45 (dec45b), decisions (docs/summary-eval.md, "Session 45: heldout41's decisions read
(dec45b)"): the speaker's own "I'll <choose-verb> …" set for one time ahead is a step, not a
decision; the same choice said without a day, or as a standing choice, stays a decision."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_KITE = ("Owain: My nephew wants a kite for his birthday. Delta or diamond?",
         "Bethan: A delta flies in lighter wind, and it is easier for a nine-year-old.")


@pytest.mark.parametrize("model", _WAYS)
def test_my_choice_set_for_a_day_ahead_is_a_step(model):
    summary, _ = offline_summary(*_KITE, "Owain: Delta then. I'll try the kite shop on the harbour on Saturday "
                                 "so he can pick the colour.", model=model)
    assert not any("kite shop" in d for d in summary.decisions), summary.decisions
    assert any("kite shop on the harbour on Saturday" in s for s in summary.action_items), summary.action_items


@pytest.mark.parametrize("model", _WAYS)
def test_my_choice_without_a_day_stays_a_decision(model):
    summary, _ = offline_summary(*_KITE, "Owain: I'll go with the delta kite.", model=model)
    assert any("delta kite" in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_my_standing_choice_from_now_on_stays_a_decision(model):
    summary, _ = offline_summary("Carys: The milk keeps running out before Friday.",
                                 "Idris: The corner shop delivers twice a week.",
                                 "Carys: I'll switch to the corner shop's delivery from now on.", model=model)
    assert any("corner shop" in d for d in summary.decisions), summary.decisions
