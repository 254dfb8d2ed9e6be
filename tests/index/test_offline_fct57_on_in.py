"""Where the speaker is or what they are on is a fact the speaker stated (docs/summary-eval.md
"Session 57: facts, …(fct57)"): a plan or a tariff ("I'm on the Traveller Plus plan"), a named
thing's version ("We're on Kotlin 1.9"), a salary ("I'm on £42k") and a place named with a capital
("I'm in Porto till Sunday"). Until then no reader took "I'm / we're on / in …" at all. Not the task
a stand-up names ("Today I'm on the invoice export"), "I'm in anyway" or a month ("We're in March").
The first test fails at the base."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary


def _said(extraction) -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in extraction.facts}


@pytest.mark.parametrize("model", ["shipped", None])
def test_what_the_speaker_is_on_or_in_is_a_fact(model):
    _, extraction = offline_summary(
        "user: Hi, my roaming isn't working abroad.",
        "assistant: Sorry to hear that. Which plan are you on?",
        "user: I'm on the Traveller Plus plan, and I'm in Porto till Sunday.",
        "assistant: Thanks. Which version does your app build with?",
        "user: We're on Kotlin 1.9. Oh and i'm on £42k, if the upgrade depends on income.", model=model)
    said = _said(extraction)
    assert ("user", "stated", "on the Traveller Plus plan") in said, said
    assert ("user", "stated", "in Porto till Sunday") in said, said
    assert ("user", "stated", "on Kotlin 1.9") in said, said
    assert ("user", "stated", "on £42k") in said, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_task_a_month_or_a_plain_word_is_none(model):
    _, extraction = offline_summary(
        "Priya: Quick stand-up.",
        "Tom: Today I'm on the invoice export, nothing blocking.",
        "Priya: I can do the 11 o'clock, I'm in anyway.",
        "Tom: We're in March already, so the audit is close.", model=model)
    objects = {f.object for f in extraction.facts}
    assert not any(o.startswith(("on ", "in ")) for o in objects), objects
