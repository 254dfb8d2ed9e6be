"""Session 22: a question whose answer trails off after its first sentence ("… next time
maybe", "… honestly don't know") among people, and a user's question the assistant says it
cannot settle ("I can't guarantee…", "It depends on whether…"), stay open (the offline
backend, both ways it runs: the patterns alone and with the shipped sentence model). Every
conversation is written for these tests."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.score import dice, is_small_talk, strip_owner, tokens
from memlane.testing import checked_summary, offline_summary

WAYS = [None, "shipped"]
FIELDS = ("decisions", "rationale", "open_questions", "next_steps", "action_items")


def _summary(turns, model):
    return offline_summary(*(f"{who}: {text}" for who, text in turns), model=model)[0]


def _has(items, text):
    """Whether an item of ``items`` matches ``text`` by the bench's rule (Dice >= 0.5)."""
    return any(dice(tokens(strip_owner(x)), tokens(text)) >= 0.5 for x in items)


def _once(summary):
    """No sentence in two fields."""
    seen = [strip_owner(x).lower() for f in FIELDS for x in getattr(summary, f)]
    assert len(seen) == len(set(seen)), summary


# Among people: the answer's first sentence says something, a later one shrugs or puts off.


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("asked, answer", [
    ("do we want to hire a photographer for the open day?", "needs a budget line and someone to chase them. next time maybe"),
    ("is the gate by the compost bays ours or the council's?", "i always assumed ours but the lease might say. honestly don't know"),
    ("are we entering the best kept village award too?", "hmm. if there's time. probably not"),
    ("can the small van carry all the trestle tables?", "maybe in two trips. not sure about the benches, they're long"),
])
def test_a_question_whose_answer_trails_off_stays_open(model, asked, answer):
    summary = _summary([
        ("Marta", "the open day is on the 14th, the hall is booked from 9"),
        ("Owen", "good, the posters went up at the library yesterday"),
        ("Marta", asked),
        ("Owen", answer),
        ("Marta", "ok. I'll send the rota round tonight"),
    ], model)
    assert _has(summary.open_questions, asked), summary
    _once(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("asked, answer", [
    ("can the small van carry all the trestle tables?", "yes, I did it last year. it takes two trips"),  # answered
    ("Owen can you ask the council about the gate?", "sure. honestly don't know who to ring though"),  # a request
    ("who's bringing the urn?", "me. the tea is sorted too"),  # answered
])
def test_an_answered_question_or_a_request_is_not_left_open(model, asked, answer):
    summary = _summary([
        ("Marta", "the open day is on the 14th, the hall is booked from 9"),
        ("Owen", "good, the posters went up at the library yesterday"),
        ("Marta", asked),
        ("Owen", answer),
    ], model)
    assert not _has(summary.open_questions, asked), summary
    _once(summary)


@pytest.mark.parametrize("model", WAYS)
def test_a_question_to_the_assistant_is_not_read_as_a_peer_shrug(model):
    # With the assistant the user's own later "not sure" is not the answer of a peer.
    summary = _summary([
        ("user", "is the 8:10 train to Leeds usually on time?"),
        ("assistant", "It's usually on time on weekdays. Delays happen mostly in winter."),
        ("user", "ok great. not sure about the way back though"),
    ], model)
    assert not _has(summary.open_questions, "is the 8:10 train to Leeds usually on time?"), summary


# With the assistant: the answer says it cannot settle the question.


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("asked, answer", [
    ("will the replacement mug be the same glaze colour?",
     "I can't guarantee the glaze from here, I'm afraid. I've added a note asking the warehouse to match it."),
    ("is a new saddle even worth it on a £150 bike?",
     "For many riders it's the cheapest way to make long rides comfortable. "
     "It depends on whether you plan to keep the bike for long."),
    ("would caching the lookups help the nightly export too?",
     "It usually does, but each worker needs its own cache. Whether it's worth it at 200 rows depends on how slow the lookups are."),
])
def test_a_question_the_assistant_cannot_settle_stays_open(model, asked, answer):
    summary = _summary([
        ("user", "quick one about my order from last week"),
        ("assistant", "Of course, what would you like to know?"),
        ("user", asked),
        ("assistant", answer),
        ("user", "ok thanks"),
    ], model)
    assert _has(summary.open_questions, asked), summary
    _once(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("asked, answer", [
    ("will the replacement mug be the same glaze colour?", "Yes, the warehouse keeps one glaze batch per season."),
    ("can you tell me when it ships?", "I can't say the exact hour, but it ships tomorrow."),  # a request
    ("does the order ship from the Leeds warehouse?", "Yes, from Leeds. I can't tell you more than that, it's all the tracking shows."),
])
def test_an_answered_question_or_a_request_to_the_assistant_is_not_left_open(model, asked, answer):
    summary = _summary([
        ("user", "quick one about my order from last week"),
        ("assistant", "Of course, what would you like to know?"),
        ("user", asked),
        ("assistant", answer),
    ], model)
    assert not _has(summary.open_questions, asked), summary


@pytest.mark.parametrize("model", WAYS)
def test_small_talk_between_friends_is_no_open_question(model):
    # LoCoMo-like chat: questions between friends, answered; nothing is open.
    summary = checked_summary(
        model,
        "Caroline: hey! how was the hike on sunday?",
        "Melanie: amazing, the view from the top was unreal. you should come next time!",
        "Caroline: did you see any deer?",
        "Melanie: two of them near the lake. so cute",
    )
    assert not summary.open_questions, summary


# An either-or question among people written without its question mark.


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("asked", [
    "should we get the matching side table or not",
    "separate q, is it worth switching the club to Spond for this or is that a rabbit hole",
])
def test_an_either_or_question_without_its_mark_is_read_as_a_question(model, asked):
    summary = _summary([
        ("Freya", "the sofa comes on the 12th, they'll take the old one away"),
        ("Tom", "great, I'll clear the hallway the night before"),
        ("Freya", asked),
        ("Tom", "let's see how much space there is first"),
    ], model)
    assert _has(summary.open_questions, asked), summary
    _once(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said, answer", [
    ("should we get the matching side table or not", "yes, get it, it's only £60"),  # answered
    ("we should get the matching side table", "let's see how much space there is first"),  # no "or": a proposal
])
def test_no_open_question_from_an_answered_or_unmarked_proposal(model, said, answer):
    summary = _summary([
        ("Freya", "the sofa comes on the 12th, they'll take the old one away"),
        ("Tom", "great, I'll clear the hallway the night before"),
        ("Freya", said),
        ("Tom", answer),
    ], model)
    assert not _has(summary.open_questions, said), summary
    _once(summary)


# A question passed on ("X asked whether…") or still to look into ("we need to look at whether…").


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said, question", [
    ("The editor also asked whether the second map could be redrawn in colour.", "Could the second map be redrawn in colour?"),
    ("and we need to look at whether the cleaning contract's worth it if they skip two weeks every time",
     "Is the cleaning contract worth it if they skip two weeks every time?"),
])
def test_a_question_passed_on_or_to_look_into_is_open(model, said, question):
    summary = _summary([
        ("Ines", "the proofs came back this morning, mostly fine"),
        ("Karl", said),
        ("Ines", "ok, I'll send the corrections round by Friday"),
    ], model)
    assert _has(summary.open_questions, question), summary
    _once(summary)


