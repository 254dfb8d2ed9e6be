"""Session 41's rationale work, both ways the offline backend runs (docs/summary-eval.md,
"Session 41: next steps and rationale (ns41)"): the assistant's statement in a short answer the
user decides on at once, speaking of what is decided, is why."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]

_OPENING = "user: Our bathroom extractor fan is rattling and the bathroom mirror stays fogged for ages."
_WHY = "A new bearing costs less than a new fan, but on a fan older than ten years the motor tends to fail next."


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("decided", ["Then let's replace the whole fan.", "We decided to replace the whole fan."])
def test_the_answer_decided_on_gives_the_reason(model, decided):
    summary, _ = offline_summary(
        _OPENING, f"assistant: A rattle usually means the bearing is going. {_WHY}", f"user: {decided}",
        model=model)
    assert summary.decisions == ("Replace the whole fan.",), summary.decisions
    assert _WHY in summary.rationale, summary.rationale


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", [
    "You could also fit a humidistat fan instead of the old one.",  # an option offered
    "Fit the new fan on the same duct, the old one is fine.",  # what to do
    "A humidistat switches itself on when the air is damp.",  # nothing of what is decided
])
def test_offers_steps_and_other_matters_are_no_reason(model, said):
    summary, _ = offline_summary(
        _OPENING, f"assistant: A rattle usually means the bearing is going. {said}",
        "user: Then let's replace the whole fan.", model=model)
    assert summary.decisions == ("Replace the whole fan.",), summary.decisions
    assert said not in summary.rationale, summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_an_answer_decided_on_two_turns_later_gives_no_such_reason(model):
    summary, _ = offline_summary(
        _OPENING, f"assistant: A rattle usually means the bearing is going. {_WHY}",
        "user: How long does fitting one take?", "assistant: About an hour for a like-for-like swap.",
        "user: Then let's replace the whole fan.", model=model)
    assert _WHY not in summary.rationale, summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_an_answer_leaving_the_choice_open_gives_no_reason(model):
    summary, _ = offline_summary(
        _OPENING, f"assistant: {_WHY} Either option is fine for a bathroom that size.",
        "user: Then let's replace the whole fan.", model=model)
    assert _WHY not in summary.rationale, summary.rationale
