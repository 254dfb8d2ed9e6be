"""Session 22: a request taken up by a bare "yes", and a choice said as where a thing goes
(the offline backend, both ways it runs: the patterns alone and with the shipped sentence
model). Every conversation is written for these tests."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.score import dice, is_small_talk, strip_owner, tokens
from memlane.testing import checked_summary, offline_summary

WAYS = [None, "shipped"]


def _summary(turns, model):
    return offline_summary(*(f"{who}: {text}" for who, text in turns), model=model)[0]


def _has(items, text):
    """Whether an item of ``items`` matches ``text`` by the bench's rule (Dice >= 0.5)."""
    return any(dice(tokens(strip_owner(x)), tokens(text)) >= 0.5 for x in items)


def _steps(summary):
    return [*summary.next_steps, *summary.action_items]


# A request put to a participant without a comma or question mark, taken up by a bare "yes".


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("asked, answer, step", [
    ("Nadia can you label the sample boxes in the cold room today", "yep", "Label the sample boxes in the cold room"),
    ("Nadia send the sample list to Kestrel Labs today", "on it", "Send the sample list to Kestrel Labs"),
    ("the freezer log is a mess, can you label the sample boxes in the cold room", "will do after lunch",
     "Label the sample boxes in the cold room"),
])
def test_a_request_taken_up_by_a_bare_yes_is_the_answerers_step(model, asked, answer, step):
    summary = _summary([
        ("Tobias", "freezer 2 is back to minus 80 since this morning"),
        ("Nadia", "good, the engineer said the compressor was fine"),
        ("Tobias", asked),
        ("Nadia", answer),
    ], model)
    steps = _steps(summary)
    assert _has(steps, step), summary
    assert _has([x for x in summary.action_items if x.startswith("Nadia: ")], step), summary


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("asked, answer", [
    ("Nadia can you do that today", "yep"),  # says nothing of its own
    ("Nadia can you label the boxes or the racks", "yep"),  # a choice
    ("Nadia can you label the sample boxes in the cold room today", "not today, sorry"),  # turned down
    ("Would you like to share the chilli recipe with the lab?", "yes"),  # an invitation (LoCoMo)
])
def test_no_step_from_a_request_that_says_nothing_or_is_not_taken_up(model, asked, answer):
    summary = _summary([
        ("Tobias", "freezer 2 is back to minus 80 since this morning"),
        ("Nadia", "good, the engineer said the compressor was fine"),
        ("Tobias", asked),
        ("Nadia", answer),
    ], model)
    assert not any(x.startswith("Nadia: ") for x in summary.action_items), summary


# A choice said as where a thing goes, moves or stays.


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said, decision", [
    ("the quilt goes in the front window", "Put the quilt in the front window"),
    ("Pottery moves to the back room.", "Move the pottery to the back room"),
    ("the raffle waits till next month", "The raffle waits until next month"),
])
def test_where_a_thing_goes_is_a_decision(model, said, decision):
    summary = _summary([
        ("Odile", "the craft fair stalls arrive friday and we open saturday at ten"),
        ("Bram", "where do the quilt and the pottery go this year"),
        ("Odile", said),
        ("Bram", "ok, I'll print the stall map tonight"),
    ], model)
    assert _has(summary.decisions, decision), summary


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", [
    "It goes to the printer every Monday.",  # a pronoun: how things are
    "Prices go up next week.",  # what happens, not a choice
    "They can move to the back room.",  # a modal: an option
    "Can't wait to see the quilt in the window!",  # a feeling (LoCoMo)
    "I'm gonna stay in the back room with the pottery.",  # the speaker's plan, not where a thing goes
])
def test_what_happens_is_no_decision(model, said):
    summary = _summary([
        ("Odile", "the craft fair stalls arrive friday and we open saturday at ten"),
        ("Bram", "the flyer is nearly ready"),
        ("Odile", said),
        ("Bram", "ok, I'll print the stall map tonight"),
    ], model)
    assert not _has(summary.decisions, said), summary


_WORDS = ["Nadia", "Tobias", "can", "you", "label", "the", "boxes", "goes", "in", "moves", "to", "stays",
          "yep", "on it", "will do", "or", "today", "it", "window", "log", "case", "4", ",", "?", "."]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Nadia", "Tobias", "Odile"]),
                          st.lists(st.sampled_from(_WORDS), min_size=1, max_size=9)),
                min_size=2, max_size=6))
def test_the_new_shapes_never_raise_nor_write_small_talk_or_one_sentence_twice(turns):
    lines = [f"{who}: {' '.join(words)}" for who, words in turns]
    summary = checked_summary(None, *lines)
    seen: dict[str, str] = {}
    for name in ("decisions", "rationale", "open_questions", "next_steps", "action_items"):
        for item in getattr(summary, name):
            assert not is_small_talk(strip_owner(item))
            key = strip_owner(item).strip().lower()
            assert seen.setdefault(key, name) == name, (item, seen[key], name)


# The user taking up the assistant's suggestion without saying it again.


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("suggestion, answer, step", [
    ("You could ask the shop to keep the old brake pads so you can see the wear.", "good shout, will ask",
     "Ask the shop to keep the old brake pads"),
    ("After the upgrade I'd compare the page load times on the staging site.", "yep will do that after",
     "Compare the page load times on the staging site after the upgrade"),
])
def test_a_suggestion_taken_up_in_other_words_is_the_users_step(model, suggestion, answer, step):
    summary = _summary([
        ("user", "the bike shop says my brakes need new pads and discs, quote is £140"),
        ("assistant", "That's a normal price for pads and discs on both wheels. " + suggestion),
        ("user", answer),
    ], model)
    assert _has([x for x in summary.action_items if x.startswith("user: ")], step), summary


@pytest.mark.parametrize("model", WAYS)
def test_a_step_in_its_own_words_is_left_as_said(model):
    summary = _summary([
        ("user", "the bike shop says my brakes need new pads and discs, quote is £140"),
        ("assistant", "That's a normal price for pads and discs on both wheels. "
                      "You could ask the shop to keep the old brake pads so you can see the wear."),
        ("user", "ok I'll check the Halfords price first"),
    ], model)
    assert not _has(summary.action_items, "Ask the shop to keep the old brake pads"), summary


# "Then that's our plan: …" and "Then the X is <done> …": a conclusion.


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said, decision", [
    ("Then that's our plan: the minibus leaves at eight and the canoes go on the trailer.",
     "The minibus leaves at eight and the canoes go on the trailer"),
    ("Then the spare paddles are reserved for the juniors, nobody else.", "Reserve the spare paddles for the juniors"),
])
def test_a_then_thats_conclusion_is_a_decision(model, said, decision):
    summary = _summary([
        ("Wiebke", "the river trip is on the 14th and we have twelve paddlers"),
        ("Lorcan", "the juniors keep losing paddles and the minibus only fits ten"),
        ("Wiebke", said),
        ("Lorcan", "the forecast says dry all day on the 14th"),
    ], model)
    assert _has(summary.decisions, decision), summary


@pytest.mark.parametrize("model", WAYS)
def test_a_hedged_then_is_no_decision(model):
    summary = _summary([
        ("Wiebke", "the river trip is on the 14th and we have twelve paddlers"),
        ("Lorcan", "the juniors keep losing paddles and the minibus only fits ten"),
        ("Wiebke", "Then the spare paddles would be wasted on the juniors."),
        ("Lorcan", "hmm"),
    ], model)
    assert not _has(summary.decisions, "Then the spare paddles would be wasted on the juniors"), summary
