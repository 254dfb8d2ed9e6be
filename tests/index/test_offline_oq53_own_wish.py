"""Session 53 (oq53), open questions (docs/summary-eval.md, "Session 53: open questions, the
assistant's and the handed-on (oq53)"): a speaker's doubt about their own wish or reaction ("I'm
not sure I'd manage online") is no open question; a doubt about a fact of theirs ("I don't know
if I can afford lessons on top") stays open."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPENING = "user: I want to learn the banjo before the folk weekend in June."
_ANSWER = ("assistant: A local teacher or an online course both work; most beginners manage "
           "three simple songs in two months.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_doubt_about_ones_own_reaction_is_no_open_question(model):
    summary, _ = offline_summary(
        _OPENING, _ANSWER,
        "user: I'm not sure I'd manage online, I learn better with someone in the room.",
        "assistant: Then ask at the music shop on the high street about teachers.",
        model=model)
    assert not any("manage online" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_doubt_about_ones_own_wish_is_no_open_question(model):
    summary, _ = offline_summary(
        _OPENING, _ANSWER,
        "user: I'm not sure I want to practise every evening after work.",
        "assistant: Twenty minutes most evenings is enough to start.",
        model=model)
    assert not any("practise every evening" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_doubt_about_a_fact_of_ones_own_stays_open(model):
    summary, _ = offline_summary(
        _OPENING, _ANSWER,
        "user: I don't know if I can afford weekly lessons on top of the banjo itself.",
        "assistant: Fortnightly lessons with practice in between work for many adults.",
        model=model)
    assert any("afford weekly lessons" in q for q in summary.open_questions), summary.open_questions
