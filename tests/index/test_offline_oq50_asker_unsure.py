"""Session 50 (oq50), open questions (docs/summary-eval.md, "Session 50: open questions counted
over every set (oq50)"): a participant's question followed in the same turn by the asker's own not
knowing ("I've no idea what a marquee costs", "we still haven't agreed that one") is an open
question, unless a reply decides it."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_the_asker_does_not_know_is_open(model):
    summary, _ = offline_summary(
        "Ffion: The village fete is on 21 June and the stalls are mostly sorted.",
        "Tomos: Do we put the teas in a marquee on the green or in the chapel vestry? I've no idea what a marquee costs.",
        "Ffion: The chapel would want a donation too, and the vestry is small.",
        model=model)
    assert any("marquee on the green" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_a_reply_decides_is_not_open(model):
    summary, _ = offline_summary(
        "Ffion: The village fete is on 21 June and the stalls are mostly sorted.",
        "Tomos: Do we put the teas in a marquee on the green or in the chapel vestry? I've no idea what a marquee costs.",
        "Ffion: Let's go with the vestry, the chapel said yes already.",
        model=model)
    assert not any("marquee on the green" in q for q in summary.open_questions), summary.open_questions
