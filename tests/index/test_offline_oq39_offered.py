"""Session 39: with the assistant, options the assistant offers that the user does not pick ("I can
swap it for A or B" — "hmm not sure, let me ask my wife"), and what someone close to the user wants
done when the user puts the choice off to talk it over ("My brother wants to rent the bungalow out
instead" … "I need to talk to Gareth before we decide anything"), are open questions, both ways the
offline backend runs (``_Reader.offered_open`` after ``read()``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_NOT_PICKING = ["hmm not sure, let me ask my husband which he prefers", "I'll have a think and come back to you.",
                "ok, not sure yet. I'll ring you tomorrow"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=15, deadline=None)
@given(reply=st.sampled_from(_NOT_PICKING))
def test_options_the_user_does_not_pick_stay_open(model, reply):
    summary, _ = offline_summary("user: The sofa you delivered has a torn arm, order 55120.",
                                 "assistant: Sorry about that. I can replace the arm cover or refund 20% of the price.",
                                 f"user: {reply}", model=model)
    assert any("arm cover" in q.lower() and "refund" in q.lower() for q in summary.open_questions), \
        summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_options_the_user_picks_leave_no_open_question(model):
    """ "not sure" first, then "The refund then." in a later turn picks one."""
    summary, _ = offline_summary("user: The sofa you delivered has a torn arm, order 55120.",
                                 "assistant: Sorry about that. I can replace the arm cover or refund 20% of the price.",
                                 "user: not sure, let me ask my husband",
                                 "assistant: Of course, take your time.",
                                 "user: The refund then.", model=model)
    assert not any("arm cover" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_what_someone_wants_put_off_to_talk_over_stays_open(model):
    summary, _ = offline_summary("user: Dad's moving in with us next month. Can we claim anything for adapting the house?",
                                 "assistant: You may be able to get a disabled facilities grant from the council.",
                                 "user: My sister wants to sell his flat instead, to pay for the works.",
                                 "assistant: That's possible, but selling could affect his benefits.",
                                 "user: I need to talk to her properly before we decide anything.", model=model)
    assert any("sell his flat" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_what_someone_wants_without_a_put_off_is_no_open_question(model):
    summary, _ = offline_summary("user: Dad's moving in with us next month. Can we claim anything for adapting the house?",
                                 "assistant: You may be able to get a disabled facilities grant from the council.",
                                 "user: My sister wants to sell his flat instead, to pay for the works.",
                                 "assistant: That's possible, but selling could affect his benefits.",
                                 "user: Thanks, that's useful.", model=model)
    assert not any("sell his flat" in q.lower() for q in summary.open_questions), summary.open_questions
