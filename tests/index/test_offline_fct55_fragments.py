"""A fragment with no subject that opens with its number is a fact the speaker stated
(docs/summary-eval.md "Session 55: facts, a fragment opening with its number (fct55)"): "Twelve
mowers entered so far", "About 40 square metres of turf", "£35 a head", and after "there are":
"There are eighteen cup sets in the shed". A fragment that is a
choice, a yes or a no ("Two weekends, yes"), a sum or a judgement ("Five new at £800 is £4,000",
"Four people doesn't pay the teacher") or a sum after "so" ("Four marshals, so £140 for lunch")
is none, while the fragment before the "so" is read. Every test fails at the base (the second
for its fragment before the "so"). The fact is ``(speaker, "stated", fragment)``: multi-valued, so
one speaker's "5 years already" is no older value of another's "Seven years now" (at the merge,
such fragments keyed ``(team, years)`` superseded each other and demoted their turns in search)."""

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
    assert ("Fiona", "stated", "Twelve mowers entered") in said, said
    assert ("Alan", "stated", "About 40 square metres of turf") in said, said
    assert ("Fiona", "stated", "£35 a head") in said, said


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
    assert ("Olly", "stated", "eighteen cup sets in the shed") in said, said
    assert ("Maud", "stated", "£140 in the kitty") in said, said
    assert not any(f.object.startswith("two weeks") for f in extraction.facts), said


def test_two_speakers_fragments_are_both_current_facts(tmp_path):
    """Stored: each speaker's fragment stays current, and a search still finds the earlier one's
    turn (with one key per counted word, the later fragment superseded the earlier and the
    turn that said it was demoted as a superseded truth)."""
    from datetime import datetime, timezone

    from memlane.testing import add_sessions, memory

    now = datetime(2026, 6, 1, tzinfo=timezone.utc)
    mem = memory(tmp_path / "m.db")
    try:
        add_sessions(mem, [(30, [("Nora", "How long have you and Raj been married?"),
                                 ("Esme", "Five years already, time flies."),
                                 ("Nora", "Lovely. I found the old photos from the wedding.")]),
                           (2, [("Esme", "How long have you had the allotment?"),
                                ("Nora", "Seven years now."),
                                ("Esme", "It looks wonderful this spring.")])],
                     now=now, speakers=True)
        facts = {(f.subject, f.predicate, f.object) for f in mem.facts("chat")}
        assert ("Esme", "stated", "Five years already") in facts, facts
        assert ("Nora", "stated", "Seven years now") in facts, facts
        hits = mem.search("how long have Esme and Raj been married", scope="chat", k=3, kinds=["turn"])
        assert any("Five years already" in h.item.text for h in hits), [h.item.text for h in hits]
    finally:
        mem.close()
