"""Session 21: decisions taken by a later turn (the offline backend, both ways it runs: the
patterns alone and with the shipped sentence model). Every conversation is written for these
tests."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import LISTS
from memlane.bench.summaries.score import dice, is_small_talk, strip_owner, tokens
from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _summary(turns, model):
    return offline_summary(*(f"{who}: {text}" for who, text in turns), model=model)[0]


def _has(items, text):
    """Whether an item of ``items`` matches ``text`` by the bench's rule (Dice >= 0.5)."""
    return any(dice(tokens(x), tokens(text)) >= 0.5 for x in items)


# 1. A proposal asked as a question and answered by a bare yes is the decision.


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("question", "answer", "decided"), [
    ("Pause the spring newsletter until the new template is done?", "Yes.",
     "Pause the spring newsletter until the new template is done"),
    ("Can we move the choir rehearsal to the church hall on Wednesdays?", "yep, much warmer in there",
     "Move the choir rehearsal to the church hall on Wednesdays"),
    ("Cap the raffle tickets at 300 this year?", "Yeah, 300 is plenty.",
     "Cap the raffle tickets at 300 this year"),
])
def test_a_question_answered_by_a_bare_yes_is_the_decision(model, question, answer, decided):
    summary = _summary([
        ("Nadia", "Quick one about the autumn fair before Thursday."),
        ("Bram", f"The printer needs the artwork by Friday. {question}"),
        ("Nadia", answer),
    ], model)
    assert _has(summary.decisions, decided), summary
    assert not _has(summary.open_questions, decided), summary


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("question", "answer"), [
    # a question put to someone, a tag question, a question of fact, one asking which
    ("Tomasz, can you book the minibus for the away game?", "Yes."),
    ("We booked the minibus for the away game, right?", "Yes."),
    ("Is the minibus for the away game still booked for Saturday?", "Yes."),
    ("Did the club already pay the minibus deposit for Saturday?", "Yep."),
    ("Minibus or two cars for the away game on Saturday?", "Yes."),
    # the yes takes the task on: a step, not a decision
    ("Somebody should book the minibus for the away game?", "Yes, I'll do it tonight."),
    # a yes with a but
    ("Book the minibus for the away game on Saturday?", "Yes but only if the deposit is under fifty."),
])
def test_a_yes_to_a_question_that_proposes_nothing_decides_nothing(model, question, answer):
    summary = _summary([
        ("Lena", "Away game admin."),
        ("Ravi", question),
        ("Lena", answer),
    ], model)
    assert not _has(summary.decisions, question.rstrip("?")), summary


@pytest.mark.parametrize("model", WAYS)
def test_a_yes_with_the_assistant_is_read_as_before(model):
    """With the assistant the user's questions are requests: the rule reads people's talk only."""
    summary = _summary([
        ("user", "Cancel the Thursday grocery delivery for me?"),
        ("assistant", "Yes, I can do that. Your Thursday delivery is cancelled and the slot released."),
    ], model)
    assert not _has(summary.decisions, "Cancel the Thursday grocery delivery for me"), summary


_WORDS = st.sampled_from([
    "Yes.", "yep", "Yeah", "yes but", "Pause", "the", "newsletter", "?", "Tomasz,", "right?",
    "Is", "Can we", "move", "rehearsal", "I'll", "do it", "or", "Agreed.", "ok", "you",
])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Ana", "Ben", "Cy"]),
                          st.lists(_WORDS, min_size=1, max_size=8).map(" ".join)),
                min_size=2, max_size=6))
def test_yes_answers_never_put_small_talk_or_one_sentence_in_two_fields(turns):
    for model in WAYS:
        summary = _summary(turns, model)
        seen: dict[str, str] = {}
        for name in LISTS:
            for item in getattr(summary, name):
                assert not is_small_talk(item), (name, item)
                key = strip_owner(item).strip().lower()
                assert seen.setdefault(key, name) == name, (name, item)


# 2. A question a peer answers "probably / maybe / love that…, but…" stays open.


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", [
    "Probably, but that's a bigger conversation with the board.",
    "Maybe, but the hall is booked most evenings till June.",
    "Love that, but let's get the kit installed before anything else.",
    "Good idea in theory, but nobody has the time this month.",
])
def test_a_question_a_peer_leans_yes_on_and_puts_off_stays_open(model, answer):
    summary = _summary([
        ("Ines", "The defibrillator arrives on Monday and Gareth fits it on Wednesday."),
        ("Ines", "Should we run a free first aid evening for the village as well?"),
        ("Owen", answer),
    ], model)
    assert _has(summary.open_questions, "Should we run a free first aid evening for the village?"), summary


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", [
    "Yes, let's book the village hall for it.",
    "Probably the village hall, it has the projector.",
])
def test_a_question_answered_outright_is_not_left_open(model, answer):
    summary = _summary([
        ("Ines", "The defibrillator arrives on Monday and Gareth fits it on Wednesday."),
        ("Ines", "Should we run a free first aid evening for the village as well?"),
        ("Owen", answer),
    ], model)
    assert not _has(summary.open_questions, "Should we run a free first aid evening for the village?"), summary
