"""Session 37: "What about X?" before a whole question in the same turn, both left open, is one
open question, both ways the offline backend runs: the topic names what the question asks about
("What about the grant report in June? Can we count the volunteers' work as ours?" → "What about
the grant report in June, can we count …?"; ``cues._TOPIC_ONLY``, read by
``_Reader.one_question``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_TOPICS = [("What about the summer barbecue?", "summer barbecue"), ("and what about car parking?", "car parking"),
           ("How about the new members?", "new members")]
_WHOLE = [("Do we need a licence for the tombola?", "tombola"),
          ("Can we count the church's volunteers as ours?", "volunteers"),
          ("Who pays for the insurance?", "insurance")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=24, deadline=None)
@given(topic=st.sampled_from(_TOPICS), whole=st.sampled_from(_WHOLE))
def test_a_topic_before_a_whole_question_left_open_is_one_open_question(model, topic, whole):
    (named, key), (asked, asked_key) = topic, whole
    summary, _ = offline_summary("Jo: The hall is booked for the 14th and the posters are up.",
                                 f"Sam: {named} {asked}", "Ravi: I'll have to check with the council", "Jo: ok",
                                 model=model)
    both = [q for q in summary.open_questions if key in q.lower() and asked_key in q.lower()]
    assert both and len(summary.open_questions) == 1, summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_two_whole_questions_stay_two(model):
    """A topic question is short and asks nothing more; two whole questions ask two things."""
    summary, _ = offline_summary("Jo: The hall is booked for the 14th and the posters are up.",
                                 "Sam: Do we need a licence for the tombola? Who pays for the insurance?",
                                 "Ravi: I'll have to check with the council", "Jo: ok", model=model)
    assert not any("tombola" in q.lower() and "insurance" in q.lower() for q in summary.open_questions), \
        summary.open_questions
