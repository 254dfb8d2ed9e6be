"""Session 43 (dec43), decisions (docs/summary-eval.md, "Session 43: heldout38's decisions read
(dec43)"): the user's terse outcome after an agreement, in answer to the assistant, is the
decision when it takes up the answer's words."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_FENCE = ("user: The fence panels along the back garden blew down in the storm. Replace them or fix the posts?",
          "assistant: If the concrete posts are sound, new panels slot straight back in. Timber posts that have "
          "rotted at the base need replacing first, ideally with concrete posts and gravel boards so the panels "
          "stay off the soil.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_terse_outcome_after_an_agreement_is_the_decision(model):
    summary, _ = offline_summary(*_FENCE, "user: ok, concrete posts with gravel boards, panels from the yard on Friday.",
                                 model=model)
    assert any(d.startswith("Concrete posts with gravel boards") for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_terse_outcome_naming_little_of_the_answer_decides_nothing(model):
    summary, _ = offline_summary(*_FENCE, "user: ok. Storm damage to the neighbour's shed roof as well.",
                                 model=model)
    assert not any("shed roof" in d.lower() for d in summary.decisions), summary.decisions


_HALL = ("Aoife: The village hall quiz needs a new format, numbers dropped to six teams last time.",
         "Ravi: People said the picture round dragged on and the scoring took forever.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_proposal_asked_and_echoed_is_the_decision(model):
    summary, _ = offline_summary(*_HALL, "Aoife: Paper answer sheets swapped between tables for marking?",
                                 "Ravi: Swapped sheets, yes, it halves the scoring time.",
                                 "Aoife: I'll print forty sheets on Thursday.", model=model)
    assert "Paper answer sheets swapped between tables for marking." in summary.decisions, summary.decisions


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("question", ["Could the landlord print the answer sheets for us?",
                                      "Maybe answer sheets swapped between tables?",
                                      "Answer sheets swapped between tables, if the tables agree?",
                                      "Could they swap the answer sheets between tables?",
                                      "Answer sheets swapped between tables worked last year, didn't they?"])
def test_a_request_a_check_a_doubt_or_a_condition_asked_decides_nothing(model, question):
    summary, _ = offline_summary(*_HALL, f"Aoife: {question}",
                                 "Ravi: Answer sheets, yes, it halves the scoring time.", model=model)
    assert not any("sheets" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_proposal_refused_decides_nothing(model):
    summary, _ = offline_summary(*_HALL, "Aoife: Paper answer sheets swapped between tables for marking?",
                                 "Ravi: Not swapped sheets, they get lost every time.", model=model)
    assert not any("sheets" in d for d in summary.decisions), summary.decisions
