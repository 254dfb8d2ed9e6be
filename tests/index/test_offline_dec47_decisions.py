"""Session 47 (dec47), decisions (docs/summary-eval.md, "Session 47: heldout42's missed decisions
read (dec47)"): a decision written as a choice and then ", and we / I <verb> …" ("Crown then, and
we pay the deposit from the kitty.") is two decisions, the choice and what we do; a second clause
that defers ("and we revisit …") or only can ("and we can …") is not split off."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_QUIZ = ("Tom: The quiz night needs a venue. The Crown wants a deposit of fifty pounds, the Swan wants "
         "nothing but is smaller.",
         "Ana: The Crown has the back room, the Swan only the bar. Crown or Swan?")


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_then_and_we_do_is_two_decisions(model):
    summary, _ = offline_summary(*_QUIZ, "Tom: Crown then, and we pay the deposit from the kitty.", model=model)
    assert "We pay the deposit from the kitty." in summary.decisions, summary.decisions
    assert not any("deposit" in d for d in summary.decisions if d.startswith("Crown")), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_the_two_decisions_keep_the_order_said(model):
    summary, _ = offline_summary(*_QUIZ, "Tom: Crown then, and we pay the deposit from the kitty.", model=model)
    assert [d.split()[0] for d in summary.decisions] == ["Crown", "We"], summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_second_clause_that_can_is_no_decision_of_its_own(model):
    summary, _ = offline_summary(*_QUIZ, "Tom: Crown then, and we can pay the deposit from the kitty.", model=model)
    assert not any(d.startswith("We can") for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_second_clause_that_defers_is_no_decision_of_its_own(model):
    summary, _ = offline_summary(*_QUIZ, "Tom: Crown then, and we revisit the Swan next spring.", model=model)
    assert not any(d.startswith("We revisit") for d in summary.decisions), summary.decisions


_PLOT = ("Iris: The primary school asked whether their gardening club can use plot 9 this year.",
         "Bev: Could we let them have it for the summer term?")


@pytest.mark.parametrize("model", _WAYS)
def test_an_agreement_bounded_by_but_only_is_the_decision(model):
    summary, _ = offline_summary(*_PLOT, "Iris: Fine, but only on Friday mornings and only with a teacher there.",
                                 model=model)
    assert "Only on Friday mornings and only with a teacher there." in summary.decisions, summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_but_only_after_a_statement_settles_nothing_put(model):
    summary, _ = offline_summary("Iris: The primary school asked whether their gardening club can use plot 9.",
                                 "Bev: The school used plot 4 two years ago and left it tidy.",
                                 "Iris: Fine, but only on Friday mornings and only with a teacher there.", model=model)
    assert not any("Friday mornings" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_the_users_but_only_to_the_assistant_is_a_condition(model):
    summary, _ = offline_summary("user: Should I take the 12-month broadband contract at £25?",
                                 "assistant: The 12-month contract is cheaper per month than the rolling one.",
                                 "user: Fine, but only if I can still cancel in the first month without a fee.",
                                 model=model)
    assert not any("cancel in the first month" in d for d in summary.decisions), summary.decisions
