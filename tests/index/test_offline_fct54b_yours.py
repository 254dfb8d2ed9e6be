"""The assistant's clause about the user's own thing is a fact (docs/summary-eval.md "Session 54:
facts, the assistant's about the user's own thing (fct54b)"): "Your policy covers bicycles up to
£1,000", "Your membership renews on 30 November". The assistant's other clauses (a general
statement, a thing of its own) are still no fact. The first test fails at the base."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary


def _said(extraction) -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in extraction.facts}


@pytest.mark.parametrize("model", ["shipped", None])
def test_the_assistant_stating_the_users_thing_is_a_fact(model):
    _, extraction = offline_summary(
        "user: My bike was stolen from outside the gym. Am I covered?",
        "assistant: Your policy covers bicycles away from home up to £1,000. "
        "Your membership renews on 30 November at £48.",
        "user: Thanks, I'll make a claim.", model=model)
    said = _said(extraction)
    assert ("policy", "covers", "covers bicycles away from home up to £1,000") in said, said
    assert ("membership", "renews", "renews on 30 November at £48") in said, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_the_assistants_general_statement_is_no_fact(model):
    _, extraction = offline_summary(
        "user: How long does a passport take?",
        "assistant: A standard renewal takes about 3 weeks. The fast track service costs £178.",
        "user: Thanks.", model=model)
    assert not extraction.facts, extraction.facts
