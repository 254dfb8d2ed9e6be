"""An open question written as a statement of doubt is written as the question it leaves (session 45,
docs/summary-eval.md, "Session 45: heldout40's open questions and references read (oqr45)")."""

import pytest

from memlane.testing import offline_summary


@pytest.mark.parametrize("model", [None, "shipped"])
def test_what_is_still_to_decide_is_written_as_the_question(model):
    summary, _ = offline_summary(
        "Nia: The kids start swimming lessons in May, both of them on Saturdays.",
        "Owen: Good. And we still need to decide where they practise.",
        "Nia: Fine, I will book the lessons tonight.", model=model)
    assert summary.open_questions == ("Where they practise?",), summary.open_questions


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_fronted_question_loses_what_is_not_known_after_it(model):
    summary, _ = offline_summary(
        "Lena: Logs go to the new cluster from Monday, the dashboards too.",
        "Marek: Agreed. How long we keep the logs I don't know yet; that depends on the budget we get.",
        "Lena: OK, I will write the config.", model=model)
    assert summary.open_questions == ("How long we keep the logs?",), summary.open_questions

