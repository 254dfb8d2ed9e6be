"""Session 38: among people, a question the next turn answers by going to look where the answer
is ("I'll look in the logs") stays open, both ways the offline backend runs (``cues._LOOKS_IN``,
read by ``_Reader.still_open`` after ``read()``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("Did the nightly export run on Sunday?", "export"),
          ("Was the invoice for March ever paid?", "invoice"),
          ("Which version of the installer did they download?", "installer")]
_LOOK = ["I'll look in the logs this afternoon.", "ok, I'll dig through the archive tomorrow",
         "Sure, I'll search through the shared drive"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=25, deadline=None)
@given(asked=st.sampled_from(_ASKED), look=st.sampled_from(_LOOK))
def test_a_question_answered_by_going_to_look_stays_open(model, asked, look):
    question, key = asked
    summary, _ = offline_summary("Mared: The client says the report is missing rows since the weekend.",
                                 f"Osian: Odd. {question}", f"Mared: {look}",
                                 "Osian: thanks", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_a_request_to_look_is_not_left_open(model):
    """ "Can you…?" asks for the looking; the "I'll look" takes it on."""
    summary, _ = offline_summary("Mared: The client says the report is missing rows since the weekend.",
                                 "Osian: Can you check the nightly export job?", "Mared: I'll look in the logs.",
                                 "Osian: thanks", model=model)
    assert not any("export" in q.lower() for q in summary.open_questions), summary.open_questions
