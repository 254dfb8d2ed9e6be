"""Session 57 (oq57), open questions (docs/summary-eval.md, "Session 57: open questions, the fronted
whether-clause (oq57)"): a whether-clause inside a participant's sentence that no reader placed leaves
the question open ("we should look at whether …"); a request someone else made ("The council asked
whether …") and a choice of what to do ("whether to …") leave none."""

import pytest

from tests.index.test_offline_oq57_whether_fronted import _WAYS, _summary


@pytest.mark.parametrize("model", _WAYS)
def test_a_whether_clause_inside_a_sentence_is_an_open_question(model):
    summary = _summary(
        "Gareth: Hmm, we should look at whether the society renews the hall lease or moves to the school.", model)
    assert "Whether the society renews the hall lease or moves to the school?" in summary.open_questions, \
        summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_request_reported_is_no_open_question(model):
    summary = _summary("Gareth: The council asked whether we want a second stall by the gate.", model)
    assert not any("second stall" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_of_what_to_do_is_no_open_question(model):
    summary = _summary(
        "Gareth: I keep going back and forth about whether to bring the big gazebo or the small one.", model)
    assert not any("gazebo" in q for q in summary.open_questions), summary.open_questions
