"""A decision becomes a fact ``<who> decided <what>`` only when the sentence it was read from
says who decided or what it is about (session 52, docs/summary-eval.md "Session 52: facts
written wrong (fct52)"): "We decided to …", "Let's …", "I'll …", "They'll …", or a named thing
with a verb of state. A directive alone ("Switch to …") or a choice said without a verb
("Chilli and dal …") is the decision itself: the summary keeps it, the facts do not."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary


def _decided(extraction) -> set[str]:
    return {f.object for f in extraction.facts if f.predicate == "decided"}


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_decision_someone_says_is_a_fact(model):
    summary, extraction = offline_summary(
        "Priya: Which database for the invoicing service?",
        "Tomasz: We decided to use SQLite for the invoicing service.",
        "Priya: Fine by me.", model=model)
    assert any("SQLite" in d for d in summary.decisions)
    assert any("SQLite" in o for o in _decided(extraction))
    facts = {(f.subject, f.predicate) for f in extraction.facts if "SQLite" in f.object}
    assert ("team", "decided") in facts


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_choice_said_without_a_subject_stays_in_the_summary_only(model):
    summary, extraction = offline_summary(
        "Marta: What do we cook for the shelter on Sunday, soup or curry?",
        "Olek: Curry and rice this Sunday.",
        "Marta: Great.", model=model)
    assert any("Curry" in d for d in summary.decisions), summary.decisions
    assert not any("Curry" in o for o in _decided(extraction)), _decided(extraction)


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_directive_alone_stays_in_the_summary_only(model):
    summary, extraction = offline_summary(
        "user: Should I keep the old kettle or buy the glass one?",
        "assistant: Buy the glass one now, the old one is furring up.",
        "user: Ok, done.", model=model)
    said = " ".join(summary.decisions)
    assert "glass" in said, summary.decisions
    assert not any("glass" in o for o in _decided(extraction)), _decided(extraction)
