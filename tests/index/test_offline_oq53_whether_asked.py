"""Session 53 (oq53), open questions (docs/summary-eval.md, "Session 53: open questions, the
assistant's and the handed-on (oq53)"): an open question written "Whether …?" whose clause opens on
its subject and an auxiliary is written as the question, the auxiliary first ("Will the hall let us
…?"); one whose clause has a verb of its own ("Whether the hall charges …?") stays as it is."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


def _questions(model, doubt):
    summary, _ = offline_summary(
        "Carys: The quiz night is booked for the 12th at the church hall.",
        f"Huw: I honestly don't know whether {doubt}.",
        "Carys: Let's put the posters up on Saturday anyway.",
        model=model)
    return summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_subject_and_an_auxiliary_are_asked_as_a_question(model):
    asked = _questions(model, "the hall will let us sell raffle tickets at the door")
    assert "Will the hall let us sell raffle tickets at the door?" in asked, asked
    assert not any(q.startswith("Whether") for q in asked), asked


@pytest.mark.parametrize("model", _WAYS)
def test_a_contracted_pronoun_is_asked_as_a_question(model):
    asked = _questions(model, "we're allowed to serve wine in the church hall")
    assert "Are we allowed to serve wine in the church hall?" in asked, asked


@pytest.mark.parametrize("model", _WAYS)
def test_a_clause_on_a_verb_of_its_own_stays_as_it_was(model):
    asked = _questions(model, "the church hall charges extra for the kitchen")
    assert "Whether the church hall charges extra for the kitchen?" in asked, asked
