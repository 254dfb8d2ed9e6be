"""Session 53 (ns53): a next step whose words, its pronouns and particles apart, hold one word at
most ("Sign it.", "I'll message them.") names nothing a reader could act on and is taken out, both
ways the offline backend runs; a step naming its object stays (``_Reader.step_names_nothing``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_a_step_naming_nothing_is_taken_out(model):
    steps = _steps(model, "Carys: The hall lease came back from the council this morning.",
                   "Idris: Siân, can you read the lease tonight?", "Siân: Yes, I'll send my notes to Carys tomorrow.",
                   "Carys: Idris, sign it.", "Idris: I'll message them.")
    assert any("send my notes to carys" in s.lower() for s in steps), steps
    assert not any(s.lower().rstrip(".").endswith(("sign it", "message them")) for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_step_naming_its_object_stays(model):
    steps = _steps(model, "Carys: The hall lease came back from the council this morning.",
                   "Carys: Idris, sign the lease for the hall.", "Idris: Will do.")
    assert any(s.startswith("Idris: ") and "sign the lease" in s.lower() for s in steps), steps
