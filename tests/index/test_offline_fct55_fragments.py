"""A fragment with no subject that opens with its number is a fact of the speaker's
(docs/summary-eval.md "Session 55: facts, a fragment opening with its number (fct55)"): "Twelve
mowers entered so far", "About 40 square metres of turf", "£35 a head", and after "there are":
"There are eighteen cup sets in the shed". A fragment that is a
choice, a yes or a no ("Two weekends, yes"), a sum or a judgement ("Five new at £800 is £4,000",
"Four people doesn't pay the teacher") or a sum after "so" ("Four marshals, so £140 for lunch")
is none, while the fragment before the "so" is read. Every test fails at the base (the second
for its fragment before the "so")."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary


def _said(extraction) -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in extraction.facts}


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_fragment_opening_with_its_number_is_a_fact(model):
    _, extraction = offline_summary(
        "Dougie: Right, where are we with the mower race?",
        "Fiona: Twelve mowers entered so far.",
        "Alan: About 40 square metres of turf.",
        "Fiona: Marshals get lunch, £35 a head.", model=model)
    said = _said(extraction)
    assert ("team", "mowers", "Twelve mowers entered") in said, said
    assert ("team", "metres", "About 40 square metres of turf") in said, said
    assert ("team", "amount", "£35 a head") in said, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_choice_a_sum_or_a_judgement_is_no_fragment_fact(model):
    _, extraction = offline_summary(
        "Dougie: How long do we need the hall for?",
        "Fiona: Two weekends, yes.",
        "Alan: Five new at £800 is £4,000.",
        "Fiona: Four people doesn't pay the caretaker.",
        "Alan: Four marshals, so £140 for lunch.", model=model)
    objects = {f.object for f in extraction.facts}
    assert not objects & {"Two weekends", "Five new at £800 is £4,000", "Four people doesn't pay the caretaker",
                          "£140 for lunch"}, objects
    assert "Four marshals" in objects, objects


@pytest.mark.parametrize("model", ["shipped", None])
def test_there_are_n_things_is_a_fragment_fact(model):
    _, extraction = offline_summary(
        "Maud: Where are we with the cups for the tournament?",
        "Olly: There are eighteen cup sets in the shed.",
        "Maud: And there's £140 in the kitty.",
        "Olly: Good, there are two weeks left, yes.", model=model)
    said = _said(extraction)
    assert ("team", "sets", "eighteen cup sets in the shed") in said, said
    assert ("team", "amount", "£140 in the kitty") in said, said
    assert not any(f.object.startswith("two weeks") for f in extraction.facts), said
