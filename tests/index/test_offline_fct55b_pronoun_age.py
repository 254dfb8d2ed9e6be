"""An age said with "he" or "she" is a fact of the person the pronoun means (docs/summary-eval.md
"Session 55: facts, the wrong ones classed and the pronoun's age (fct55b)"): the last person
named before it, a name ("Rosie wants a paper round. She's 13") or "my <relative>" not of the
other sex ("My grandson's keen to help, he's 15": the grandson). No fact when no one is
named, when the last one named is someone else's relative ("her son", whose is unknown), when
the name is a thing's ("the Harlow account"), or when the number is a size or a time ("he's six
foot two", "she's 5 minutes away"). The first two tests fail at the base; the third holds
what the rule must not write."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary


def _ages(*turns: str, model) -> set[tuple[str, str, str]]:
    _, extraction = offline_summary(*turns, model=model)
    return {(f.subject, f.predicate, f.object) for f in extraction.facts
            if f.predicate in ("age", "turns")}


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_pronouns_age_is_the_named_persons(model):
    said = _ages(
        "user: Rosie has asked for a paper round on Saturdays. She's 13 and saving for a bike.",
        "assistant: At 13 she can work two hours on a Saturday in most areas.",
        "user: My grandson's keen to help at the allotment too, he's 15.",
        "assistant: That's fine with a parent's consent.", model=model)
    assert ("Rosie", "age", "13") in said, said
    assert ("user's grandson", "age", "15") in said, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_pronoun_that_turns_and_a_named_speakers_relative(model):
    said = _ages(
        "Kerry: My daughter wants her ears pierced, she's 14 months? No, sorry, she's 14 years old.",
        "Dev: Kids grow up fast.",
        "Kerry: And Arlo wants a phone. He turns 11 in May.", model=model)
    assert ("Kerry's daughter", "age", "14 years old") in said, said
    assert ("Arlo", "turns", "turns 11 in May") in said, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_no_age_when_the_pronoun_means_no_one_named(model):
    said = _ages(
        "user: He's 12 and already taller than me.",
        "assistant: Growth spurts vary a lot.",
        "user: We moved the Harlow account over in June. She's 40 now, my cousin's friend, and her son is keen, he's 16.",
        "assistant: Noted.",
        "user: My brother called, he's six foot two and he's 5 minutes away.", model=model)
    assert not said, said
