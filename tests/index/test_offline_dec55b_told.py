"""Session 55 (dec55b), decisions (docs/summary-eval.md, "Session 55: decisions, the wrong ones
screened (dec55b)"): a decision whose sentence tells what someone or something says or allows, or
what goes on as it was ("still"), with no condition, or in which the speaker takes a share of the
work ("I'll take two Saturdays."), is taken out (`_Reader.told_not_settled`); terms summed up with
the clock time a thing happened at are no decision (`_Reader.summed_up`, `_CLOCKED`)."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


def _expenses(said):
    return ("Nadia: We need to sort the expenses policy for the new cards.",
            "Owen: Receipts get lost every month.",
            f"Nadia: {said}",
            "Owen: Fine, I'll email the team.")


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("said", ["The card app lets us photograph them at the till.",
                                  "Then the policy says it from now on."])
def test_what_a_thing_says_or_allows_is_no_decision(model, said):
    summary, _ = offline_summary(*_expenses(said), model=model)
    assert summary.decisions == (), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_on_what_someone_says_stays_a_decision(model):
    summary, _ = offline_summary(*_expenses("If finance says no, we go with paper receipts."), model=model)
    assert any("paper receipts" in d for d in summary.decisions), summary.decisions


def test_what_is_still_so_is_no_decision():
    # by default: the sentence model writes it; the patterns alone do not
    summary, _ = offline_summary("Nadia: Where are we with the warehouse?",
                                 "Owen: Forklift 2 is fixed.",
                                 "Nadia: Forklift 3 is still out, the engineer comes Thursday.",
                                 "Owen: OK, I'll tell the night shift.", model="shipped")
    assert not any("Forklift 3" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_share_of_the_work_taken_is_no_decision(model):
    summary, _ = offline_summary("Sue: We need people for teas this summer, twelve Saturdays.",
                                 "Dev: I can do three in June.",
                                 "Sue: I'll take two Saturdays.",
                                 "Dev: Great, I'll put the rota up.", model=model)
    assert summary.decisions == (), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_one_thing_taken_of_those_offered_stays_a_decision(model):
    summary, _ = offline_summary("user: Which SIM deal is better, the 25GB one or the 40GB one?",
                                 "assistant: The 25GB one is £10 a month and covers what you use; the 40GB one is £15.",
                                 "user: I'll take the 25GB one.",
                                 "assistant: Good choice, order it tonight and it arrives tomorrow.", model=model)
    assert any("25GB" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_terms_with_the_time_a_thing_happened_are_no_decision(model):
    summary, _ = offline_summary("Kai: The order emails went to spam after the rebrand.",
                                 "Mira: Which change did it?",
                                 "Kai: The new DKIM record.",
                                 "Mira: Roll it back.",
                                 "Kai: Old record back at 13:22, confirmation in the inbox, all green.",
                                 "Mira: Good, I'll write it up.", model=model)
    assert not any("13:22" in d for d in summary.decisions), summary.decisions
