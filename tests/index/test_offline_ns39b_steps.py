"""Session 39's second-round next-step classes, from heldout35's misses, both ways the offline
backend runs (docs/summary-eval.md, "Session 39: heldout35's next steps (ns39b)"). Looking into
it, written with the question it answers, is in ``test_offline_steps_with_question.py`` with
session 40's like steps (session 41)."""

import pytest

from memlane.bench.summaries.run import scored_steps
from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("said", "step"), [
    ("I'll ring the printers on Monday, their phone line is only open mornings",
     "Jo: I'll ring the printers on Monday."),
    ("I'll book the minibus for Saturday, our usual driver has a wedding",
     "Jo: I'll book the minibus for Saturday."),
    ("I'll message the caretaker tonight, his email address was in the newsletter",
     "Jo: I'll message the caretaker tonight."),
])
def test_a_remark_with_its_own_possessed_subject_after_a_commitment_is_not_the_step(model, said, step):
    summary, _ = offline_summary(
        "Sam: The programme for the spring fair still needs printing and transport.",
        f"Jo: {said}", model=model)
    steps = scored_steps(summary)
    assert step in steps, steps


@pytest.mark.parametrize("model", WAYS)
def test_a_remark_naming_a_key_stays_with_the_step(model):
    summary, _ = offline_summary(
        "Sam: The council still hasn't renewed the street trading consent.",
        "Jo: I'll email licensing and ask, our ref is TRD/4471", model=model)
    steps = scored_steps(summary)
    assert any("TRD/4471" in s for s in steps), steps
