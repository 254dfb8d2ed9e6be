"""Newest truth first: present-tense questions rank the newest evidence first."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memlane.retrieve.newest import present_tense
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
    "How often do I see my therapist?", "What type of lens did I purchase most recently?",
])
def test_present_tense_questions(query: str) -> None:
    assert present_tense(query)


@pytest.mark.parametrize("query", [
    "Where did I initially keep my old sneakers?", "What was my previous goal?",
    "How many engineers did I lead when I just started?", "Tell me about sourdough",
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
    assert first.scores["newest"] == 1.0
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
