"""Session 55 (oq55), open questions (docs/summary-eval.md, "Session 55: open questions, the
explicitly open said plainly (oq55)"): a participant's question typed without its question mark is
read as a question with one is: open when the reply does not answer it, none when it does."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_an_unmarked_question_nobody_answers_is_open(model):
    summary, _ = offline_summary(
        "Nia: The plant sale is on the 14th, gates at ten.",
        "Owain: Could we borrow the scout hut's gazebo, they have two",
        "Nia: Maybe. They might need them for their own fete that weekend.",
        "Owain: Let's put the plant stall by the front gate.",
        model=model)
    assert any("gazebo" in q and q.endswith("?") for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_an_unmarked_question_answered_is_not_open(model):
    summary, _ = offline_summary(
        "Nia: The plant sale is on the 14th, gates at ten.",
        "Owain: Could we borrow the scout hut's gazebo, they have two",
        "Nia: Yes, Bill said we can have both for the day.",
        "Owain: Let's put the plant stall by the front gate.",
        model=model)
    assert not any("gazebo" in q for q in summary.open_questions), summary.open_questions
