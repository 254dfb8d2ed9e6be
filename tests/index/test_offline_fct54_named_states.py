"""A named thing's state said with a verb the readers did not know until session 54 (docs/
summary-eval.md "Session 54: facts, the next readers (fct54)"): a bare number right after "is" or
"has" ("The quote is 380,000"), "got", "gave", "dropped" ("The appeal got £300"), and what a
notice or a person "says" or "said" ("The lease says 14 days' notice": the object is what is
said), a size in a unit of two letters ("512 GB"). A number far from its verb is still no bare
amount. All but that test fail at the base."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary


def _said(extraction) -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in extraction.facts}


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_bare_amount_after_is_or_has_is_a_fact(model):
    _, extraction = offline_summary(
        "Nadia: Where are we with the roof money?",
        "Callum: The builder's quote is 38,000. The sinking fund has 24,500.",
        "Nadia: Noted.", model=model)
    said = _said(extraction)
    assert ("builder's quote", "amount", "is 38,000") in said, said
    assert ("sinking fund", "amount", "has 24,500") in said, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_what_a_thing_got_is_a_fact(model):
    _, extraction = offline_summary(
        "Nadia: How did the raffle do?",
        "Callum: The raffle got £300 on the night.",
        "Nadia: Great.", model=model)
    assert ("raffle", "got", "got £300 on the night") in _said(extraction), extraction.facts


@pytest.mark.parametrize("model", ["shipped", None])
def test_what_a_notice_says_is_a_fact_without_the_says(model):
    _, extraction = offline_summary(
        "Nadia: Can we leave the hall early?",
        "Callum: The hire agreement says 14 days' notice. The caretaker said two keys at most.",
        "Nadia: Noted.", model=model)
    said = _said(extraction)
    assert ("hire agreement", "days", "14 days' notice") in said, said
    assert ("caretaker", "keys", "two keys at most") in said, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_far_number_is_no_bare_amount(model):
    _, extraction = offline_summary(
        "Nadia: What's wrong with the lights?",
        "Callum: The desk is showing the wrong patch for universe 2.",
        "Nadia: Noted.", model=model)
    assert not any("universe 2" in f.object for f in extraction.facts), extraction.facts


@pytest.mark.parametrize("model", ["shipped", None])
def test_what_a_thing_gave_and_a_fall_are_facts(model):
    # "gave", "gives", "dropped", "rose", "fell", "went up/down" (session 54): a grant, a change
    _, extraction = offline_summary(
        "Nadia: How are the swimming lessons going?",
        "Callum: The Rotary gave us £250 in March. Sign-ups dropped to 31% after the price rise.",
        "Nadia: Noted.", model=model)
    said = _said(extraction)
    assert ("Rotary", "gave", "gave us £250 in March") in said, said
    assert any(s == "Sign-ups" and o.startswith("dropped to 31%") for s, _, o in said), said


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_size_in_a_two_letter_unit_is_a_fact(model):
    # a unit of two letters counts what the number measures (session 54): "512 GB", "1.4GB", "900km"
    _, extraction = offline_summary(
        "Nadia: Will the video archive fit?",
        "Callum: The backup drive has 512 GB. The wedding film is 1.4GB.",
        "Nadia: Noted.", model=model)
    said = _said(extraction)
    assert ("backup drive", "gb", "has 512 GB") in said, said
    assert ("wedding film", "gb", "is 1.4GB") in said, said
