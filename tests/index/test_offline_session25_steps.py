"""Session 25's next-step classes, from heldout21's misses, on conversations written for these
tests, both ways the offline backend runs (patterns alone and with the shipped model)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import LISTS
from memlane.bench.summaries.score import is_small_talk, strip_owner
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_OPENING = ("Kofi: the van is booked for saturday and the hall says yes.",
            "Meg: great, the volunteers are sorted too.")


def _items(summary):
    return [x for f in LISTS for x in getattr(summary, f)]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=40, deadline=None)
@given(lead=st.sampled_from(["", "ok ", "so ", "and ", "yeah, "]),
       need=st.sampled_from(["need to", "have to", "going to", "gonna", "gotta", "got to"]),
       step=st.sampled_from(["check with Sven whether the app can ship before the 24th",
                             "book a gait analysis at the running shop in Didsbury",
                             "ring the Park Authority about the car park on Wednesday",
                             "send the archive appendix to Joel tonight"]),
       end=st.sampled_from(["", "."]))
def test_a_step_said_without_its_i_is_the_speakers(model, lead, need, step, end):
    """A participant's "need to / going to / gonna … <step verb> …" without its "I", as people
    chat, is that speaker's step, written from its verb; nothing in it is small talk and no
    sentence is in two fields."""
    summary = offline_summary(*_OPENING, f"Trish: {lead}{need} {step}{end}", model=model)[0]
    steps = [*summary.next_steps, *summary.action_items]
    want = step[:1].upper() + step[1:]
    assert any(x.startswith("Trish: " + want) for x in steps), steps
    items = _items(summary)
    assert not [x for x in items if is_small_talk(x)]
    keys = [strip_owner(x).lower() for x in items]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("text", ["going to Kenya in February with my sister, 10 days.",
                                  "have to say the hall looked great.", "need to decide by friday between the two vans.",
                                  "going to be late tomorrow, the trains are off.", "gonna love this one.",
                                  "Gonna keep going.", "Gotta stay strong and keep helping out.",
                                  "Gotta try that one."])
def test_a_place_a_state_or_a_choice_after_going_to_is_no_step(model, text):
    summary = offline_summary(*_OPENING, f"Trish: {text}", model=model)[0]
    assert not [x for x in [*summary.next_steps, *summary.action_items] if x.startswith("Trish")], summary


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=40, deadline=None)
@given(who=st.sampled_from(["someone", "anyone", "you", "one of you"]),
       ask=st.sampled_from(["ring the Park Authority about the car park at Pont ar Daf",
                            "email the hall committee about the broken oven",
                            "chase the printers for the new programme proofs"]),
       after=st.sampled_from(["", " last time it was full and we couldn't turn."]),
       took=st.sampled_from(["I'll ring them Wednesday", "Sure, I'll do it today", "I'll chase that tomorrow",
                             "ok I'll sort it"]))
def test_taking_on_a_request_by_a_pronoun_writes_the_request(model, who, ask, after, took):
    """A request put to the room ("can someone ring the Park Authority about…?") taken on with
    a pronoun for its object ("I'll ring them Wednesday") is the taker's step, written with what
    was asked; no sentence in two fields."""
    summary = offline_summary(*_OPENING, f"Sian: can {who} {ask}?{after}", f"Gareth: {took}", model=model)[0]
    steps = [x for x in [*summary.next_steps, *summary.action_items] if x.startswith("Gareth: ")]
    assert any(x.startswith("Gareth: " + ask[:1].upper() + ask[1:]) for x in steps), summary
    keys = [strip_owner(x).lower() for x in _items(summary)]
    assert len(keys) == len(set(keys))


_ASKED = "Carys: do we stop taking in healthy underweights and send finders home with feeding advice?"


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=40, deadline=None)
@given(hand=st.sampled_from(["let's bring it to the trustees on Tuesday", "let's take it to the committee on the 9th",
                             "let's raise it at the March review", "raise it at the March review",
                             "let's ask the volunteers at the meeting on the 12th",
                             "let's check with the vet at Friday's clinic"]),
       tail=st.sampled_from(["", ", it's their call really", "."]))
def test_handing_a_question_on_is_a_step_and_leaves_it_open(model, hand, tail):
    """A question answered by handing it to someone else or a later meeting ("let's bring it to
    the trustees on Tuesday", "let's ask the volunteers at the meeting on the 12th") stays open,
    and the hand-on is a step of the group, not a decision."""
    summary = offline_summary(_ASKED, f"Ben: {hand}{tail}", model=model)[0]
    assert any(x.startswith("Do we stop taking in healthy underweights") for x in summary.open_questions), summary
    assert any(hand.split(" ", 2)[-1].split()[0] in x.lower() for x in summary.next_steps), summary
    assert not summary.decisions, summary


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("took", ["ok, I'll send them a quick poll.", "I'll email their contact today."])
def test_a_hand_on_taken_up_is_the_takers_step_alone(model, took):
    summary = offline_summary(_ASKED, "Ben: let's ask the volunteers first.", f"Carys: {took}", model=model)[0]
    assert not summary.next_steps, summary
    assert any(x.startswith("Carys: ") for x in summary.action_items), summary


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=40, deadline=None)
@given(cue=st.sampled_from(["Make sure", "Also make sure", "Next time,", "So next time,"]),
       step=st.sampled_from(["lift the nursery pot out and check for standing water",
                             "the plans for both states show zero destroys before applying",
                             "the parking rule is in your Booking.com listing"]),
       before=st.sampled_from(["", "That is root rot from overwatering. "]))
def test_make_sure_or_next_time_in_a_short_answer_is_the_users_step(model, cue, step, before):
    """The assistant's "Make sure …" or "Next time, …" in a short answer is the user's step (as
    "Remember to …" is); in a long answer, one piece of advice among many, it is not."""
    ask = "user: my fiddle leaf fig has brown patches in the middle of the lower leaves, what now?"
    summary = offline_summary(ask, f"assistant: {before}{cue} {step}.", model=model)[0]
    steps = [x for x in summary.action_items if x.startswith("user: ")]
    assert any(step.split()[1] in x for x in steps), summary
    long = " ".join(f"Point {n} is about the light in the room." for n in range(5))
    summary = offline_summary(ask, f"assistant: {long} {cue} {step}.", model=model)[0]
    assert not any(step.split()[1] in x for x in summary.action_items), summary
