"""Session 41's next-step work, both ways the offline backend runs (docs/summary-eval.md,
"Session 41: next steps and rationale (ns41)")."""

import pytest

from memlane.bench.summaries.run import scored_steps
from memlane.testing import offline_summary

WAYS = [None, "shipped"]

_STEPS = ("Bring the signed lease to the counter, not just a photo of it. And keep the old permit on "
          "the dashboard until the new one arrives, in case a warden comes by.")


def _permit(answer: str, took: str, model: str | None) -> tuple[str, ...]:
    """The steps of a conversation where the user answers ``answer`` with ``took``."""
    summary, _ = offline_summary(
        "user: I've moved flat and need a new residents' parking permit for Dalston Road.",
        "assistant: Hackney issues residents' permits at the Hackney Service Centre or online.",
        "user: online wants a utility bill and I don't have one yet, I'll go in person",
        f"assistant: {answer}", f"user: {took}",
        "assistant: Usually about ten working days, and a temporary permit covers you until then.",
        model=model)
    return scored_steps(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("took", [
    "will do. how long does the new permit usually take to arrive?",
    "ok, will do. how long does the new permit usually take to arrive?",
    "done that before, will do. is the office open on Saturdays?",
])
def test_will_do_takes_up_every_step_of_a_short_answer(model, took):
    steps = _permit(_STEPS, took, model)
    assert "user: Bring the signed lease to the counter, not just a photo of it." in steps, steps
    assert "user: Keep the old permit on the dashboard until the new one arrives." in steps, steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("took", [
    "thanks. how long does the new permit usually take to arrive?",
    "I'll do it online tonight with my council tax number",
])
def test_no_will_do_takes_up_no_step_of_the_answer(model, took):
    steps = _permit(_STEPS, took, model)
    assert not any("old permit on the dashboard" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_will_do_after_a_long_answer_takes_up_nothing_of_it(model):
    answer = ("The fee depends on the car's emissions band. Most applications are approved within ten "
              "working days. The counter is on the ground floor. " + _STEPS)
    steps = _permit(answer, "will do. how long does the new permit usually take to arrive?", model)
    assert not any("old permit on the dashboard" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("said", "first", "second"), [
    ("I'll ring the parish office tomorrow and ask the vicar about the Saturday slot",
     "user: I'll ring the parish office tomorrow.", "user: Ask the vicar about the Saturday slot."),
    ("I'll book the community hall for the 14th, and email the caterers the final numbers",
     "user: I'll book the community hall for the 14th.", "user: Email the caterers the final numbers."),
])
def test_a_second_step_that_reaches_someone_is_its_own_step(model, said, first, second):
    summary, _ = offline_summary(
        "user: My parents' ruby wedding is in June and I'm organising the party.",
        "assistant: Congratulations! Do you have a venue and a date yet?",
        f"user: {said}", model=model)
    steps = scored_steps(summary)
    assert first in steps and second in steps, steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", [
    "I'll do ten minutes of scales every morning and book a monthly lesson with a teacher",
    "I'll email the caterers the final numbers and pay it on Friday",
])
def test_two_choices_or_a_second_step_without_its_object_stay_one_step(model, said):
    summary, _ = offline_summary(
        "user: My parents' ruby wedding is in June and I'm organising the party.",
        "assistant: Congratulations! Do you have a venue and a date yet?",
        f"user: {said}", model=model)
    steps = scored_steps(summary)
    assert not any(s.startswith(("user: Book a monthly", "user: Pay it")) for s in steps), steps
