"""Observations carry the date their event implies, and temporal questions reach them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane.index.eventdate import event_date
from memlane.testing import memory

SAID = datetime(2023, 5, 16, 10, 0, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(("text", "day", "phrase"), [
    ("I went to Miami last weekend", datetime(2023, 5, 13, tzinfo=UTC), "last weekend"),
    ("I took my niece to the museum yesterday", datetime(2023, 5, 15, tzinfo=UTC), "yesterday"),
    ("I saw Sarah last Monday", datetime(2023, 5, 15, tzinfo=UTC), "last Monday"),
])
def test_relative_phrases_give_the_event_date(text: str, day: datetime, phrase: str) -> None:
    got = event_date(text, SAID)
    assert got is not None
    assert got[0].date() == day.date() and got[0].tzinfo == UTC
    assert got[1].lower() == phrase.lower()


def test_a_calendar_date_beats_the_weekday_beside_it() -> None:
    # said on Friday 10 March: "on Monday" alone would be 6 March, but the 27th is named
    got = event_date("I washed my car on Monday, February 27th, after a few weeks.",
                     datetime(2023, 3, 10, 9, tzinfo=UTC))
    assert got is not None and got[0].date().isoformat() == "2023-02-27"
    assert got[1] == "February 27th"


@pytest.mark.parametrize("text", ["I bought a bike", "I moved here this year", ""])
def test_no_date_or_too_vague(text: str) -> None:
    assert event_date(text, SAID) is None


def test_a_dated_observation_is_found_by_a_temporal_question(tmp_path: Path) -> None:
    m = memory(tmp_path / "d.db")
    sessions = [
        (datetime(2023, 5, 10, 18, tzinfo=UTC),
         [("user", "I visited Chicago today and walked along the river."),
          ("assistant", "Chicago's riverwalk is great."),
          ("user", "The architecture tour was the best part."),
          ("assistant", "The boat tour is a classic.")]),
        (SAID,
         [("user", "I went to Miami last weekend with my sister and loved it."),
          ("assistant", "Miami in May sounds lovely."),
          ("user", "We ate so much Cuban food in Little Havana."),
          ("assistant", "Little Havana is famous for it.")]),
    ]
    try:
        for at, turns in sessions:
            for i, (role, text) in enumerate(turns):
                m.add_message("chat", role, text, at=at + timedelta(minutes=i))
            m.close_session("chat")
        now = datetime(2023, 6, 1, tzinfo=UTC)
        m.index(now=now)
        obs = [it for s in m.store.list_sessions(scope="chat")
               for it in m.store.session_items(s.id) if it.kind == "observation"
               and "Miami" in it.text]
        assert obs and obs[0].at.date() == datetime(2023, 5, 13).date()
        assert obs[0].extra["event_phrase"] == "last weekend"
        hits = m.search("Which city did I visit on May 13?", scope="chat", k=5, now=now)
        miami = next(h for h in hits if h.item.kind == "turn" and "Miami" in h.item.text)
        chicago = next(h for h in hits if h.item.kind == "turn" and "Chicago" in h.item.text)
        # said on the 16th, the Miami trip is dated the 13th: its session matches the date
        assert miami.scores["session_rank"] == 1.0 and chicago.scores["session_rank"] == 2.0
    finally:
        m.close()


def test_an_inferred_date_is_a_time_not_words(tmp_path: Path) -> None:
    # "a few weeks ago" said on 4 November: stored in October, but keyed by the words of
    # the day it was said, so a question naming October does not match it by words,
    # whatever it is about (the session's time match still sees its date)
    from memlane.store.filters import Filters

    m = memory(tmp_path / "k.db")
    said = datetime(2023, 11, 4, 15, tzinfo=UTC)
    try:
        for i, (role, text) in enumerate([
                ("user", "I went to a project management workshop a few weeks ago and learned "
                         "agile methods."),
                ("assistant", "Agile habits stick."),
                ("user", "I also rode a rollercoaster."), ("assistant", "Fun.")]):
            m.add_message("chat", role, text, at=said + timedelta(minutes=i))
        m.close_session("chat")
        m.index(now=said)
        obs = [it for s in m.store.list_sessions(scope="chat")
               for it in m.store.session_items(s.id) if it.kind == "observation"
               and "workshop" in it.text]
        assert len(obs) == 1 and obs[0].at.month == 10
        assert obs[0].extra["event_phrase"] == "a few weeks ago"
        scope = Filters.build(scope="chat")
        assert obs[0].id not in {i for i, _ in m.store.lexical_search(["October"], scope, 10)}
        assert obs[0].id in {i for i, _ in m.store.lexical_search(["November"], scope, 10)}
    finally:
        m.close()
