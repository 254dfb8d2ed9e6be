"""Stage two keeps each shortlisted session's best ``retrieval.turns_per_session`` turns (T):
with T 7, a list told over more than five turns of one session ("What did Ana do on the
river?", its items one a turn) reaches the first 10 past the session's 5th turn when the
other shortlisted sessions have only weaker turns to give; with the default 5 it does not
(docs/retrieval.md, "Session 40": T 7 measured, not made the default)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memlane.config import load_config
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
QUESTION = "What did Ana do on the river?"
DOINGS = ["boat trips", "walks", "picnics", "boat rentals", "maps", "fishing"]


def _said(doing: str, place: str) -> str:
    return f"Ana did {doing} on the river near {place}, the river was calm."


def _chat() -> list[tuple[float, list[tuple[str, str]]]]:
    """Ana tells six things she did on the river in one session (near the north bank), and
    two in each of two other sessions, where the rest is small talk; four sessions of small
    talk besides."""
    sessions: list[tuple[float, list[tuple[str, str]]]] = []
    for i, place in enumerate(["the north bank", "the old bridge", "the mill"]):
        turns: list[tuple[str, str]] = []
        for doing in DOINGS if i == 0 else DOINGS[:2]:
            turns += [("Ana", _said(doing, place)), ("Ben", f"Nice, {doing} sound fun.")]
        if i:
            turns += [("Ana", "My cat slept all day."), ("Ben", "Cats do that."),
                      ("Ana", "The weather was grey."), ("Ben", "Rain again tomorrow.")]
        sessions.append((30 - 5 * i, turns))
    for days in (20, 12, 8, 4):
        sessions.append((days, [("Ana", "Work was busy this week."),
                                ("Ben", "Hope you rest soon.")]))
    return sessions


@pytest.fixture
def chat(db_url: str) -> str:
    add_sessions(memory(db_url), _chat(), now=NOW, speakers=True).close()
    return db_url


def _top10(path: str, **retrieval: object) -> list[str]:
    with memory(path, retrieval=retrieval) as mem:
        return [h.item.text for h in mem.search(QUESTION, scope="chat", k=10, now=NOW)]


def test_the_default_takes_five_turns_a_session() -> None:
    assert load_config(environ={}).retrieval.turns_per_session == 5


def test_with_seven_all_six_of_one_sessions_doings_reach_the_first_ten(chat: str) -> None:
    north = [_said(d, "the north bank") for d in DOINGS]
    five = _top10(chat)
    assert sum(t in five for t in north) == 5  # the session's 6th turn waits past the 10th
    assert five == _top10(chat, turns_per_session=5)
    top = _top10(chat, turns_per_session=7)
    assert all(t in top for t in north), top
    # the other sessions keep their best turns in the first 10
    for place in ("the old bridge", "the mill"):
        assert _said(DOINGS[0], place) in top
