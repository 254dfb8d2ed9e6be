"""Session 43: a commitment going on to a second step with its own verb, either half set for a
day ("… today and raise …", "… by Friday and draft …"), is two steps of its speaker even when
neither reaches someone, both ways the offline backend runs (``_Reader.second_step_dated``,
``cues._DATED``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_a_dated_commitment_with_a_second_verb_is_two_steps_of_the_user(model):
    steps = _steps(
        model, "user: The backup job on the build box keeps filling the disk overnight.",
        "assistant: Rotate the archives after seven days and move them to the NAS share.",
        "user: Good. I'll add the rotation to scripts/backup.sh tonight and file "
        "INFRA-118 for the storage team about the NAS quota.")
    assert any("File INFRA-118 for the storage team" in s for s in steps), steps
    assert not any("add the rotation" in s.lower() and "INFRA-118" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_among_people_the_second_half_keeps_its_speaker(model):
    steps = _steps(model, "Tomas: The minibus for the choir trip needs a named contact.",
                   "Aisha: And the hire firm wants the deposit form back soon.",
                   "Tomas: I'll be the contact person for the hire company since I booked the coach last year, "
                   "and I'll send the deposit form off by the 14th.",
                   "Aisha: Thanks.")
    assert any(s.startswith("Tomas: Send the deposit form off by the 14th") for s in steps), steps
