"""Session 52 (oq52), open questions (docs/summary-eval.md, "Session 52: open questions missed,
read and classed (oq52)"): a participant's last question of a turn that the next participant puts
off in the first two sentences of their reply ("Let's see who signs up first.", "let's cross that
bridge when we get to it") or takes nothing on ("Not me, …") stays open; a reply that decides it
does not leave it open."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_the_next_reply_puts_off_is_open(model):
    summary, _ = offline_summary(
        "Nadia: The under-12s start back at the rec on Saturday mornings in September.",
        "Owen: Are we running a second team for the under-10s this season?",
        "Nadia: Nine isn't enough for two. Let's see who signs up at the open session first.",
        "Owen: Fine, I'll put the poster up at the school tomorrow.",
        model=model)
    assert any("second team" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_the_next_reply_decides_is_not_open(model):
    summary, _ = offline_summary(
        "Nadia: The under-12s start back at the rec on Saturday mornings in September.",
        "Owen: Are we running a second team for the under-10s this season?",
        "Nadia: Let's go with one team this season, and let's see who signs up for next year.",
        "Owen: Fine, I'll put the poster up at the school tomorrow.",
        model=model)
    assert not any("second team" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_nobody_takes_on_is_open(model):
    summary, _ = offline_summary(
        "Nadia: The under-12s start back at the rec on Saturday mornings in September.",
        "Owen: Who's going to wash the kit after home games?",
        "Nadia: Not me, I'm at my sister's most Saturday afternoons.",
        "Owen: I'll put the poster up at the school tomorrow.",
        model=model)
    assert any("wash the kit" in q for q in summary.open_questions), summary.open_questions
