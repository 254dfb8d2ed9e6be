"""A decision becomes a fact ``<who> decided <what>`` only when the sentence it was read from
says who decided or what it is about (session 52, docs/summary-eval.md "Session 52: facts
written wrong (fct52)"): "We decided to …", "Let's …", "I'll …", "They'll …", or a named thing
with a verb of state. A directive alone ("Switch to …") or a choice said without a verb
("Chilli and dal …") is the decision itself: the summary keeps it, the facts do not. A
decision read from the assistant's turn is not tested: the user's request or uptake says whose
it is (session 19)."""

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
def test_a_participants_directive_alone_stays_in_the_summary_only(model):
    summary, extraction = offline_summary(
        "Hana: The newsletter tool keeps eating our images. Mailjet or Buttondown?",
        "Ivo: Switch the newsletter to Buttondown.",
        "Hana: Agreed.", model=model)
    assert any("Buttondown" in d for d in summary.decisions), summary.decisions
    assert not any("Buttondown" in o for o in _decided(extraction)), _decided(extraction)


@pytest.mark.parametrize("model", ["shipped", None])
def test_the_assistants_advice_taken_up_is_still_the_users_decided_fact(model):
    # the user's question and uptake say whose decision it is (session 19): not read for a subject
    _, extraction = offline_summary(
        "user: Should I keep the old kettle or buy the glass one?",
        "assistant: Buy the glass one now, the old one is furring up.",
        "user: Makes sense, I'll buy it today.", model=model)
    assert any("glass" in f.object for f in extraction.facts
               if (f.subject, f.predicate) == ("user", "decided")), extraction.facts
