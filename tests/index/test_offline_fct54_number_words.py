"""A number said in words is read as the digits are (session 54, docs/summary-eval.md "Session
54: facts, the next readers (fct54)"): "The canoe club has twelve kayaks" is the club's count of
kayaks, "We've got nine paddlers" the team's, "The river permit is forty quid" an amount. "One" is
no amount ("the one by the weir"), and a count said with "not" ("I'm not buying three") is no
state of having. The first three tests fail at the base."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary


def _said(extraction) -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in extraction.facts}


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_named_things_count_in_words_is_a_fact(model):
    _, extraction = offline_summary(
        "Ines: Can we run a taster session for the scouts?",
        "Tariq: The canoe club has twelve kayaks and a trailer.",
        "Ines: Great.", model=model)
    assert ("canoe club", "kayaks", "has twelve kayaks") in _said(extraction), extraction.facts


@pytest.mark.parametrize("model", ["shipped", None])
def test_the_speakers_count_in_words_is_a_fact(model):
    _, extraction = offline_summary(
        "Ines: How many can paddle on Saturday?",
        "Tariq: We've got nine paddlers.",
        "Ines: Noted.", model=model)
    assert any(f.predicate == "paddlers" and f.object == "nine paddlers" for f in extraction.facts), \
        extraction.facts


@pytest.mark.parametrize("model", ["shipped", None])
def test_an_amount_in_words_is_a_fact(model):
    _, extraction = offline_summary(
        "Ines: What does the river permit cost?",
        "Tariq: The river permit is forty quid a year.",
        "Ines: Noted.", model=model)
    assert ("river permit", "amount", "is forty quid a year") in _said(extraction), extraction.facts


@pytest.mark.parametrize("model", ["shipped", None])
def test_one_and_a_count_said_with_not_are_no_facts(model):
    _, extraction = offline_summary(
        "Ines: Which slipway do we use?",
        "Tariq: The slipway is the one by the weir. I'm not buying three new paddles.",
        "Ines: Noted.", model=model)
    assert not any("one by the weir" in f.object or "three" in f.object for f in extraction.facts), \
        extraction.facts
