"""Session 56 (rat56), rationale (docs/summary-eval.md, "Session 56: rationale, five more screens
and a screen read again (rat56)"), both ways: a remark said beside a decision and its reason is no
rationale when it says "till the …" (``_Reader.reason_till_then``), opens on "Only" but not on a
count (``_Reader.reason_only_so``), opens on an exclamation (``_Reader.reason_exclaimed``), ends on
"only" (``_Reader.reason_only_end``) or says what is "common" or "standard"
(``_Reader.reason_common``); the reason beside it stands. Patterns alone, not knowing is no reason
in a conversation that decides nothing (``_Reader.reason_not_known`` read again, last)."""

import pytest

from memlane.testing import offline_summary

REASON = "The pub has a quiet back room and it costs nothing to book on a weeknight."


def _social(remark):
    return ("Nadia: Where should the book club meet for the Christmas social?",
            f"Owen: {remark}",
            f"Nadia: {REASON}",
            "Owen: Let's book the back room at the Fox for the social.")


@pytest.mark.parametrize("model", ["shipped", None])
@pytest.mark.parametrize("remark", [
    "The church hall isn't free till the 20th.",  # reason_till_then
    "Only the back room, as far as I know.",  # reason_only_so
    "Oh no, the pub quiz is on that night too.",  # reason_exclaimed
    "Ugh, the café shuts at five in December.",  # reason_exclaimed (written by default at the base)
    "The café takes card payments only.",  # reason_only_end
    "A common complaint about the church hall is the heating.",  # reason_common (by default at the base)
    "Christmas parties at the café are commonly booked out by October.",  # reason_common
])
def test_a_remark_beside_the_reason_is_no_rationale(model, remark):
    summary, _ = offline_summary(*_social(remark), model=model)
    assert summary.decisions == ("Book the back room at the Fox for the social.",), summary.decisions
    assert summary.rationale == (REASON,), summary.rationale


@pytest.mark.parametrize("model", ["shipped", None])
@pytest.mark.parametrize("remark", [
    "Only six of us can make it on a Friday.",  # "Only" on a count
    "Only the Fox has step-free access, so Ruth can get in.",  # "Only …" said as a reason
])
def test_only_said_of_a_count_or_as_a_reason_stands(model, remark):
    summary, _ = offline_summary(*_social(remark), model=model)
    assert remark in summary.rationale, summary.rationale
    assert REASON in summary.rationale, summary.rationale


def _dog(remark):
    return ("user: Should I get a puppy or an older rescue dog?",
            "assistant: An older rescue is often calmer and already house-trained, while a puppy needs"
            " months of training.",
            f"user: {remark}",
            "assistant: Then a rescue of three or four years might suit you better.",
            "user: Thanks, I'll think about it.")


@pytest.mark.parametrize("remark", [
    "I'm not sure I want to spend every evening on training.",
    "Honestly not sure yet, my landlord hasn't answered.",
])
def test_not_knowing_is_no_reason_when_nothing_was_decided(remark):
    # patterns alone, reasons_undecided writes the user's statement after reason_not_known's first
    # read; the second read, after every reason reader, takes it out
    summary, _ = offline_summary(*_dog(remark), model=None)
    assert summary.decisions == (), summary.decisions
    assert summary.rationale == (), summary.rationale


def test_a_reason_said_when_nothing_was_decided_stands():
    remark = "A puppy would be alone all day because I work long shifts."
    summary, _ = offline_summary(*_dog(remark), model=None)
    assert remark in summary.rationale, summary.rationale
