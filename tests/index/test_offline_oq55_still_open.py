"""Session 55 (oq55), open questions (docs/summary-eval.md, "Session 55: open questions, the
explicitly open said plainly (oq55)"): what a participant still does not know, has not decided or
wonders about, a question fronted and then met with "I haven't a clue", and a wish to know after a
short fronted phrase ("Before any of that, I'd want to know …") is the open question it leaves; what
they know is no question."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPENING = "Nia: The allotment open day is on the 14th of June, gates at ten."


@pytest.mark.parametrize("model", _WAYS)
def test_what_nobody_knows_yet_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: Still don't know if the water board will switch the standpipes back on.",
        "Nia: Let's put the plant stall by the front gate.",
        model=model)
    assert any("water board" in q and "standpipes" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_what_someone_wonders_about_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: I wonder whether the scout troop would run the tea tent for us.",
        "Nia: Let's put the plant stall by the front gate.",
        model=model)
    assert any("scout troop" in q and "tea tent" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_without_a_clue_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: How many plot holders will bring seedlings, I haven't a clue.",
        "Nia: Let's put the plant stall by the front gate.",
        model=model)
    assert any("plot holders" in q and "seedlings" in q and "clue" not in q
               for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_what_someone_knows_is_no_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: We know the water board will switch the standpipes back on in May.",
        "Nia: Let's put the plant stall by the front gate.",
        model=model)
    assert not any("standpipes" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_wish_to_know_after_a_fronted_phrase_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: Before any of that, I'd want to know how many plot holders still have a key to the shed.",
        "Nia: Let's put the plant stall by the front gate.",
        model=model)
    assert any(q.startswith("How many plot holders") and "key to the shed" in q
               for q in summary.open_questions), summary.open_questions
