"""Among people, a question the next turn does not settle stays open, both ways the offline
backend runs (``_Reader.still_open`` after ``read()``). Two classes of answer, one test shape:

- session 39 (oq39, ``cues._HOLDS_OPEN``): the answer leaves it unsettled in its first words
  ("Depends how …", "Not till we see …", "Asked X, waiting to hear", "I'll look at the
  contract", "Let me think about that one", "He didn't say");
- session 40 (oq40, ``cues._answer_puts_off``): the one who would know has not said
  ("Marketing hasn't said.", ``cues._NOT_SAID``) or the matter is put off as what we do
  ("Then we talk again.", ``cues._PUT_OFF_SAID``).

Folded from ``test_offline_oq39_holds_open.py`` and ``test_offline_oq40_put_off_answer.py``
(session 41), every case kept."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
FIRST = "Bronwen: The fair's on the 21st, the field is booked from nine."
_UNSETTLED = ([("Do we refund the deposit for the cancelled stall?", "deposit"),
               ("Who's running the raffle at the summer fair?", "raffle"),
               ("Does the caretaker want the keys back before Friday?", "caretaker")],
              ["Depends how much the stall holder complains, I'll read through her emails.",
               "Not till we see what the council says about the field.",
               "Asked the vicar, waiting to hear",
               "I'll look at the hire agreement tonight, I think it says so.",
               "Hmm, let me think about that one.",
               "He didn't say. I'll ring him on Friday."])
_PUT_OFF = ([("Arabic has six plural forms, are we shipping Arabic this year?", "arabic"),
             ("Who's running the raffle at the summer fair?", "raffle"),
             ("What if the parish council refuses the grant?", "grant")],
            ["Marketing hasn't said.",
             "The committee hasn't decided yet.",
             "Ceri hasn't got back to me.",
             "Then we talk again.",
             "Let's all think about it before the 14th.",
             "Nothing to decide till we hear from the vicar."])


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("questions", "answers"), [_UNSETTLED, _PUT_OFF], ids=["oq39-unsettled", "oq40-put-off"])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_question_the_answer_leaves_unsettled_unsaid_or_put_off_stays_open(model, questions, answers, data):
    question, key = data.draw(st.sampled_from(questions))
    answer = data.draw(st.sampled_from(answers))
    summary, _ = offline_summary(FIRST, f"Gethin: Good. {question}", f"Bronwen: {answer}",
                                 "Gethin: ok", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("asking", "answer", "key"), [
    # oq39: "Yes, refund it in full." settles the question
    ("Gethin: Good. Do we refund the deposit for the cancelled stall?", "Yes, refund it in full.", "deposit"),
    # oq39: "Can you…?" asks for the looking; "I'll look at …" takes it on
    ("Gethin: Can you check the hire agreement for the field?", "I'll look at the hire agreement tonight.",
     "agreement"),
    # oq40: answers that do say
    ("Gethin: Good. Arabic has six plural forms, are we shipping Arabic this year?",
     "Marketing said yes, it's in the plan.", "arabic"),
    ("Gethin: Good. Arabic has six plural forms, are we shipping Arabic this year?",
     "I haven't said no to it, we ship it in May.", "arabic"),
])
def test_an_answer_that_settles_or_takes_it_on_leaves_no_open_question(model, asking, answer, key):
    summary, _ = offline_summary(FIRST, asking, f"Bronwen: {answer}", "Gethin: ok", model=model)
    assert not any(key in q.lower() for q in summary.open_questions), summary.open_questions
