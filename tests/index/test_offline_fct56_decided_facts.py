"""A decision read from a participant's turn is a fact only where its sentence states it
(docs/summary-eval.md "Session 56: facts, the decision-facts that plan (fct56)"): "Let's book
the rec ground…", "We'll book…" and "Then we repaint…" plan or conclude a decision, which the
summary's decisions hold, and write no ``decided`` fact; a choice of an option ("I'll go with the
bunting") and a decision stated ("We book the rec ground…") still do. Both tests fail at the base
(the first for its "Let's" and "Then we", the second for its "We'll")."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary

_FETE = ("Nadia: Right, the summer fete. Where do we hold it and what do we need?",
         "Owen: The church hall or the rec ground, the rec is bigger.")


def _decided(extraction) -> set[str]:
    return {f.object for f in extraction.facts if f.predicate == "decided"}


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_plan_or_a_conclusion_is_no_decided_fact_and_a_choice_is_one(model):
    summary, extraction = offline_summary(
        *_FETE,
        "Nadia: Let's book the rec ground for Saturday the 14th.",
        "Priya: Bunting or flags for the stalls?",
        "Owen: I'll go with the bunting, we have loads from the jubilee.",
        "Priya: Then we repaint the tombola stand in May.", model=model)
    assert _decided(extraction) == {"Go with the bunting"}
    # the decisions themselves stay in the summary
    assert "Book the rec ground for Saturday the 14th." in summary.decisions
    assert "Repaint the tombola stand in May." in summary.decisions


@pytest.mark.parametrize("model", ["shipped", None])
def test_we_will_plans_and_we_states(model):
    planned, planned_facts = offline_summary(
        *_FETE, "Priya: We'll book the rec ground for Saturday the 14th.", model=model)
    assert planned.decisions == ("Book the rec ground for Saturday the 14th.",)
    assert not _decided(planned_facts)
    stated, stated_facts = offline_summary(
        *_FETE, "Priya: We book the rec ground for Saturday the 14th.", model=model)
    assert ("team", "decided", "Book the rec ground for Saturday the 14th") in {
        (f.subject, f.predicate, f.object) for f in stated_facts.facts}
    assert stated.decisions == planned.decisions


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_preference_in_a_later_clause_is_a_fact_though_its_sentence_opens_with_a_plan(model):
    """The issue's stated preference: judged by its own clause, not by the "Let's" its sentence
    opens with (the lead's merge, session 56)."""
    _, extraction = offline_summary(
        "user: I want to get back into running. How often should I go?",
        "assistant: Three runs a week is a good start: two easy ones and a longer one at the weekend.",
        "user: Let's go with three runs a week, and I prefer running in the morning before work.",
        model=model)
    assert any(f.predicate == "decided" and f.object.startswith("I prefer running in the morning")
               for f in extraction.facts)
