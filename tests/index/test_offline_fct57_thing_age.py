"""The age of the thing said before, "it's N years old", is a fact the speaker stated
(docs/summary-eval.md "Session 57: facts, …(fct57)"): "the boiler is the worry, it's 19 years
old", "It's only 2 years old". Until then "it" named no thing a reader took, so the number went
unread. "That's" sums and is none ("That's ten years old stock"), nor a distance ("it's 40 minutes
away"). The first test fails at the base."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary


@pytest.mark.parametrize("model", ["shipped", None])
def test_the_age_of_the_thing_said_before_is_a_fact(model):
    _, extraction = offline_summary(
        "user: We're redoing the bathroom this spring.",
        "assistant: What would you like to keep?",
        "user: Keep the bath and fix the boiler, it's 19 years old.",
        "user: The sofa can go, it's only 2 years old.", model=model)
    said = {(f.subject, f.predicate, f.object) for f in extraction.facts}
    assert ("user", "stated", "19 years old") in said, said
    assert ("user", "stated", "only 2 years old") in said, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_sum_or_a_distance_is_no_age(model):
    _, extraction = offline_summary(
        "user: Should we clear the shed?",
        "assistant: What is in it?",
        "user: That's ten years old stock mostly.",
        "user: The tip is open, it's 40 minutes away.", model=model)
    objects = {f.object for f in extraction.facts}
    assert not any("ten years old" in o or "40 minutes" in o for o in objects), objects
