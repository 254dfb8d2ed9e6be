"""Session 44 (dec44), decisions (docs/summary-eval.md, "Session 44: heldout39's decisions read
(dec44)"): an agreement, then the outcome in a verbless first clause naming something said
before, with a reason, a step or a second choice after it in a clause of its own."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_HEATER = ("Megan: The heater in the scout hut store packed in again, third time this winter.",
           "Tom: A new oil-filled radiator is about £60. The repair man wants £45 and the old one is fifteen years old.")
_AFTER = "Tom: Good. I'll pick one up at Argos on Saturday."


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize(("answer", "decision"), [
    ("Fine, new radiator, I'm not paying that man again.", "New radiator, I'm not paying that man again."),
    ("OK. New radiator, the old one's had it.", "New radiator, the old one's had it."),
])
def test_an_agreed_outcome_with_a_clause_of_its_own_after_it_is_the_decision(model, answer, decision):
    summary, _ = offline_summary(*_HEATER, f"Megan: {answer}", _AFTER, model=model)
    assert decision in summary.decisions, summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_an_agreed_outcome_naming_nothing_said_before_decides_nothing(model):
    summary, _ = offline_summary(*_HEATER, "Megan: Right, cocoa at the end of every meeting, it's freezing in there.",
                                 _AFTER, model=model)
    assert not any("cocoa" in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("agreeing", ["Yes, fifteen years is a good innings.", "Right, that's the easy one then."])
def test_a_verbless_outcome_after_an_agreeing_sentence_is_the_decision(model, agreeing):
    summary, _ = offline_summary(*_HEATER, f"Megan: {agreeing} New radiator from the camp fund.", _AFTER, model=model)
    assert "New radiator from the camp fund." in summary.decisions, summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_an_outcome_after_an_objection_decides_nothing(model):
    summary, _ = offline_summary(*_HEATER, "Megan: Yes, but the store is damp. New radiator from the camp fund.",
                                 _AFTER, model=model)
    assert not any("camp fund" in d for d in summary.decisions), summary.decisions


_SEED_SWAP = ("Nia: The allotment society's seed swap moves to the church hall this year, the old barn is being sold.",
              "Huw: The hall has tables for twenty stalls. We could charge a pound a table to cover the hire.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_plan_carried_on_and_taken_up_by_the_other_is_the_decision(model):
    summary, _ = offline_summary(*_SEED_SWAP, "Nia: A pound is fine. And stallholders bring their own envelopes for the seeds.",
                                 "Huw: Nice. I'll put it in the newsletter.", model=model)
    assert "Stallholders bring their own envelopes for the seeds." in summary.decisions, summary.decisions


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize(("said", "answer"), [
    ("And stallholders bring their own envelopes for the seeds.", "Hmm, half of them never remember."),  # objected to
    ("And stallholders brought their own envelopes for the seeds.", "Nice."),  # what happened before
])
def test_a_plan_objected_to_or_a_past_event_decides_nothing(model, said, answer):
    summary, _ = offline_summary(*_SEED_SWAP, f"Nia: A pound is fine. {said}",
                                 f"Huw: {answer} I'll put it in the newsletter.", model=model)
    assert not any("envelopes" in d for d in summary.decisions), summary.decisions
