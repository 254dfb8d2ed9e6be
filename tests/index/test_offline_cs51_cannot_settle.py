"""Session 51 (cs51), open questions (docs/summary-eval.md, "Session 51: the assistant cannot
settle it (cs51)"): the user's question stays open when the assistant's answer says it cannot
settle it in words ``_CANT_SAY`` does not read: it cannot see the user's papers, someone else "will
decide that", it goes "case by case", "it's up to you", "the only way to tell"
(``_Reader.cannot_settle``, read after the sentence model)."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("answer", [
    "I can't see your application from here. Grants like this usually cover heat pumps and some boilers.",
    "Some councils include boilers and some don't; the assessor will decide that after the survey.",
    "Those are looked at case by case, so keep the installer's quote with the form.",
])
def test_a_question_the_assistant_cannot_settle_is_open(model, answer):
    summary, _ = offline_summary(
        "user: We had the old back boiler taken out last month and a combi put in.",
        "assistant: A combi should save you a fair bit on gas over a year.",
        "user: Will the new combi count towards the council's warm homes grant?",
        f"assistant: {answer}",
        "user: Thanks, that helps.",
        model=model)
    assert any("warm homes grant" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_plain_answer_settles_it(model):
    summary, _ = offline_summary(
        "user: We had the old back boiler taken out last month and a combi put in.",
        "assistant: A combi should save you a fair bit on gas over a year.",
        "user: Will the new combi count towards the council's warm homes grant?",
        "assistant: Yes, the warm homes grant covers replacement combi boilers in owner-occupied homes.",
        "user: Thanks, that helps.",
        model=model)
    assert not any("warm homes grant" in q for q in summary.open_questions), summary.open_questions
