"""Session 36's open-question classes, from heldout31's misses, both ways the offline backend
runs (the patterns alone, and with the shipped sentence model).

A participant's question whose answer says what it can and then puts the matter off to a time
or a condition ("the coach was £620 last time. … let's decide at rehearsal on Thursday";
"price it first, we'll decide when we know the cost") stays open (``cues._DECIDE_LATER``, read
by ``_Reader.question`` past the answer's first sentence)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("and the van, do we hire the big one again?", "van"),
          ("what about the raffle prizes, vouchers or hampers?", "raffle prizes"),
          ("paper invites or just the group chat?", "paper invites"),
          ("and the floor, varnish or oil this time?", "floor")]
_SAID = ["the big one was £240 last time.", "the hampers went down well.",
         "I'd lean towards the cheaper one, but the committee might not like it.",
         "no strong view."]
_LATER = ["let's decide at the meeting on Thursday", "let's park that until the grant comes in",
          "we'll decide when we know the numbers", "Let's settle it next week.",
          "let's leave that till the AGM", "ok, let's decide once the quotes are in"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(asked=st.sampled_from(_ASKED), said=st.sampled_from(_SAID), later=st.sampled_from(_LATER),
       joined=st.booleans())
def test_a_question_put_off_after_a_partial_answer_stays_open(model, asked, said, later, joined):
    question, key = asked
    answer = f"{said[:-1]}, {later}" if joined else f"{said} {later}"
    summary, _ = offline_summary("Jo: The fete is on the 14th and the field's booked.",
                                 f"Sam: {question}", f"Ravi: {answer}", "Jo: fair enough",
                                 model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["the big one was £240 last time. let's decide on the big one.",
                                    "the big one was £240 last time. it fits the marquee too.",
                                    "the big one was £240 last time. we'll decide who drives it."])
def test_an_answer_that_chooses_or_does_not_put_off_leaves_no_question(model, answer):
    """"Let's decide on X" chooses; an answer that goes on answering puts nothing off."""
    summary, _ = offline_summary("Jo: The fete is on the 14th and the field's booked.",
                                 "Sam: and the van, do we hire the big one again?",
                                 f"Ravi: {answer}", "Jo: fair enough", model=model)
    assert not any("van" in q.lower() for q in summary.open_questions), summary.open_questions
