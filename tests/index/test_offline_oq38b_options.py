"""Session 38: among people, a question that offers options and that nobody answers by picking
one before the conversation ends is an open question, both ways the offline backend runs
(``cues._Reader.options_open`` and ``_Reader.picked``, read after ``read()``): "Do we hire the
coach or the minibus?" — "The coach was cheaper last year" is no pick; "Minibus, the coach
won't fit the lane" is one."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_OPTIONS = [("Do we hire the coach or the minibus?", "coach", "minibus"),
            ("Do we varnish the benches ourselves or pay the joiner?", "benches", "joiner"),
            ("Marquee or the village hall for the ceilidh?", "marquee", "hall"),
            ("Should we sell the old kiln on eBay or give it to the college?", "kiln", "college")]
_NO_PICK = ["Hmm, tricky. Last time it rained all afternoon.",
            "Good question. Aled had an opinion on that.",
            "Depends on the numbers, we don't know them yet.",
            "Let me sleep on it."]


def _talk(question: str, answer: str, model: str | None, *last: str):
    summary, _ = offline_summary("Gwen: Summer outing planning. The date is 12 July, that's fixed.",
                                 f"Huw: Right. {question}", f"Gwen: {answer}",
                                 *(last or ("Gwen: I'll send the minutes round tonight.",)), model=model)
    return summary


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=20, deadline=None)
@given(asked=st.sampled_from(_OPTIONS), answer=st.sampled_from(_NO_PICK))
def test_options_nobody_picks_are_an_open_question(model, asked, answer):
    question, first, second = asked
    summary = _talk(question, answer, model)
    found = [q for q in summary.open_questions if first in q.lower() and second in q.lower()]
    assert len(found) == 1, summary.open_questions
    assert not any(first in d.lower() and second in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["Minibus, the coach won't get down the lane.",
                                    "The minibus. It's cheaper.",
                                    "Both are booked up that weekend, I checked."])
def test_an_answer_that_picks_or_names_both_leaves_no_open_question(model, answer):
    summary = _talk("Do we hire the coach or the minibus?", answer, model)
    assert not any("minibus" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("last", ["Huw: Minibus then.", "Huw: Let's go with the coach.", "Huw: Coach it is."])
def test_a_pick_later_in_the_conversation_leaves_no_open_question(model, last):
    summary = _talk("Do we hire the coach or the minibus?", "Hmm, tricky. Last time it rained all afternoon.",
                    model, "Gwen: The coach company wants a deposit by Friday.", last)
    assert not any("minibus" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_the_one_named_in_an_option_answering_for_themselves_picks(model):
    summary, _ = offline_summary("Gwen: Summer outing planning. The date is 12 July, that's fixed.",
                                 "Huw: Do the invitations go from you or from Carys?",
                                 "Carys: From me, the chapel list is on my laptop.",
                                 "Gwen: I'll send the minutes round tonight.", model=model)
    assert not any("invitations" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_a_question_on_what_a_thing_is_is_no_choice(model):
    summary = _talk("Is it the fuse or the socket?", "Hmm, tricky. The kettle worked this morning.", model)
    assert not any("socket" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=12, deadline=None)
@given(thing=st.sampled_from(["The old tow rope", "The spare trailer tyre", "Our club banner"]),
       verb=st.sampled_from(["patch", "repair", "mend"]))
def test_an_open_options_question_says_what_its_it_is(model, thing, verb):
    """"Do we patch it or buy new?" after "The old tow rope's got a fray" names the rope."""
    summary, _ = offline_summary("Gwen: Summer outing planning. The date is 12 July, that's fixed.",
                                 f"Huw: One more thing. {thing}'s got a tear near the end. Do we {verb} it or buy new?",
                                 "Gwen: Let's look at it on Saturday when the trailer's back.", model=model)
    found = [q for q in summary.open_questions if verb in q.lower()]
    assert len(found) == 1 and thing.lower() in found[0].lower(), summary.open_questions
