"""Session 53 (oq53), open questions (docs/summary-eval.md, "Session 53: open questions, the
assistant's and the handed-on (oq53)"): what a participant has not heard or cannot work out ("We
still haven't heard whether …", "What I can't work out is whether …") is the open question it
leaves, even where the sentence would be read as a reason; what they have heard is no question."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPENING = "Nia: The summer fete is on the 6th of July on the green, same as last year."


@pytest.mark.parametrize("model", _WAYS)
def test_what_nobody_has_heard_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: We still haven't heard whether the parish council insurance covers the bouncy castle.",
        "Nia: Let's book the brass band for two o'clock.",
        model=model)
    assert any("insurance covers the bouncy castle" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_what_someone_cannot_work_out_is_an_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: What I can't work out is whether the marquee fits between the oak trees.",
        "Nia: Let's book the brass band for two o'clock.",
        model=model)
    assert any("marquee fits between the oak trees" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_what_someone_has_heard_is_no_open_question(model):
    summary, _ = offline_summary(
        _OPENING,
        "Owain: We heard that the parish council insurance covers the bouncy castle.",
        "Nia: Let's book the brass band for two o'clock.",
        model=model)
    assert not any("bouncy castle" in q for q in summary.open_questions), summary.open_questions
