"""Session 52 (oq52), open questions (docs/summary-eval.md, "Session 52: open questions missed,
read and classed (oq52)"): a participant's sentence that someone will ask, check or find out whether
a named thing holds ("I'll ask the brewery whether the old keg cooler still works") leaves that
question open beside the step; a pronoun's question ("ask Priya if she can …", a favour) and a room,
date or loan asked for ("whether the hall is free on the 9th") are the step alone."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_check_on_a_named_thing_leaves_the_question_open(model):
    summary, _ = offline_summary(
        "Gwen: The cellar was warm again on Saturday and two barrels went cloudy.",
        "Idris: I'll ask the brewery whether the old keg cooler still works.",
        "Gwen: Thanks, I'll move the barrels to the back wall tonight.",
        model=model)
    assert "Whether the old keg cooler still works?" in summary.open_questions, summary.open_questions
    steps = summary.next_steps + summary.action_items
    assert any("keg cooler" in s for s in steps), steps


@pytest.mark.parametrize("model", _WAYS)
def test_a_favour_or_a_booking_asked_for_is_no_open_question(model):
    summary, _ = offline_summary(
        "Gwen: The quiz night needs a date and a quizmaster.",
        "Idris: I'll ask Priya if she can write the questions.",
        "Gwen: And I'll check whether the hall is free on the 9th.",
        model=model)
    assert not any("Priya" in q or "questions" in q or "hall" in q for q in summary.open_questions), \
        summary.open_questions
