"""Session 21's facts rules (docs/summary-eval.md, "Session 21: facts"): what the first-person
patterns no longer write as a user's fact, on conversations written for these tests, and what
they still write beside it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary


def _facts(*turns: str, model: object = "shipped") -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in offline_summary(*turns, model=model)[1].facts
            if f.predicate not in ("decided", "suggested", "did", "stated")}


@pytest.mark.parametrize("model", ["shipped", None])
def test_my_x_is_a_passing_state_is_no_fact(model):
    facts = _facts(
        "user: My neck is cold.",
        "assistant: A scarf will help.",
        "user: My fingers are still sore after practice.",
        "assistant: That passes in a week or two.",
        "user: My current one is getting rather tatty.",
        "assistant: A new bag then.",
        "user: I'm trying to plan my day and was wondering about tips.",
        "assistant: Start with the hardest task.",
        "user: My family is amazing. My art is important to me. My first question is I'm new to retail.",
        "assistant: Lovely.",
        model=model,
    )
    assert facts == set()


@pytest.mark.parametrize("model", ["shipped", None])
def test_my_x_is_a_lasting_value_is_still_a_fact(model):
    facts = _facts(
        "user: My budget is around $75.",
        "assistant: Plenty of choice there.",
        "user: My laptop is a Lenovo ThinkPad T14 from 2018.",
        "assistant: It has two USB ports.",
        "user: My garam masala is a blend.",
        "assistant: Fine, then.",
        "user: My date of birth is 12 May 1990.",
        "assistant: Noted.",
        model=model,
    )
    assert {("user", "budget", "around $75"), ("user", "laptop", "Lenovo ThinkPad T14 from 2018"),
            ("user", "garam_masala", "blend"), ("user", "date_of_birth", "12 May 1990")} <= facts


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["neck", "kitchen", "car", "closet", "hair"]),
       st.sampled_from(["still cold", "getting cluttered", "awesome", "quite high", "starting to fade",
                        "really old", "full of boxes", "what went wrong"]))
def test_no_passing_state_of_any_thing_is_a_fact(thing, state):
    facts = _facts(f"user: My {thing} is {state}.", "assistant: I see.", model=None)
    assert not any(p == thing for _, p, _ in facts)


@pytest.mark.parametrize("model", ["shipped", None])
def test_getting_back_paged_or_a_notice_acquires_nothing(model):
    facts = _facts(
        "user: I just got back from a trip to Snowdonia.",
        "assistant: Welcome back.",
        "user: I got paged at 2am again. I got a penalty fare on Tuesday.",
        "assistant: That is a rough week.",
        "user: The blouse I bought at Sephora is lovely. I got to meet the founder.",
        "assistant: Nice.",
        model=model,
    )
    assert not any(p == "acquired" for _, p, _ in facts), facts
    assert ("user", "visited", "trip to Snowdonia") in facts  # been there: a visit, not a purchase


@pytest.mark.parametrize("model", ["shipped", None])
def test_buying_a_thing_is_still_acquiring_it(model):
    facts = _facts(
        "user: I recently bought a Pixel 8 Pro.",
        "assistant: A good phone.",
        "user: I got a new router from my ISP. The guitar is a Yamaha I bought used.",
        "assistant: Noted.",
        model=model,
    )
    assert {("user", "acquired", "Pixel 8 Pro"), ("user", "acquired", "new router from my ISP"),
            ("user", "acquired", "used")} <= facts


@pytest.mark.parametrize("model", ["shipped", None])
def test_liking_what_was_just_said_is_no_preference(model):
    facts = _facts(
        "user: Any ideas for the display?",
        "assistant: A walnut frame, or a shadow box.",
        "user: I like the idea of a walnut frame. I like those tips!",
        "assistant: Or a third option: a floating shelf.",
        "user: I love how it looks. I like the third option. I love your suggestions.",
        "assistant: Glad to help.",
        model=model,
    )
    assert not any(p == "likes" for _, p, _ in facts), facts


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_stated_preference_is_still_a_fact(model):
    facts = _facts(
        "user: I prefer Python over Scala. I love basil.",
        "assistant: Noted.",
        "user: I like village building games.",
        "assistant: Try Townscaper.",
        model=model,
    )
    assert {("user", "likes", "Python over Scala"), ("user", "likes", "basil"),
            ("user", "likes", "village building games")} <= facts


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_named_things_amount_or_count_is_a_fact_of_that_thing(model):
    facts = _facts(
        "Dana: The orders table has about 40M rows.",
        "Lee: And the kit fund is £310.",
        "Dana: Yesterday's outage lasted 47 minutes. The 7-day pass costs 50,000 yen.",
        "Lee: The boiler's about 17 years old.",
        model=model,
    )
    assert {("orders table", "rows", "has about 40M rows"), ("kit fund", "amount", "is £310"),
            ("Yesterday's outage", "minutes", "lasted 47 minutes"),
            ("boiler", "years", "is about 17 years old")} <= facts
    assert any(s.endswith("7-day pass") and p == "yen" and o == "costs 50,000 yen" for s, p, o in facts)


@pytest.mark.parametrize("model", ["shipped", None])
def test_no_amount_is_read_from_an_instruction_a_plan_or_a_pasted_text(model):
    pasted = ("Here is the article: " + "Marta is the all-time league scoring leader with 4,812 points. " * 12)
    facts = _facts(
        "user: Assume the down payment is 50%.",
        "assistant: Then the loan is smaller.",
        "user: Maybe the fee is 300 euros, I'll check. Is the quote £600?",
        "assistant: Ask them.",
        f"user: {pasted}",
        "assistant: A summary follows.",
        model=model,
    )
    assert not any(p in ("amount", "points") for _, p, _ in facts), facts


def test_a_new_amount_of_the_same_thing_supersedes_the_older(mem):
    from datetime import UTC, datetime, timedelta

    t0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
    for days, text in ((0, "The kit fund is £310."), (20, "The kit fund is £450 now.")):
        at = t0 + timedelta(days=days)
        for i, (who, said) in enumerate((("Dana", text), ("Lee", "Good."), ("Dana", "Right."), ("Lee", "Bye."))):
            mem.add_message("k", "user", said, at=at + timedelta(minutes=i), speaker=who)
        mem.close_session("k")
    mem.index(now=t0 + timedelta(days=21))
    history = mem.fact_history("kit fund", "amount", "k")
    assert [h["object"] for h in history] == ["is £310", "is £450 now"]
    assert [h["status"] for h in history] == ["superseded", "current"]


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_named_things_day_said_by_its_name_is_a_fact(model):
    facts = _facts(
        "Ines: The November issue closes Friday.",
        "Tom: The lease on the Berlin office ends in March.",
        "Ines: Today is Wednesday, and the current month is June.",
        "Tom: Fine.",
        model=model,
    )
    assert {("November issue", "closes", "closes Friday"),
            ("lease on the Berlin office", "ends", "ends in March")} <= facts
    assert not any(s.lower() in ("today", "current month") for s, _, _ in facts), facts


@pytest.mark.parametrize("value", ["i.0@example.com", "we.are@example.org", "it-desk@example.com"])
def test_a_value_opening_like_a_pronoun_is_still_a_value(value):
    # "i" / "we" / "it" glued to a dot or a dash is an address, not the pronoun of a passing state
    assert ("user", "email", value) in _facts(f"user: By the way my email is {value}.", "assistant: Noted.")


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_decision_naming_nothing_is_no_decided_fact(model):
    # the summary keeps the decision with its context; the fact "team decided Order it, done"
    # would name nothing a context pack could use
    summary, extraction = offline_summary(
        "Rosa: The shed kit from Wickes is 640 pounds and we have 700 in the fund.",
        "Bernard: Then let's order it, done.", "Rosa: Great.", model=model)
    assert any(d.startswith("Order it, done") for d in summary.decisions)
    assert not any(f.predicate == "decided" for f in extraction.facts)
    _, extraction = offline_summary("Ana: Which video tool for the retro?", "Ben: We go with Zoom for the retro.",
                                    "Ana: Fine.", model=model)
    assert ("team", "decided", "Go with Zoom for the retro") in {
        (f.subject, f.predicate, f.object) for f in extraction.facts}
