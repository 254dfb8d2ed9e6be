"""Session 57 (ns57): a step that says again what a step before it said is written once, both ways
the offline backend runs (``_steps_once`` in ``memlane.index.offline``): the speaker's own "I'll …"
is kept before a step read from someone's request, an owner's step before an unowned one, and of two
others the first; two steps that share a few words stay."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_the_unowned_step_gives_way_to_the_owners(model):
    summary, _ = offline_summary(
        "Tomas: the boiler made that banging noise again last night",
        "Priya: someone needs to tell the landlord about the boiler noise, I keep forgetting",
        "Tomas: I'll tell the landlord about the boiler noise tonight", model=model)
    steps = [*summary.next_steps, *summary.action_items]
    assert [s for s in steps if "landlord" in s] == ["Tomas: I'll tell the landlord about the boiler noise tonight"]


@pytest.mark.parametrize("model", WAYS)
def test_a_request_taken_up_is_one_step(model):
    summary, _ = offline_summary(
        "Greta: the allotment committee meets in March",
        "Sam: I'll ring the water board Monday and ask. can you ask the committee for a second water butt?",
        "Greta: yes, I'll ring them tomorrow. but let's check the shed first", model=model)
    assert [s for s in summary.action_items if "water butt" in s] == [
        "Greta: Ask the committee for a second water butt tomorrow"]
    assert any("water board" in s for s in summary.action_items), summary.action_items


@pytest.mark.parametrize("model", WAYS)
def test_two_steps_sharing_a_few_words_stay(model):
    summary, _ = offline_summary(
        "Tomas: the boiler made that banging noise again last night",
        "Tomas: I'll ring the plumber about the boiler on Monday",
        "Priya: and I'll email the landlord about the boiler on Monday", model=model)
    steps = [*summary.next_steps, *summary.action_items]
    assert any("plumber" in s for s in steps) and any("landlord" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_the_speakers_own_commitment_is_kept_before_the_request(model):
    summary, _ = offline_summary(
        "user: My parcel arrived with the lamp smashed. Can you open a claim?",
        "assistant: I've opened claim CL-5521 for the lamp. Please email a photo of the damaged box to the claims team.",
        "user: ok, I'll email the photo of the box tonight", model=model)
    assert list(summary.action_items) == ["user: I'll email the photo of the box tonight"], summary.action_items
