"""Session 52 (oq52b), open questions (docs/summary-eval.md, "Session 52: open questions, the
large classes (oq52b)"): a participant's guess at a cause said as a statement ("Could be the
damp in the shed.") leaves the guess open, written as the question "Could it be …?"; a view of
an option ("That might be the best of both.") is no guess and stays out."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_guessed_cause_is_an_open_question(model):
    summary, _ = offline_summary(
        "Gita: Half the tomato seedlings in the community greenhouse keeled over this week.",
        "Lewis: could be the damp under the potting bench again.",
        "Gita: I'll put the trays on the top shelf for now.",
        model=model)
    assert any(q.startswith("Could it be") and "potting bench" in q for q in summary.open_questions), \
        summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_view_of_an_option_is_no_open_question(model):
    summary, _ = offline_summary(
        "Gita: We could sow in trays indoors and plant out in May, or buy plug plants.",
        "Lewis: That might be the best of both.",
        "Gita: I'll put the trays on the top shelf for now.",
        model=model)
    assert not any("best of both" in q for q in summary.open_questions), summary.open_questions
