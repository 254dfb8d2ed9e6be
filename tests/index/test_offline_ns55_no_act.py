"""Session 55 (ns55): a commitment that is no act of its own — a state ("I'll be …") or digging out
what an act needs ("I'll dig out …") — is no next step, both ways the offline backend runs
(``_Reader.no_act``); the act beside it stays."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_a_state_is_no_step(model):
    steps = _steps(model, "Elin: The allotment open day is on Saturday the 9th.",
                   "Rhodri: I'll be the one in the yellow wellies at the gate.",
                   "Elin: Good. I'll print the plot map for the gate tonight.")
    assert any("plot map" in s.lower() for s in steps), steps
    assert not any("wellies" in s.lower() for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_digging_out_is_no_step(model):
    steps = _steps(model, "Elin: The water board wants the old meter readings.",
                   "Rhodri: I'll dig out the old readings from the shed tonight.",
                   "Elin: Thanks. I'll send the water board the claim form on Monday.")
    assert any("claim form" in s.lower() for s in steps), steps
    assert not any("dig out" in s.lower() for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_commitment_held_for_now_is_no_step(model):
    steps = _steps(model, "Elin: The shed roof is leaking onto the seed trays again.",
                   "Rhodri: I'll leave the old felt on for now.",
                   "Elin: Fine. I'll buy a new roll of felt at the builders' merchant on Saturday.")
    assert any("roll of felt" in s.lower() for s in steps), steps
    assert not any("for now" in s.lower() for s in steps), steps
