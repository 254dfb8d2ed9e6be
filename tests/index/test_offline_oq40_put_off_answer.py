"""Session 40: among people, a question whose answer says the one who would know has not said
("Marketing hasn't said.", ``cues._NOT_SAID``) or puts the matter off as what we do ("Then we
talk again.", ``cues._PUT_OFF_SAID``) stays open, both ways the offline backend runs
(``cues._answer_puts_off``, read by ``_Reader.still_open`` after ``read()``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("Arabic has six plural forms, are we shipping Arabic this year?", "arabic"),
          ("Who's running the raffle at the summer fair?", "raffle"),
          ("What if the parish council refuses the grant?", "grant")]
_PUT_OFF = ["Marketing hasn't said.",
            "The committee hasn't decided yet.",
            "Ceri hasn't got back to me.",
            "Then we talk again.",
            "Let's all think about it before the 14th.",
            "Nothing to decide till we hear from the vicar."]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(asked=st.sampled_from(_ASKED), answer=st.sampled_from(_PUT_OFF))
def test_a_question_the_answer_leaves_unsaid_or_puts_off_stays_open(model, asked, answer):
    question, key = asked
    summary, _ = offline_summary("Bronwen: The fair's on the 21st, the field is booked from nine.",
                                 f"Gethin: Good. {question}", f"Bronwen: {answer}",
                                 "Gethin: ok", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["Marketing said yes, it's in the plan.", "I haven't said no to it, we ship it in May."])
def test_an_answer_that_says_is_no_put_off(model, answer):
    summary, _ = offline_summary("Bronwen: The fair's on the 21st, the field is booked from nine.",
                                 "Gethin: Good. Arabic has six plural forms, are we shipping Arabic this year?",
                                 f"Bronwen: {answer}", "Gethin: ok", model=model)
    assert not any("arabic" in q.lower() for q in summary.open_questions), summary.open_questions
