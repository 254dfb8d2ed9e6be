"""Session 31's next-step class, from heldout27's misses, both ways the offline backend runs: a
guess after a commitment with its subject dropped ("I'll look at why CI breaks on Node 18, might
just be one package") is a remark, not part of the step (``cues._STEP_ASIDE``), as "…, it's …"
after a step has been since session 16; a commitment put off to no time ("I'll look into that
another time", "one of these days") is no step, whether the patterns or the sentence model read it
(``cues._NO_TIME``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_STEP = [("I'll look at why CI breaks on Node 18", "node 18"),
         ("I'll ring the garage about the brake light tomorrow", "garage"),
         ("I'll check the boiler pressure gauge tonight", "boiler")]
_GUESS = ["might just be one package", "may be nothing", "could well be the cache", "might be a loose wire",
          "could only be the fuse"]


def _steps(summary):
    return [s.lower() for s in (*summary.next_steps, *summary.action_items)]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(step=st.sampled_from(_STEP), guess=st.sampled_from(_GUESS))
def test_a_guess_after_a_commitment_is_no_part_of_the_step(model, step, guess):
    said, key = step
    summary, _ = offline_summary(
        "Ama: something's been off all week and nobody has looked at it",
        "Jonas: I can chase the supplier about the replacement parts",
        f"Felix: and {said}, {guess}",
        "Ama: thanks both",
        model=model)
    steps = _steps(summary)
    mine = [s for s in steps if key in s]
    assert mine, steps
    assert not any(guess.split()[-1] in s for s in mine), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_step_going_on_with_maybe_still_says_what(model):
    summary, _ = offline_summary(
        "Ama: the flyers for Saturday still aren't printed",
        "Felix: I'll print the flyers at the library tomorrow, maybe the posters too",
        "Ama: great",
        model=model)
    assert any("posters" in s for s in _steps(summary)), _steps(summary)


@pytest.mark.parametrize("model", WAYS)
def test_heldout27_dependabot_step_ends_before_the_guess(model):
    conv = next(c for c in load_set("heldout27") if c.id == "h27-dependabot-backlog")
    steps = _steps(OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0])
    assert any("node 18" in s and "package" not in s for s in steps), steps


_PUT_OFF = ["another time", "some other time", "another day", "one of these days"]
_LATER = [("look into the carer's allowance", "carer"), ("sort out the loft insulation", "insulation"),
          ("ring the pension helpline", "pension")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(later=st.sampled_from(_LATER), when=st.sampled_from(_PUT_OFF), stop=st.sampled_from(["", ".", "!"]))
def test_a_commitment_put_off_to_no_time_is_no_step(model, later, when, stop):
    what, key = later
    summary, _ = offline_summary(
        "user: my mum's been falling at night and I worry about her on the stairs",
        "assistant: Keep a diary for a week of every time she needs help; it gives you concrete examples.",
        "user: ok. I'll start the diary this week",
        "assistant: You might also be able to claim Carer's Allowance, depending on your hours.",
        f"user: I work full-time. I'll {what} {when}{stop}",
        model=model)
    steps = _steps(summary)
    assert any("diary" in s for s in steps), steps
    assert not any(key in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_step_naming_another_time_slot_is_still_a_step(model):
    summary, _ = offline_summary(
        "user: the dentist cancelled my Tuesday appointment",
        "assistant: They usually hold a few urgent slots each week.",
        "user: I'll ring the surgery tomorrow and book another time slot for the crown",
        model=model)
    assert any("surgery" in s for s in _steps(summary)), _steps(summary)


@pytest.mark.parametrize("model", WAYS)
def test_heldout27_attendance_allowance_writes_no_step_put_off_to_another_time(model):
    conv = next(c for c in load_set("heldout27") if c.id == "h27-attendance-allowance-claim")
    steps = _steps(OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0])
    assert any("diary" in s for s in steps), steps
    assert not any("another time" in s for s in steps), steps
