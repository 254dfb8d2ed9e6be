"""Session 55 (ns55): what someone outside the conversation will do ("Gran will ask about the
tickets.") is no step of the speakers', both ways the offline backend runs (``_Reader.outsider_will``);
a participant's "<Name> will …" stays theirs."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_what_an_outsider_will_do_is_no_step(model):
    steps = _steps(model, "Iwan: The panto seats for the 20th go on sale on Monday.",
                   "Nia: Gran will ask about the wheelchair space.",
                   "Iwan: OK. I'll book six seats on Monday morning.")
    assert any("six seats" in s.lower() for s in steps), steps
    assert not any(s.startswith("Gran:") for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_what_a_participant_will_do_stays_a_step(model):
    steps = _steps(model, "Iwan: The panto seats for the 20th go on sale on Monday.",
                   "Nia: I'll book six seats on Monday morning, and Iwan will ring the theatre about the wheelchair space.",
                   "Iwan: OK.")
    assert any(s.startswith("Iwan:") and "ring the theatre" in s.lower() for s in steps), steps
