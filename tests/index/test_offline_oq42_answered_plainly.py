"""Session 42: a question the next turn, by someone else, answers with a plain statement of the
asked thing ("Is the side gate locked at night?" — "The side gate is locked at ten.") is not
open; one the answer only weighs, leans on or leaves to a check stays open, both ways the
offline backend runs (``_Reader.answered_plainly``, ``cues._LEAVES_OPEN``,
``cues._ASKS_CHOICE``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ANSWERED = [("Rhys: Is the side gate locked at night?",
              "Ann: The side gate is locked at ten by the caretaker. Not sure about the back door though."),
             ("Rhys: Does anyone know if the minibus seats twelve?",
              "Ann: The minibus seats twelve plus the driver.")]


def _open(model, question, answer):
    summary, _ = offline_summary("Rhys: Right, the youth club trip on the 9th.", "Ann: Forty kids signed up.",
                                 question, answer, "Rhys: ok", model=model)
    return [q.lower() for q in summary.open_questions]


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("case", _ANSWERED)
def test_a_question_answered_by_a_plain_statement_is_not_open(model, case):
    question, answer = case
    asked = question.split()[-1].rstrip("?")
    assert not any(asked in q for q in _open(model, *case)), (asked, question, answer)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["Ann: The side gate is locked at ten I think. Not sure about the back door though.",
                                    "Ann: The side gate usually gets locked. Not sure about the back door though."])
def test_an_answer_that_leans_or_checks_keeps_the_question(model, answer):
    assert any("gate" in q for q in _open(model, "Rhys: Is the side gate locked at night?", answer))


@pytest.mark.parametrize("model", WAYS)
def test_a_fact_said_back_to_a_choice_keeps_the_question(model):
    assert any("minibus" in q for q in _open(model, "Rhys: Should we hire a second minibus for the kids?",
                                             "Ann: The minibus company has a second one free on the 9th. "
                                             "Not sure about the cost though."))
