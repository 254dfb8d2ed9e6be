"""Newest truth first: present-tense questions rank the newest evidence first."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from datetime import date

from memlane.retrieve.newest import asks_newest, names_earlier_time, newest_places, present_tense
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
SESSIONS = [
    (60, [("user", "My favorite color is blue."), ("assistant", "Blue is calming."),
          ("user", "I live in Boston near the harbor."), ("assistant", "Boston harbor is lovely.")]),
    (30, [("user", "I baked sourdough bread this weekend."), ("assistant", "Nice crust?"),
          ("user", "The crumb was dense."), ("assistant", "Try a longer proof.")]),
    (5, [("user", "My favorite color is green now."), ("assistant", "Green is fresh."),
         ("user", "I live in Denver these days."), ("assistant", "Denver has mountains.")]),
]


@pytest.mark.parametrize("query", [
    "What is my favorite color?", "Where do I currently live?", "How many bikes do I own now?",
    "How often do I visit my dentist?", "What kind of kettle did I purchase most recently?",
])
def test_present_tense_questions(query: str) -> None:
    assert present_tense(query)


@pytest.mark.parametrize("query", [
    "Where did I initially store my old boots?", "What was my previous target?",
    "How many nurses did I manage when I just started?", "Tell me about sourdough",
])
def test_questions_about_the_past_or_timeless(query: str) -> None:
    assert not present_tense(query)


def _filled(path: Path, **overrides: object):
    return add_sessions(memory(path, **overrides), SESSIONS, now=NOW)


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[object]:
    m = _filled(tmp_path / "m.db")
    yield m
    m.close()


def _first_turn(hits):
    return next(h for h in hits if h.item.kind == "turn")


def test_the_newest_evidence_comes_first_and_the_superseded_turn_is_demoted(mem) -> None:
    hits = mem.search("What is my favorite color?", scope="chat", k=6, now=NOW, explain=True)
    first = _first_turn(hits)
    assert "green" in first.item.text
    assert first.scores["newest_place"] == 1.0
    old = next(h for h in hits if h.item.kind == "turn" and "blue" in h.item.text)
    assert old.scores["superseded"] == 1.0  # its fact (favorite color blue) was superseded
    assert old.scores["contrib.superseded"] < 0
    assert hits.index(old) > hits.index(first)


def test_a_question_about_the_past_gets_no_recency(mem) -> None:
    hits = mem.search("What was my favorite color initially?", scope="chat", k=6, now=NOW)
    assert all("newest" not in h.scores for h in hits)


def test_weight_zero_turns_it_off(tmp_path: Path) -> None:
    m = _filled(tmp_path / "off.db", retrieval={"newest_weight": 0.0})
    try:
        hits = m.search("Where do I live now?", scope="chat", k=6, now=NOW)
        assert hits and all("newest" not in h.scores and "superseded" not in h.scores
                            for h in hits)
    finally:
        m.close()


@pytest.mark.parametrize("query", [
    "Where did my cousin Tamsin move after her latest job change?",
    "How many people work in the team my old boss Tamsin leads?",
    "How much was my loan pre-approval when I bought my flat?",
    "Where do I still store my old boots, after I first moved them?",  # "still" wins
])
def test_grammatical_past_still_asks_for_the_newest(query: str) -> None:
    assert asks_newest(query)


@pytest.mark.parametrize("query", [
    "Where did I initially store my old boots?", "What did I buy two weeks ago?",
    "Which camera did I use before I switched to Sony?", "How big was my team at first?",
    "How many nurses did I manage when I just started?",
])
def test_a_question_naming_an_earlier_time_does_not(query: str) -> None:
    assert names_earlier_time(query) and not asks_newest(query)


def test_a_past_tense_question_gets_the_newest_session_first(mem) -> None:
    hits = mem.search("Which city did I live in?", scope="chat", k=6, now=NOW, explain=True)
    first = _first_turn(hits)
    assert "Denver" in first.item.text and first.scores["newest_place"] == 1.0


def test_only_each_sessions_best_hit_is_moved(mem) -> None:
    hits = mem.search("Where do I live?", scope="chat", k=12, now=NOW, explain=True)
    moved: dict[int, int] = {}
    for h in hits:
        if "newest" in h.scores:
            moved[h.item.session_id] = moved.get(h.item.session_id, 0) + 1
    assert moved and set(moved.values()) == {1}  # one hit per session carries the tie-break
    newest = _first_turn(hits)
    assert "Denver" in newest.item.text
    assert newest.scores["newest_place"] == 1.0
    assert newest.scores["contrib.newest"] == pytest.approx(0.23 * newest.scores["newest"])


def test_an_earlier_time_gets_no_tie_break(mem) -> None:
    hits = mem.search("Where did I live at first?", scope="chat", k=6, now=NOW)
    assert hits and all("newest" not in h.scores for h in hits)


def test_sessions_of_one_day_share_their_place_in_time() -> None:
    places = newest_places({"a": date(2024, 5, 1), "b": date(2024, 5, 9),
                            "c": date(2024, 5, 9), "d": date(2024, 5, 5)})
    assert places == {"a": 0.0, "d": 0.5, "b": 1.0, "c": 1.0}
    assert newest_places({"a": date(2024, 5, 9), "b": date(2024, 5, 9)}) == {"a": 1.0, "b": 1.0}
    assert newest_places({}) == {}


SAME_DAY = [
    # An update on the 10th, then, later that day, a session that only mentions the subject:
    # the same day, so no newer than the update.
    (40, [("user", "I wake up at 8:30 on Saturday mornings."), ("assistant", "A gentle start.")]),
    (10, [("user", "I moved my Saturday wake-up time to 7:30 this month."),
          ("assistant", "Earlier mornings suit a jog.")]),
    (9.9, [("user", "I wake up at 7:30 on Saturday mornings, then coffee."),
           ("assistant", "Coffee makes mornings.")]),
]


def test_a_later_session_of_the_same_day_does_not_outrank_the_update(tmp_path: Path) -> None:
    m = add_sessions(memory(tmp_path / "day.db"), SAME_DAY, now=NOW)
    try:
        hits = m.search("When do I get up on Saturday mornings?", scope="chat", k=8,
                        now=NOW, explain=True)
        places = {h.item.text: h.scores["newest_place"] for h in hits
                  if "newest_place" in h.scores}
        # the update shares the newest place with the later session of its day (by time
        # alone it would sit between the two: 0.5)
        assert places["I moved my Saturday wake-up time to 7:30 this month."] == 1.0
        assert places["I wake up at 8:30 on Saturday mornings."] == 0.0
    finally:
        m.close()
