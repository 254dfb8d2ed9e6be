"""Session 39: among people, a question a peer answers with a maybe alone and then goes to find out
("could be. i'll send them a photo of the meter"), or answers with a guess the asker then goes to
look up ("Ends in June I think" — "I'll look tonight"), stays open, both ways the offline backend
runs (``_Reader.maybe_then_check``, ``cues._GUESS`` and ``cues._ILL_LOOK``, read by
``_Reader.still_open`` after ``read()``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("So the water bill could be wrong?", "water bill"),
          ("Is the boiler still under the Hargreaves warranty?", "warranty")]
_MAYBE = ["could be. i'll send them a photo of the meter", "Possibly. I'll ring them in the morning.",
          "in theory. let me check the paperwork tonight"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=20, deadline=None)
@given(asked=st.sampled_from(_ASKED), maybe=st.sampled_from(_MAYBE))
def test_a_maybe_then_going_to_find_out_leaves_the_question_open(model, asked, maybe):
    question, key = asked
    summary, _ = offline_summary("Nerys: The house bills came in, the water's doubled since spring.",
                                 f"Tomos: {question}", f"Nerys: {maybe}", "Tomos: ta", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_a_guess_the_asker_goes_to_look_up_leaves_the_question_open(model):
    summary, _ = offline_summary("Nerys: The house bills came in, the water's doubled since spring.",
                                 "Tomos: Is the boiler still under the Hargreaves warranty?",
                                 "Nerys: Till March I think, the papers are in the kitchen drawer",
                                 "Tomos: I'll look tonight", model=model)
    assert any("warranty" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_a_sure_answer_leaves_no_open_question(model):
    """ "Yes, till March. I'll send you the papers." answers it: the sending is no finding out."""
    summary, _ = offline_summary("Nerys: The house bills came in, the water's doubled since spring.",
                                 "Tomos: Is the boiler still under the Hargreaves warranty?",
                                 "Nerys: Yes, till March. I'll send you the papers.", "Tomos: ta", model=model)
    assert not any("warranty" in q.lower() for q in summary.open_questions), summary.open_questions
