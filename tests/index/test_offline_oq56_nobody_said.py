"""Session 56 (oq56), open questions (docs/summary-eval.md, "Session 56: open questions, the two
large classes read (oq56)"): a question fronted and then said to be what nobody has said or knows
("Who books the hall this year, nobody's said.") is the open question it leaves; an unmarked question
tailing another with "or" ("…? or is that against the rules") is read when someone answers after it
and the answer leaves it open, and not written again when nobody answers; a question answered
with a guess hedged after it ("Three weeks before, I think.") is left open."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPENING = "Nia: The allotment open day is on the 14th of June, gates at ten."


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_nobody_has_answered_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: Who books the village hall for the prize giving this year, nobody's said.",
        "Nia: Let's put the plant stall by the front gate.",
        model=model)
    assert any("village hall" in q and "prize giving" in q and "nobody" not in q
               for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_nobody_knows_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: How many plot holders will bring seedlings, though, nobody knows.",
        "Nia: Let's put the plant stall by the front gate.",
        model=model)
    assert any("plot holders" in q and "seedlings" in q and "nobody" not in q
               for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_what_someone_said_is_no_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: The committee said the village hall is booked for the prize giving.",
        "Nia: Let's put the plant stall by the front gate.",
        model=model)
    assert not any("village hall" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_an_or_tail_left_open_by_the_answer_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: Signs too. Should we chain them to the railings? or is that against the parish rules",
        "Nia: no idea. I'll ask the clerk, she'll know",
        "Owain: Great. I'll print the map on Friday.",
        model=model)
    assert any("parish rules" in q and q.endswith("?") for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_an_or_tail_nobody_answers_is_not_written_again(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: Let's put the plant stall by the front gate.",
        "Nia: Fine. While we're at it, should we get a second banner for the lane? or is that overdoing it",
        model=model)
    assert not any("overdoing" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_answered_with_a_guess_is_open(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: Fine. When do we have to send the stall list to the council by?",
        "Nia: Three weeks before, I think. It's in the events pack somewhere.",
        "Owain: Let's put the plant stall by the front gate.",
        model=model)
    assert any("stall list" in q and "council" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_answered_plainly_is_not_open(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: Fine. When do we have to send the stall list to the council by?",
        "Nia: Three weeks before. It's in the events pack on page two.",
        "Owain: Let's put the plant stall by the front gate.",
        model=model)
    assert not any("stall list" in q for q in summary.open_questions), summary.open_questions
