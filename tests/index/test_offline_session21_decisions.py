"""Session 21: open questions a peer leans yes on and puts off (the offline backend, both ways
it runs: the patterns alone and with the shipped sentence model). Every conversation is
written for these tests."""

import pytest

from memlane.bench.summaries.score import dice, tokens
from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _summary(turns, model):
    return offline_summary(*(f"{who}: {text}" for who, text in turns), model=model)[0]


def _has(items, text):
    """Whether an item of ``items`` matches ``text`` by the bench's rule (Dice >= 0.5)."""
    return any(dice(tokens(x), tokens(text)) >= 0.5 for x in items)


# A question a peer answers "probably / maybe / love that…, but…" stays open.


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", [
    "Probably, but that's a bigger conversation with the board.",
    "Maybe, but the hall is booked most evenings till June.",
    "Love that, but let's get the kit installed before anything else.",
    "Good idea in theory, but nobody has the time this month.",
])
def test_a_question_a_peer_leans_yes_on_and_puts_off_stays_open(model, answer):
    summary = _summary([
        ("Ines", "The defibrillator arrives on Monday and Gareth fits it on Wednesday."),
        ("Ines", "Should we run a free first aid evening for the village as well?"),
        ("Owen", answer),
    ], model)
    assert _has(summary.open_questions, "Should we run a free first aid evening for the village?"), summary


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", [
    "Yes, let's book the village hall for it.",
    "Probably the village hall, it has the projector.",
])
def test_a_question_answered_outright_is_not_left_open(model, answer):
    summary = _summary([
        ("Ines", "The defibrillator arrives on Monday and Gareth fits it on Wednesday."),
        ("Ines", "Should we run a free first aid evening for the village as well?"),
        ("Owen", answer),
    ], model)
    assert not _has(summary.open_questions, "Should we run a free first aid evening for the village?"), summary
