"""Session 45 (lead, after heldout41 was measured once): a proposal asked with a number and
answered with another number is a counter-proposal, not taken up (docs/summary-eval.md,
"Session 45: the end, heldout41's one decision lost")."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPEN = ("Carys: The quiz night's booked for the 9th, the hall's ours from six.",
         "Emyr: Last time we ran out of raffle tickets by half seven.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_answered_with_another_number_is_not_the_decision(model):
    summary, _ = offline_summary(*_OPEN, "Carys: Tickets then: do we keep them at £2 a strip? Most people bought two.",
                                 "Emyr: Tickets at £3 a strip, people buy the same anyway.",
                                 "Carys: Fine. I'll print the posters tonight.", model=model)
    assert not any("£2" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_whose_number_the_reply_says_again_is_the_decision(model):
    summary, _ = offline_summary(*_OPEN, "Carys: Tickets then: £2 a strip for the raffle? Most people bought two.",
                                 "Emyr: Raffle at £2, it's what the village expects, £2 is fine.",
                                 "Carys: Good. I'll print the posters tonight.", model=model)
    assert any("£2 a strip" in d for d in summary.decisions), summary.decisions
