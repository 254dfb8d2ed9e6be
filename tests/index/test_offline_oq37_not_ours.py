"""Session 37's first open-question class, from heldout32's misses, both ways the offline
backend runs (the patterns alone, and with the shipped sentence model): a matter handed to
someone else's say is left open by the people talking (the labelling guide: "what was asked or
raised and left unanswered, deferred or explicitly open").

A participant's question whose answer says it is not theirs to settle ("that goes to the
committee, not our call"; "only your landlord can say") stays open, though a rule had placed it
elsewhere; a question put first and said to be someone else's to decide ("whether we …, is for
the trustees to decide"; "…, I don't know, that's above me") is the question it leaves
(``cues._NOT_OURS``, read by ``_Reader.not_ours``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("Shall we move the quiz night to Thursdays?", "quiz night"),
          ("Should we raise the hire charge for the minibus?", "hire charge"),
          ("Do we let the scouts store their canoes in the shed?", "canoes"),
          ("Can the choir use the side room on Sundays?", "side room")]
_HANDED = ["That goes to the committee, not our call.", "not my call, that's one for Gwen.",
           "Honestly that's above my pay grade.", "That's for the trustees to decide.",
           "It goes to the AGM in March. Not our decision.",
           "Fair question. That's for the parish council to settle."]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(asked=st.sampled_from(_ASKED), handed=st.sampled_from(_HANDED))
def test_a_question_handed_to_someone_elses_say_stays_open(model, asked, handed):
    question, key = asked
    summary, _ = offline_summary("Maud: The hall's roof repair is booked for the 9th.",
                                 f"Idris: {question}", f"Maud: {handed}", "Idris: fair enough",
                                 model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions
    assert not any(key in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_only_someone_else_can_say_leaves_the_users_question_open(model):
    summary, _ = offline_summary(
        "user: My landlord wants to put the rent up in June.",
        "assistant: A rise needs a month's written notice under most periodic tenancies.",
        "user: would the new rent count for my housing benefit claim?",
        "assistant: Usually, once you report it; some councils ask for the letter. Only your council can say.",
        "user: ok thanks", model=model)
    assert any("housing benefit" in q.lower() for q in summary.open_questions), summary.open_questions


_FRONTED = [("whether we keep the Saturday bus running", "saturday bus"),
            ("Whether the volunteers get paid expenses", "paid expenses"),
            ("and whether the library renews the lease", "renews the lease")]
_NOT_MINE = [" is for the trustees to decide, not me", ", I don't know, that's above me",
             ", that's not my call", " is for Rhian and finance to decide"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=24, deadline=None)
@given(fronted=st.sampled_from(_FRONTED), not_mine=st.sampled_from(_NOT_MINE))
def test_a_question_put_first_and_handed_on_is_the_question_it_leaves(model, fronted, not_mine):
    clause, key = fronted
    summary, _ = offline_summary("Bea: The timetable for spring is printed.",
                                 f"Cal: I'll send it to the drivers. {clause}{not_mine}",
                                 "Bea: ok", model=model)
    asked = [q for q in summary.open_questions if key in q.lower()]
    assert asked and asked[0].startswith(("Whether", "whether")) and asked[0].endswith("?"), \
        summary.open_questions
    assert not any(word in asked[0].lower() for word in ("decide", "above me", "call")), asked


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["Yes, the committee agreed it last week.",
                                    "I'll tell Gwen. Whether the bar opens late is for the trustees to decide."])
def test_an_answer_that_settles_or_hands_on_another_matter_leaves_the_question(model, answer):
    """The answer settles it, or hands on a matter of its own, put first ("Whether the bar …")."""
    summary, _ = offline_summary("Maud: The hall's roof repair is booked for the 9th.",
                                 "Idris: Shall we move the quiz night to Thursdays?",
                                 f"Maud: {answer}", "Idris: fair enough", model=model)
    assert not any("quiz night" in q.lower() for q in summary.open_questions), summary.open_questions


_CONDITIONS = ["if it's booked up", "and if that's not allowed", "if they refuse", "so if it's late"]
_ASKS_WHOLE = [("would the insurance pay for a taxi?", "taxi"),
               ("can I bring my own kettle?", "kettle"),
               ("who signs the form instead?", "signs the form")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=24, deadline=None)
@given(condition=st.sampled_from(_CONDITIONS), asked=st.sampled_from(_ASKS_WHOLE))
def test_a_condition_before_a_whole_question_is_no_condition_alone(model, condition, asked):
    """"If it's private, would my travel insurance cover it?" asks what its question asks: the
    screen of a condition cut from its question (``_IF_ALONE``) leaves it (session 37)."""
    question, key = asked
    summary, _ = offline_summary(
        "user: I'm going to a wedding in Galway in June and staying at a B&B.",
        "assistant: June is busy there, so it's worth booking rooms and travel early.",
        f"user: {condition}, {question}",
        "assistant: It varies by provider and by policy. Only your insurer can say.",
        "user: ok", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", ["If they slip past the 20th?", "If it's raining?"])
def test_a_condition_alone_is_still_no_open_question(model, said):
    summary, _ = offline_summary("Ann: The fete's on the 14th, stalls are booked.", f"Ben: {said}",
                                 "Ann: Not sure, honestly.", "Ben: ok", model=model)
    assert summary.open_questions == (), summary.open_questions