@pytest.mark.parametrize("model", WAYS)
def test_a_request_to_the_assistant_in_a_wondering_if_is_no_open_question(model):
    summary = _summary([
        ("user", "I just bought a green linen jacket for the summer."),
        ("assistant", "Linen is a great choice for warm weather."),
        ("user", "I was wondering if you could give me outfit ideas to pair it with."),
        ("assistant", "Try it with white trousers and loafers, or over a striped tee with jeans."),
    ], model)
    assert not summary.open_questions, summary


_WORDS = st.sampled_from(["next time maybe", "probably not", "honestly don't know", "if there's time",
                          "not sure", "I can't guarantee that", "It depends on whether it rains",
                          "dunno", "yes", "ok", "the van", "Owen", "?", ".", "can you", "maybe"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(_WORDS, min_size=1, max_size=6).map(" ".join), min_size=2, max_size=5),
       st.booleans())
def test_shapes_never_raise_nor_place_small_talk_or_twice(lines, assisted):
    who = ["user", "assistant"] if assisted else ["Marta", "Owen"]
    turns = [f"{who[i % 2]}: {x}" for i, x in enumerate(lines)]
    summary, _ = offline_summary(*turns, model=None)
    for f in FIELDS:
        assert not any(is_small_talk(x) for x in getattr(summary, f)), (f, summary)
    _once(summary)
