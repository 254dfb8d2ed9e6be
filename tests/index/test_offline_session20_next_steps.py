"""Session 20: next steps and action items (the offline backend, both ways it runs: the
patterns alone and with the shipped sentence model). Every conversation is written for these
tests."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.score import dice, is_small_talk, tokens
from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _summary(turns, model):
    return offline_summary(*(f"{who}: {text}" for who, text in turns), model=model)[0]


def _steps(summary):
    return [*summary.next_steps, *summary.action_items]


def _has(items, text):
    """Whether an item of ``items`` matches ``text`` by the bench's rule (Dice >= 0.5)."""
    return any(dice(tokens(x.split(": ", 1)[-1]), tokens(text)) >= 0.5 for x in items)


# 1. The assistant's "please <do>" after a clause that says when or why is the user's step.


@pytest.mark.parametrize("model", WAYS)
def test_please_after_a_why_clause_is_the_users_step(model):
    summary = _summary([
        ("user", "Can I still change my seat on the Vienna flight tomorrow?"),
        ("assistant", "Seat changes close 24 hours before departure, so please pick your seat in the app "
                      "before 10am today."),
        ("user", "Ok, thanks."),
    ], model)
    assert _has(_steps(summary), "Pick your seat in the app before 10am today"), summary


@pytest.mark.parametrize("model", WAYS)
def test_please_after_a_when_clause_is_the_users_step(model):
    summary = _summary([
        ("user", "How do I hand back the loan laptop when my contract ends?"),
        ("assistant", "When your contract ends, please return the laptop to the IT desk on floor 3 "
                      "with its charger."),
        ("user", "Got it."),
    ], model)
    assert _has(_steps(summary), "Return the laptop to the IT desk on floor 3 with its charger"), summary
    assert "When your contract ends" not in " ".join(_steps(summary)), summary


@pytest.mark.parametrize("model", WAYS)
def test_please_asking_for_the_conversation_after_a_clause_is_still_no_step(model):
    summary = _summary([
        ("user", "My parcel never arrived."),
        ("assistant", "Sorry about that, please provide your order number."),
        ("user", "It's 55120."),
    ], model)
    assert not _has(_steps(summary), "Provide your order number"), summary


# 2. A stand-up's "today" and what follows it is the speaker's step.

_STANDUP = [
    ("Hamid", "Morning, quick round please."),
    ("Lucia", "Yesterday I closed the billing export ticket; today I'm on the invoice reminder emails."),
    ("Tomasz", "Today the load balancer certificates for the staging cluster."),
    ("Efua", "Today it's the onboarding checklist for the two new warehouse starters."),
    ("Hamid", "Thanks all."),
]


@pytest.mark.parametrize("model", WAYS)
def test_today_after_a_semicolon_is_the_speakers_step(model):
    items = _summary(_STANDUP, model).action_items
    assert any(x.startswith("Lucia:") and _has([x], "Invoice reminder emails today") for x in items), items


@pytest.mark.parametrize("model", WAYS)
def test_today_and_a_thing_is_the_speakers_step(model):
    items = _summary(_STANDUP, model).action_items
    assert any(x.startswith("Tomasz:") and _has([x], "Load balancer certificates for the staging cluster")
               for x in items), items
    assert any(x.startswith("Efua:") and _has([x], "Onboarding checklist for the two new warehouse starters")
               for x in items), items


@pytest.mark.parametrize("model", WAYS)
def test_todays_weather_or_a_question_is_no_step(model):
    summary = _summary([
        ("Ana", "Today the weather at the depot is awful, by the way."),
        ("Rui", "Today the van or the bikes for the Lisbon run?"),
        ("Ana", "Bikes."),
    ], model)
    assert not _has(_steps(summary), "The weather at the depot is awful"), summary
    assert not _has(_steps(summary), "The van or the bikes for the Lisbon run"), summary


# 3. "I'll ask X" answering a question is written with the question it answers.


@pytest.mark.parametrize("model", WAYS)
def test_ill_ask_someone_is_written_with_the_question_it_answers(model):
    items = _summary([
        ("Nadia", "Allotment open day is on the 21st, stalls are sorted."),
        ("Gareth", "Can the scout hut lend us their trestle tables for the day?"),
        ("Nadia", "I'll ask Bronwen tonight."),
        ("Gareth", "Great."),
    ], model).action_items
    assert any(x.startswith("Nadia:") and "Bronwen" in x and "trestle tables" in x for x in items), items


@pytest.mark.parametrize("model", WAYS)
def test_ill_check_with_someone_after_a_question_in_the_same_turn(model):
    items = _summary([
        ("Ola", "The printer quote came in at 340 for the flyers."),
        ("Marek", "Does that include delivery to the hall? Not sure, I'll check with Danuta."),
        ("Ola", "Thanks."),
    ], model).action_items
    assert any(x.startswith("Marek:") and "Danuta" in x and "delivery to the hall" in x for x in items), items


