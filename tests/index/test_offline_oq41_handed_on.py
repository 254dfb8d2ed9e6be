"""Session 41: a participant's question that one of the next two turns hands on to someone to
talk to or check with, or to a later time ("I'll ring the printer before we decide anything",
"let me talk to Dad first", "Let's ask Jean what she'd want"), stays open, both ways the offline
backend runs (``cues._HANDED_ON``, read by ``_Reader.handed_on`` after ``read()``): past the
answer's first sentence, from a third participant, or from the asker after the assistant's
answer. A reply opening on yes or no, one that decides, and a request are not handed on."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_HAND_ON = ["I'll ring the printer about it before we decide anything.",
            "Let me talk to Dad first, he'll have a view.",
            "I need to check with the treasurer.",
            "Let's ask the caretaker what he thinks.",
            "I don't want to decide that before the quote is in.",
            "Let's talk again when the caterer has quoted."]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(answer=st.sampled_from(_HAND_ON), third=st.booleans())
def test_a_question_handed_on_after_the_answer_stays_open(model, answer, third):
    replies = (["Osian: The hall charges extra for evenings.", f"Ffion: {answer}"] if third
               else [f"Osian: The hall charges extra for evenings. {answer}"])
    summary, _ = offline_summary("Mair: The quiz is on the 9th, the tickets are printed.",
                                 "Ffion: Good. Should we serve hot food at the quiz?", *replies,
                                 "Mair: ok", model=model)
    assert any("hot food" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_the_asker_handing_on_after_the_assistant_answers(model):
    summary, _ = offline_summary(
        "user: I've posted the correcting journal for the supplier refund.",
        "assistant: Good, attach the remittance advice to it so the trail is complete.",
        "user: Done. Should I tell the auditors about the correction separately?",
        "assistant: Not usually for a single corrected posting; it shows in the journal listing.",
        "user: I'll check with Rosa, she wrote the close policy.", model=model)
    assert any("auditors" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["Yes, and let me talk to the caterer about the menu.",
                                    "Yeah, let me talk to the caterer about the menu too."])
def test_a_reply_opening_on_yes_or_no_answers(model, answer):
    summary, _ = offline_summary("Mair: The quiz is on the 9th, the tickets are printed.",
                                 "Ffion: Good. Should we serve hot food at the quiz?",
                                 f"Osian: {answer}", "Mair: ok", model=model)
    assert not any("hot food" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_a_request_is_taken_on_not_left_open(model):
    summary, _ = offline_summary("Mair: The quiz is on the 9th, the tickets are printed.",
                                 "Ffion: Can someone book the hall kitchen for the quiz?",
                                 "Osian: Sure, let me talk to the caretaker tonight.", "Mair: ok", model=model)
    assert not any("kitchen" in q.lower() for q in summary.open_questions), summary.open_questions
