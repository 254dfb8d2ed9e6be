"""Questions asking when, between people (docs/retrieval.md, "Eleventh round: LoCoMo
single-hop, temporal and open-domain"): ``retrieval.timeless_factor``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memlane.retrieve.timeparse import asks_when, says_when
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("query", [
    "When did Pavel win an international tournament?",
    "When is Hugo going to go sailing with Greta?",
    "Which year did Greta adopt the first two of her cats?",
    "What month did Lena move?",
    "How long ago did I book the cabin?",
])
def test_questions_asking_a_time(query: str) -> None:
    assert asks_when(query)


@pytest.mark.parametrize("query", [
    "What did Pavel win?",
    "Where did Lena go when she was sad?",
    "How long did it take Felix to finish his game?",
    "Which team does Ivan support?",
])
def test_questions_not_asking_a_time(query: str) -> None:
    assert not asks_when(query)


@pytest.mark.parametrize("text", [
    "Mira, yesterday I won an international tournament!",
    "I booked train tickets to Vienna, and I'm leaving on June 3.",
    "Been learning it for a month now.",
    "I've kept them for 4 years!",
    "Alright, see you tomorrow!",
    "I just won another regional tournament last week.",
    "We had a blast in 2019.",
])
def test_texts_that_place_something_in_time(text: str) -> None:
    assert says_when(text)


@pytest.mark.parametrize("text", [
    "Chess has given me so much joy.",
    "Honestly, parrots are the best.",
    "Thanks, Lena! That's so sweet of you.",
])
def test_texts_that_place_nothing_in_time(text: str) -> None:
    assert not says_when(text)


# Between people: the turn that dates the win, against a later turn that talks about
# tournaments at length and says nothing of when.
TOURNEYS = [
    (60, [("Pavel", "Mira, yesterday I won an international tournament!"),
          ("Mira", "Congrats, that's huge!")]),
    (10, [("Pavel", "International tournament season! I love every international "
                   "tournament, and to win a tournament feels amazing."),
          ("Mira", "You are a natural.")]),
    (5, [("Mira", "How are your turtles?"),
         ("Pavel", "They are great, they love their new tank.")]),
]
WHEN_Q = "When did Pavel win an international tournament?"


def _first_turn(m, query: str) -> str:
    return next(h.item.text for h in m.search(query, scope="chat", k=5, now=NOW)
                if h.item.kind == "turn")


def test_a_question_asking_when_prefers_the_turn_that_dates_the_event(tmp_path: Path) -> None:
    dated, timeless = TOURNEYS[0][1][0][1], TOURNEYS[1][1][0][1]
    off = add_sessions(memory(tmp_path / "off.db", retrieval={"timeless_factor": 1.0}),
                       TOURNEYS, now=NOW, speakers=True)
    on = add_sessions(memory(tmp_path / "on.db", retrieval={"timeless_factor": 0.6}),
                      TOURNEYS, now=NOW, speakers=True)
    try:
        assert _first_turn(off, WHEN_Q) == timeless
        assert _first_turn(on, WHEN_Q) == dated
        hits = on.search(WHEN_Q, scope="chat", k=5, now=NOW)
        assert [h.scores.get("timeless") for h in hits if h.item.text == timeless] == [0.6]
        assert all("timeless" not in h.scores for h in hits if h.item.text == dated)
        # a question that does not ask when is left alone
        what = on.search("What did Pavel win?", scope="chat", k=5, now=NOW)
        assert all("timeless" not in h.scores for h in what)
    finally:
        off.close()
        on.close()


def test_chats_without_speakers_are_left_alone(tmp_path: Path) -> None:
    chats = [(days, [("user" if who == "Pavel" else "assistant", text) for who, text in turns])
             for days, turns in TOURNEYS]
    on = add_sessions(memory(tmp_path / "on.db", retrieval={"timeless_factor": 0.6}),
                      chats, now=NOW)
    off = add_sessions(memory(tmp_path / "off.db", retrieval={"timeless_factor": 1.0}),
                       chats, now=NOW)
    q = "When did I win an international tournament?"
    try:
        got = on.search(q, scope="chat", k=5, now=NOW)
        assert all("timeless" not in h.scores for h in got)
        assert [h.item.id for h in got] == [h.item.id for h in off.search(q, scope="chat", k=5,
                                                                          now=NOW)]
    finally:
        off.close()
        on.close()


def test_an_out_of_range_factor_is_refused_naming_the_key() -> None:
    from memlane.config import load_config
    from memlane.errors import MemlaneError

    with pytest.raises(MemlaneError, match="retrieval.timeless_factor"):
        load_config(environ={}, overrides={"retrieval": {"timeless_factor": 1.5}})


@pytest.mark.parametrize("query", [
    "As of September 2023, how many pets did Hugo have?",
    "What language is Omar learning as of 27 March, 2022?",
    "How long has Ivan been playing the cello, as of December 2023?",
])
def test_as_of_a_date_is_no_window(query: str) -> None:
    from memlane.retrieve.timeparse import time_windows

    assert time_windows(query, NOW) == []


def test_in_a_month_is_still_a_window() -> None:
    from memlane.retrieve.timeparse import time_windows

    got = time_windows("What did Hugo adopt in September 2023?", NOW)
    assert [(w.start, w.end) for w in got] == [(datetime(2023, 9, 1), datetime(2023, 10, 1))]


# "as of September" asks from that point: the evidence was said before it, while a
# session of September that matches fewer words would gain the month's boost.
AS_OF_NOW = datetime(2023, 12, 1, 12, 0, tzinfo=UTC)
PETS = [
    (143, [("Hugo", "Meet Toby, my puppy! My first pet, I adopted him from the shelter."),
           ("Greta", "He is adorable!")]),
    (86, [("Hugo", "Still searching for a place where pets are welcome."),
          ("Greta", "Keep going, you will find one.")]),
    (40, [("Greta", "My dogs loved the beach today."),
          ("Hugo", "They look so happy!")]),
]
AS_OF_Q = "As of September 2023, how many pets did Hugo have?"


def test_as_of_a_month_does_not_boost_that_months_sessions(tmp_path: Path) -> None:
    m = add_sessions(memory(tmp_path / "m.db"), PETS, now=AS_OF_NOW, speakers=True)
    try:
        hits = m.search(AS_OF_Q, scope="chat", k=5, now=AS_OF_NOW)
        first = next(h for h in hits if h.item.kind == "turn")
        assert first.item.text == PETS[0][1][0][1]
        assert all(not h.scores.get("time") for h in hits)
    finally:
        m.close()
