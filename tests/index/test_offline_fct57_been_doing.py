"""How long the speaker has been doing something is a fact the speaker stated (docs/summary-eval.md
"Session 57: facts, …(fct57)"): "I've been learning Welsh for six months", "I've been playing 3
months". Until then no reader took "I've been …ing … for N months". A thought or a wish ("I've been
thinking about it for a week") and a question are none. The first test fails at the base."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary


@pytest.mark.parametrize("model", ["shipped", None])
def test_how_long_the_speaker_has_been_doing_it_is_a_fact(model):
    _, extraction = offline_summary(
        "user: Which ukulele strings should I get?",
        "assistant: How long have you played?",
        "user: I've been playing 3 months.",
        "user: I've been learning Welsh for six months too, on the bus.", model=model)
    said = {(f.subject, f.predicate, f.object) for f in extraction.facts}
    assert ("user", "stated", "playing 3 months") in said, said
    assert ("user", "stated", "learning Welsh for six months") in said, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_thought_or_a_question_is_none(model):
    _, extraction = offline_summary(
        "user: I've been thinking about a new bike for a week.",
        "assistant: What kind?",
        "user: Have you been riding for two years?", model=model)
    objects = {f.object for f in extraction.facts}
    assert not any("week" in o or "two years" in o for o in objects), objects
