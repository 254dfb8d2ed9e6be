"""Session 52 (oq52b), open questions (docs/summary-eval.md, "Session 52: open questions, the
large classes (oq52b)"): with the assistant, the question the user opens with is what the
assistant's answers take up, no open question; a later question the assistant cannot settle
stays open. Among people, a matter the opener puts as a statement ("… asked whether we'd run the
tea tent") is no open question when the conversation decides something about it, and stays open
when it decides nothing."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_the_users_opening_question_is_no_open_question(model):
    summary, _ = offline_summary(
        "user: Should I dry the barley myself or pay the merchant to do it?",
        "assistant: It depends on your drier and fuel costs. Drying it yourself pays when the "
        "drier is paid off and diesel stays under a pound a litre.",
        "user: ok, I'll dry it myself then.",
        model=model)
    assert not any("barley" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_later_question_the_assistant_cannot_settle_stays_open(model):
    summary, _ = offline_summary(
        "user: Should I dry the barley myself or pay the merchant to do it?",
        "assistant: It depends on your drier and fuel costs. Drying it yourself pays when the "
        "drier is paid off and diesel stays under a pound a litre.",
        "user: Will the merchant still take it at 15% moisture?",
        "assistant: I can't see the merchant's contract from here. The moisture limit is in its "
        "intake terms.",
        model=model)
    assert any("15% moisture" in q for q in summary.open_questions), summary.open_questions


_RELAYED = "Bronwen: The village hall committee asked whether we'd run the tea tent at the summer fete."


@pytest.mark.parametrize("model", _WAYS)
def test_a_matter_the_opener_puts_and_the_people_settle_is_no_open_question(model):
    summary, _ = offline_summary(
        _RELAYED,
        "Gethin: Happy to, if we get the gazebo.",
        "Carys: The scouts said yes to the gazebo.",
        "Bronwen: Let's do the tea tent with the big urn, not the kettles.",
        model=model)
    assert summary.decisions, summary.decisions
    assert not any("tea tent" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_matter_the_people_leave_unsettled_stays_open(model):
    summary, _ = offline_summary(
        _RELAYED,
        "Gethin: Happy to, if we get the gazebo.",
        "Bronwen: Half of us are away that weekend though.",
        model=model)
    assert any("tea tent" in q for q in summary.open_questions), summary.open_questions
