"""Session 55 (dec55), decisions (docs/summary-eval.md, "Session 55: decisions, a choice summed up
in terms (dec55)"): a participant's sentence after the first turn that sums up a choice in terms,
with no subject or verb (`_Reader.summed_up`) — two commas or more, or one when it answers no
question and is no aside — is a decision; one answering a question, or quoting a price, is not."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


def _pumpkins(before, said):
    return ("Priya: The village hall wants a date for the pumpkin carving night.",
            f"Tom: {before}",
            f"Priya: {said}",
            "Tom: Great, I'll put it on the noticeboard.")


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("before, said", [
    ("The small hall is free most Fridays in October.", "Friday the 27th, six till eight, the small hall."),
    ("The small hall is free most Fridays in October, and the big one on Saturdays.",
     "The small hall, Friday the 27th."),
])
def test_a_choice_summed_up_in_terms_is_a_decision(model, before, said):
    summary, _ = offline_summary(*_pumpkins(before, said), model=model)
    assert said in summary.decisions, summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_terms_answering_a_question_are_no_decision(model):
    summary, _ = offline_summary(*_pumpkins("Which hall do they mean, and which Friday?",
                                            "The small hall, Friday the 27th."), model=model)
    assert summary.decisions == (), summary.decisions


def test_a_price_in_terms_is_no_decision():
    # patterns alone: the sentence model takes this one up on its own
    said = "Pumpkins from the farm shop, £3 each, twenty of them."
    summary, _ = offline_summary(*_pumpkins("The small hall is free most Fridays in October.", said), model=None)
    assert said not in summary.decisions, summary.decisions
