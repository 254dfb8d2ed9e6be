"""Session 56 (ns56): a commitment that reaches someone and goes on to "ask about / for / if /
whether …" naming no one else is one step — the asking is done in the same call or message
(``_ASKS_THE_REACHED``, read where ``second_step`` and ``second_step_dated`` split a commitment
in two) — both ways the offline backend runs; a second half that asks someone it names is
still a step of its own."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_ringing_and_asking_about_is_one_step(model):
    steps = _steps(model, "user: My old surgery says I have to register somewhere new.",
                   "assistant: Until then, your old practice can usually issue one more prescription.",
                   "user: I'll ring the Hillside practice tomorrow morning and ask about the waiting list.")
    assert any("hillside" in s.lower() and "waiting list" in s.lower() for s in steps), steps
    assert not any(s.split(": ", 1)[-1].lower().startswith("ask about") for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_emailing_and_asking_if_is_one_step(model):
    steps = _steps(model, "user: The landlord won't pay for a car charger on his own.",
                   "assistant: Landlords often agree to share the cost when it adds value to the flat.",
                   "user: I'll email the landlord, Mr Abara, and ask if he'd go halves.")
    assert any("abara" in s.lower() and "halves" in s.lower() for s in steps), steps
    assert not any(s.split(": ", 1)[-1].lower().startswith("ask if") for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_asking_someone_named_is_still_a_second_step(model):
    steps = _steps(model, "user: The headstone needs the inscription agreed and a proof of the stone.",
                   "assistant: The vicar signs off the wording; the mason sends a proof.",
                   "user: I'll ring Rev. Moore tomorrow and ask Hollis for a York stone proof.")
    assert any(s.split(": ", 1)[-1].lower().startswith("ask hollis") for s in steps), steps
