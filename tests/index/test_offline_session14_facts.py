"""Session 14's facts about the state of things, each on a small conversation written for these
tests (docs/summary-eval.md, "Session 14: facts"): a named thing's date, the speaker's dated
arrangement and the speaker's count of something, read from a participant's statement; and
what a newer statement of a single-valued one does to the older through the real store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memlane.testing import offline_summary

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def _facts(*turns: str) -> list[tuple[str, str, str]]:
    return [(f.subject, f.predicate, f.object) for f in offline_summary(*turns)[1].facts
            if f.predicate not in ("decided", "stated")]  # the readers' facts (stated: the learned reader, session 49)


def test_a_named_things_date_is_a_fact_of_that_thing():
    facts = _facts(
        "Olamide: Mock exams start on the 8th.",
        "Femi: Then we need invigilators for six rooms.",
        "Olamide: The current cleaning contract runs to 31 January, so no rush there.",
    )
    assert ("Mock exams", "starts", "start on the 8th") in facts
    assert ("current cleaning contract", "runs", "runs to 31 January") in facts


def test_a_question_a_plan_or_a_hedge_states_no_date():
    facts = _facts(
        "Olamide: Do mock exams start on the 8th?",
        "Femi: Let's start the mock exams on the 15th.",
        "Olamide: Maybe the book club meets on the 3rd.",
        "Femi: I think the library closes on the 20th.",
    )
    assert facts == []


def test_the_assistants_words_are_no_fact_of_the_user():
    # (since session 54 the assistant's clause about the user's own thing is: "Your contract ends
    # on the 31st of March", tests/index/test_offline_fct54b_yours.py)
    facts = _facts(
        "user: When does my gym contract end?",
        "assistant: Most gym contracts end on the 31st of March.",
    )
    assert facts == []


def test_the_speakers_dated_arrangement_is_theirs():
    facts = _facts(
        "user: My card was skimmed. I've got rent going out on the 1st.",
        "assistant: Your rent is a standing order, so it will go out as normal.",
    )
    assert ("user", "scheduled", "rent going out on the 1st") in facts
    facts = _facts(
        "Holly: Canoe trip on the Wye, 14-15 June?",
        "Raj: I'm at a wedding on the 14th.",
        "Gemma: 21-22 works for me.",
    )
    assert ("Raj", "scheduled", "at a wedding on the 14th") in facts


def test_the_speakers_count_of_something_names_what_is_counted():
    facts = _facts(
        "user: We run 14 delivery vans, mostly Ford Transits.",
        "assistant: For urban multi-drop work the fronts wear fastest.",
    )
    assert ("user", "vans", "14 delivery vans") in facts
    # "we" in a meeting of several people is the team, not the one who said it
    facts = _facts(
        "Clemency: We've got 19 artists signed up across 11 venues this year.",
        "Bronagh: Brilliant, more than last year.",
    )
    assert facts == [("team", "artists", "19 artists signed up across 11 venues this year")]


def test_money_a_time_or_a_version_is_no_count():
    # (a named thing's amount, "The table has 40 million rows", is a fact since session 21:
    # tests/index/test_offline_session21_facts.py)
    facts = _facts(
        "user: I'm on 38k and want a raise.",
        "assistant: What did you take on this year?",
        "user: Xcode 16 broke the build at 09:14.",
    )
    assert facts == []


def test_a_later_date_of_the_same_thing_supersedes_the_earlier(mem):
    for days, text in ((0, "The book club meets on the 3rd."), (30, "The book club meets on the 7th.")):
        at = T0 + timedelta(days=days)
        mem.add_message("c", "user", text, at=at, speaker="Bashir")
        mem.add_message("c", "user", "Noted, thanks.", at=at + timedelta(minutes=1), speaker="Mei")
        mem.add_message("c", "user", "See you all there.", at=at + timedelta(minutes=2), speaker="Bashir")
        mem.add_message("c", "user", "Bring the snacks.", at=at + timedelta(minutes=3), speaker="Mei")
        mem.close_session("c")
    mem.index(now=T0 + timedelta(days=31))
    history = mem.fact_history("book club", "meets", "c")
    assert [h["object"] for h in history] == ["meets on the 3rd", "meets on the 7th"]
    assert [h["status"] for h in history] == ["superseded", "current"]
    assert [f.object for f in mem.facts("c", "book club")] == ["meets on the 7th"]


def test_a_new_count_supersedes_and_arrangements_accumulate(mem):
    sessions = (
        (0, "We run 14 delivery vans. I've got a wedding on the 9th."),
        (20, "We run 16 delivery vans now. I've got the MOT on the 23rd."),
    )
    for days, text in sessions:
        at = T0 + timedelta(days=days)
        for i, (role, said) in enumerate((("user", text), ("assistant", "Noted."),
                                          ("user", "Thanks."), ("assistant", "Anything else?"))):
            mem.add_message("v", role, said, at=at + timedelta(minutes=i))
        mem.close_session("v")
    mem.index(now=T0 + timedelta(days=21))
    current = {(f.predicate, f.object) for f in mem.facts("v", "user")}
    assert ("vans", "16 delivery vans now") in current and ("vans", "14 delivery vans") not in current
    assert {("scheduled", "a wedding on the 9th"), ("scheduled", "the MOT on the 23rd")} <= current
    history = mem.fact_history("user", "vans", "v")
    assert [h["status"] for h in history] == ["superseded", "current"]


def test_what_a_first_person_pattern_read_is_not_said_twice():
    facts = _facts(
        "user: I have an 11 hour layover in Istanbul on the way to Bangkok.",
        "assistant: With 11 hours, many people leave the airport.",
    )
    assert [f for f in facts if "layover" in f[2]] == [("user", "has", "11 hour layover in Istanbul")]
