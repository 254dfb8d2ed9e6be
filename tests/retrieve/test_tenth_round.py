"""Tenth round (docs/retrieval.md): the newest-first bonus in proportion to a session's
relevance, no newest-first for requests for advice, and the parts of the day a query names
(``retrieval.day_parts``)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memlane.retrieve.newest import asks_newest
from memlane.retrieve.timeparse import day_part_words
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 9, 12, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize("query", [
    "I'm heading to Lisbon next month. Any suggestions on what to see there?",
    "Can you recommend a board game for my cousins?",
    "My balcony plants look tired. Any tips?",
])
def test_a_request_for_advice_does_not_ask_for_the_newest(query: str) -> None:
    assert not asks_newest(query)


def test_questions_about_a_value_still_do() -> None:
    assert asks_newest("Which board game do I play with my cousins now?")
    assert asks_newest("How many balcony plants do I have?")


@pytest.mark.parametrize(("terms", "words"), [
    (["activities", "evening"], ["night", "pm"]),
    (["quiet", "Evenings"], ["night", "pm"]),
    (["gym", "night"], ["evening", "pm"]),
    (["afternoon", "nap"], ["pm"]),
    (["tonight", "film"], ["night", "pm", "evening"]),
    (["coffee", "mornings"], []),  # "am" is a stopword, and no other part overlaps
    (["evening", "pm"], ["night"]),  # words the query has are not added again
    (["walk", "dog"], []),
])
def test_day_part_words(terms: list[str], words: list[str]) -> None:
    assert day_part_words(terms) == words


# A user who mentioned their evening habit only by the clock, and two chats that share the
# request's other word ("activities").
EVENING = [
    (40, [("user", "Can we plan my week? I write my reports before lunch."),
          ("assistant", "Let's block the mornings for writing."),
          ("user", "What else could fill the hours after dinner? I like to wind down "
                   "by 9:30 pm with a book."),
          ("assistant", "A walk and some reading would suit that.")]),
    (20, [("user", "What activities are good for a team offsite?"),
          ("assistant", "Escape rooms and a cooking class are popular activities.")]),
    (10, [("user", "My nephew needs outdoor activities for the summer."),
          ("assistant", "Kayaking and climbing are fun activities.")]),
]
EVENING_Q = "Could you suggest some activities for me to do in the evening?"


def _clock_turn(mem, **kwargs):
    hits = mem.search(EVENING_Q, scope="chat", k=30, now=NOW, explain=True, **kwargs)
    return next(h for h in hits if "9:30 pm" in h.item.text and h.item.kind == "turn")


def test_a_part_of_the_day_finds_a_clock_time(tmp_path: Path) -> None:
    on = add_sessions(memory(tmp_path / "on.db"), EVENING, now=NOW)
    off = add_sessions(memory(tmp_path / "off.db", retrieval={"day_parts": False}), EVENING,
                       now=NOW)
    try:
        # "evening" is not in the turn; "pm" (and the turn's own words) are
        assert "lexical_rank" in _clock_turn(on).scores
        assert "lexical_rank" not in _clock_turn(off).scores
    finally:
        on.close()
        off.close()


# The same subject told three times; the newest session only mentions it in passing.
UPDATES = [
    (30, [("user", "I keep my road bike in the garage next to the kayak."),
          ("assistant", "A wall hook saves space.")]),
    (15, [("user", "I moved my road bike to the hallway rack, away from the kayak."),
          ("assistant", "Handy for quick rides.")]),
    (2, [("user", "The hallway is getting crowded with shoes and a rack."),
         ("assistant", "A shoe cabinet could help.")]),
]


def test_the_newest_bonus_follows_the_sessions_relevance(tmp_path: Path) -> None:
    mem = add_sessions(memory(tmp_path / "n.db"), UPDATES, now=NOW)
    try:
        hits = mem.search("Where do I keep my road bike?", scope="chat", k=30, now=NOW,
                          explain=True)
        turns = [h for h in hits if h.item.kind == "turn"]
        top = max(h.scores["relevance"] for h in turns)
        moved = [h for h in turns if "newest" in h.scores]
        assert moved
        for h in moved:
            share = min(1.0, h.scores["relevance"] / top)
            assert h.scores["newest"] == pytest.approx(h.scores["newest_place"] * share)
            assert h.scores["contrib.newest"] == pytest.approx(0.23 * h.scores["newest"])
        # the newest session matches the question a little less well than the oldest
        # (whose turn is the best): it gains a little less than its place in time
        newest = next(h for h in moved if h.scores["newest_place"] == 1.0)
        assert "hallway rack" in newest.item.text
        assert 0 < newest.scores["newest"] < 1.0
    finally:
        mem.close()


def test_a_request_for_advice_gets_no_newest_bonus(tmp_path: Path) -> None:
    mem = add_sessions(memory(tmp_path / "a.db"), UPDATES, now=NOW)
    try:
        hits = mem.search("My road bike needs a new home. Any suggestions?", scope="chat",
                          k=30, now=NOW, explain=True)
        assert hits and all("newest" not in h.scores for h in hits)
        plain = mem.search("Where is my road bike?", scope="chat", k=30, now=NOW)
        assert any("newest" in h.scores for h in plain)  # the same memory, not a request
    finally:
        mem.close()
