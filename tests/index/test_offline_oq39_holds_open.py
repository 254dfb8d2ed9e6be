"""Session 39: among people, a question the next turn leaves unsettled in its first words ("Depends
how …", "Not till we see …", "Asked X, waiting to hear", "I'll look at the contract", "Let me think
about that one", "He didn't say") stays open, both ways the offline backend runs
(``cues._HOLDS_OPEN``, read by ``_Reader.still_open`` after ``read()``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("Do we refund the deposit for the cancelled stall?", "deposit"),
          ("Who's running the raffle at the summer fair?", "raffle"),
          ("Does the caretaker want the keys back before Friday?", "caretaker")]
_UNSETTLED = ["Depends how much the stall holder complains, I'll read through her emails.",
              "Not till we see what the council says about the field.",
              "Asked the vicar, waiting to hear",
              "I'll look at the hire agreement tonight, I think it says so.",
              "Hmm, let me think about that one.",
              "He didn't say. I'll ring him on Friday."]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(asked=st.sampled_from(_ASKED), answer=st.sampled_from(_UNSETTLED))
def test_a_question_left_unsettled_by_the_answer_stays_open(model, asked, answer):
    question, key = asked
    summary, _ = offline_summary("Bronwen: The fair's on the 21st, the field is booked from nine.",
                                 f"Gethin: Good. {question}", f"Bronwen: {answer}",
                                 "Gethin: ok", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_an_answer_that_settles_it_leaves_no_open_question(model):
    """ "Yes, refund it in full." settles the question: nothing stays open."""
    summary, _ = offline_summary("Bronwen: The fair's on the 21st, the field is booked from nine.",
                                 "Gethin: Good. Do we refund the deposit for the cancelled stall?",
                                 "Bronwen: Yes, refund it in full.", "Gethin: ok", model=model)
    assert not any("deposit" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_a_request_answered_by_looking_is_not_left_open(model):
    """ "Can you…?" asks for the looking; "I'll look at …" takes it on."""
    summary, _ = offline_summary("Bronwen: The fair's on the 21st, the field is booked from nine.",
                                 "Gethin: Can you check the hire agreement for the field?",
                                 "Bronwen: I'll look at the hire agreement tonight.", "Gethin: ok", model=model)
    assert not any("agreement" in q.lower() for q in summary.open_questions), summary.open_questions