@pytest.mark.parametrize("model", WAYS)
def test_ill_ask_with_what_said_or_after_no_question_stays_as_said(model):
    items = _summary([
        ("Ola", "The hall is booked for the 3rd."),
        ("Marek", "I'll ask Danuta about the chairs."),
        ("Ola", "Did the flyers come?"),
        ("Marek", "Yes, and I'll email Piotr today about the raffle prizes."),
    ], model).action_items
    assert any(x == "Marek: I'll ask Danuta about the chairs." for x in items), items
    assert not any("—" in x for x in items), items


# 4. "…, and someone has to <do>" after a clause is a next step, as at a sentence's start.


@pytest.mark.parametrize("model", WAYS)
def test_someone_has_to_after_a_clause_is_a_next_step(model):
    summary = _summary([
        ("Bea", "Stock check done for the shop."),
        ("Cal", "The gift cards expire on the 30th, and someone has to email the 40 holders about it this week."),
        ("Bea", "Noted."),
    ], model)
    assert _has(summary.next_steps, "Email the 40 gift card holders this week about the expiry"), summary


@pytest.mark.parametrize("model", WAYS)
def test_someone_has_to_do_that_after_a_clause_is_no_step(model):
    summary = _summary([
        ("Bea", "Stock check done for the shop."),
        ("Cal", "And the window display for May, someone needs to sort that, it takes a full day."),
        ("Bea", "Noted."),
    ], model)
    assert not any("sort that" in x.lower() for x in _steps(summary)), summary


# 5. "I can have … / I can borrow …" among people is the speaker's task.


@pytest.mark.parametrize("model", WAYS)
def test_i_can_have_it_in_review_is_the_speakers_task(model):
    items = _summary([
        ("Noor", "The crash is in the photo picker, 2% of sessions on Android 14."),
        ("Jakub", "I can have the 7.2.1 hotfix in review by 4pm."),
        ("Noor", "Great, thanks."),
    ], model).action_items
    assert any(x.startswith("Jakub:") and _has([x], "Have the 7.2.1 hotfix in review by 4pm") for x in items), items


@pytest.mark.parametrize("model", WAYS)
def test_i_can_borrow_is_the_speakers_task(model):
    items = _summary([
        ("Eira", "We're short of gazebos for the fete, only two left."),
        ("Huw", "I can borrow three gazebos from the rugby club, they lent us some in June."),
        ("Eira", "Perfect."),
    ], model).action_items
    assert any(x.startswith("Huw:") and _has([x], "Borrow three gazebos from the rugby club") for x in items), items


# 6. A stand-up in shorthand ("t: …", "me: …", "blocker: …") is the speaker's step, a blocker the team's.

_SHORTHAND = [
    ("Ruth", "standup, go"),
    ("Olu", "y: finished the refund export. t: starting on the SEPA mandate screens, PAY-412"),
    ("Mira", "ok. me: pairing with Olu on PAY-412, then the fraud rules review at 3"),
    ("Olu", "blocker: need someone with admin rights to rotate the Stripe webhook secret"),
    ("Ruth", "thanks"),
]


@pytest.mark.parametrize("model", WAYS)
def test_today_in_shorthand_is_the_speakers_step(model):
    items = _summary(_SHORTHAND, model).action_items
    assert any(x.startswith("Olu:") and _has([x], "Start on the SEPA mandate screens, PAY-412") for x in items), items
    assert any(x.startswith("Mira:") and _has([x], "Pair with Olu on PAY-412, then the fraud rules review at 3")
               for x in items), items
    assert not any("refund export" in x for x in items), items


@pytest.mark.parametrize("model", WAYS)
def test_a_blocker_in_shorthand_is_a_next_step(model):
    summary = _summary(_SHORTHAND, model)
    assert _has(_steps(summary), "Rotate the Stripe webhook secret, someone with admin rights"), summary


# The new shapes on any text: no error, no item without a content word, no sentence in two fields.

_WORDS = st.sampled_from("t: me: blocker: today Today the it's I'll ask ring them Fergus ? . , ; "
                         "please so when someone has to and I can have borrow review by 3pm".split())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_WORDS, min_size=1, max_size=14).map(" ".join), min_size=1, max_size=5))
# a tag heading a tag's text (session 48): Bo's blocker was written "T: today …" and Ann's step
# "Today …", one sentence in two fields once the tag is read past
@example(["blocker: t: today t: t: t: blocker: t: t:", "t: t: t: . t: today t: t: t: blocker: t: t:"])
def test_the_new_shapes_on_any_text_write_no_empty_or_doubled_item(texts):
    turns = [("Ann" if i % 2 else "Bo", t) for i, t in enumerate(texts)]
    summary = _summary(turns, None)
    fields = [summary.decisions, summary.rationale, summary.open_questions, summary.next_steps,
              summary.action_items]
    assert not any(is_small_talk(x) for f in fields for x in f), summary
    keys = [{x.split(": ", 1)[-1].strip().lower() for x in f} for f in fields]
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            assert not a & b, summary
