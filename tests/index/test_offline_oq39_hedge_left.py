"""Session 39: with the assistant, the user's question the assistant's answer does not settle ("It
depends on …", "it's a call for your …", "I'm not certain …", "Ask … when you …") stays open when
the user's next turn goes to find out ("I'll raise that with …", "will do"), both ways the offline
backend runs (``cues._HEDGED`` and ``cues._FOLLOWS_UP``, read by ``_Reader.hedge_left`` after
``read()``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("Does the allotment shed need planning permission?", "shed"),
          ("Should the pond liner go under the decking as well?", "liner")]
_HEDGE = ["It depends on the size and where it sits in the plot.",
          "Sheds often don't. It's a call for your council's planning team, though.",
          "I'm not certain of the rule for allotments.",
          "Many sites allow it. Ask the allotment secretary before you build."]
_FOLLOW = ["I'll raise that with the committee on Sunday.", "ok, will do", "Not sure, I'll check with Dilys."]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=25, deadline=None)
@given(asked=st.sampled_from(_ASKED), hedge=st.sampled_from(_HEDGE), follow=st.sampled_from(_FOLLOW))
def test_a_hedged_answer_the_user_goes_to_check_leaves_the_question_open(model, asked, hedge, follow):
    question, key = asked
    summary, _ = offline_summary("user: We've taken on plot 14 at the Brynmill allotments.",
                                 "assistant: Congratulations, spring is a good time to start.",
                                 f"user: {question}", f"assistant: {hedge}", f"user: {follow}", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_a_settled_answer_leaves_no_open_question(model):
    """The assistant answers outright ("No, a shed under 2.5 metres needs none") and the user's
    "will do" takes the advice: nothing stays open."""
    summary, _ = offline_summary("user: We've taken on plot 14 at the Brynmill allotments.",
                                 "assistant: Congratulations, spring is a good time to start.",
                                 "user: Does the allotment shed need planning permission?",
                                 "assistant: No, a shed under 2.5 metres needs none. Keep it off the boundary.",
                                 "user: will do", model=model)
    assert not any("shed" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_a_hedge_the_user_does_not_follow_up_leaves_no_open_question(model):
    """Without the user going to find out, the hedge alone leaves the question as it was."""
    summary, _ = offline_summary("user: We've taken on plot 14 at the Brynmill allotments.",
                                 "assistant: Congratulations, spring is a good time to start.",
                                 "user: Does the allotment shed need planning permission?",
                                 "assistant: Sheds often don't. It's a call for your council's planning team, though.",
                                 "user: Thanks, and what should I plant first?", model=model)
    assert not any("shed" in q.lower() for q in summary.open_questions), summary.open_questions
