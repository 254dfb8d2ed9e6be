"""Session 48 (rn48), next steps (docs/summary-eval.md, "Session 48: heldout43's rationale and
next steps read (rn48)"): a share-out after the speaker's own "I'll …" ("I'll …, Tariq prints the
posters, and Bea collects the keys") gives each named speaker their own step; a name that does not
speak is left in the speaker's step."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_TURNS = ("Nell: The allotment open day is on the 9th. We need posters, the shed keys and a float.",
          "Tariq: I can do posters, the library printer is free.",
          "Bea: And I live next to the warden.")


@pytest.mark.parametrize("model", _WAYS)
def test_each_named_speaker_gets_their_part(model):
    summary, _ = offline_summary(
        *_TURNS, "Nell: Great. I'll get the float from the bank, Tariq prints the posters, and Bea collects the shed keys.",
        model=model)
    steps = (*summary.next_steps, *summary.action_items)
    assert "Nell: I'll get the float from the bank." in steps, steps
    assert "Tariq: Print the posters." in steps, steps
    assert "Bea: Collect the shed keys." in steps, steps


@pytest.mark.parametrize("model", _WAYS)
def test_a_name_that_does_not_speak_stays_in_the_step(model):
    summary, _ = offline_summary(
        *_TURNS, "Nell: Great. I'll get the float from the bank, Gerry prints the posters.", model=model)
    steps = (*summary.next_steps, *summary.action_items)
    assert not any(s.startswith("Gerry:") for s in steps), steps
