"""Stage two keeps each shortlisted session's best ``retrieval.turns_per_session`` turns (T)
and, since session 40's ret40b, its next ``retrieval.late_turns`` (2) besides, which may fill
the first 10 but take none of the first ``LATE_HOLD`` (5) places: a list told over more than
five turns of one session ("What did Ana do on the river?", its items one a turn) reaches
the first 10 past the session's 5th turn when the other shortlisted sessions have only
weaker turns to give, while the first 5 stay those of T 5 alone (docs/retrieval.md,
"Session 40: turns past a session's fifth")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memlane.config import load_config
from memlane.errors import ConfigError
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


def test_the_default_takes_five_turns_a_session_and_two_late_ones() -> None:
    r = load_config(environ={}).retrieval
    assert (r.turns_per_session, r.late_turns) == (5, 2)


QUESTIONS = [QUESTION, "What did Ana do near the north bank?", "Where did Ana go fishing?",
             "What did Ana do at the mill?", "Did Ana like the maps near the north bank?"]


def test_all_six_of_one_sessions_doings_reach_the_first_ten(chat: str) -> None:
    north = [_said(d, "the north bank") for d in DOINGS]
    five = _top10(chat, late_turns=0)
    assert sum(t in five for t in north) == 5  # the session's 6th turn waits past the 10th
    assert five == _top10(chat, turns_per_session=5, late_turns=0)
    for top in (_top10(chat), _top10(chat, turns_per_session=7, late_turns=0)):
        assert all(t in top for t in north), top
        # the other sessions keep their best turns in the first 10
        for place in ("the old bridge", "the mill"):
            assert _said(DOINGS[0], place) in top


@pytest.mark.parametrize("late", [1, 2, 3])
def test_late_turns_leave_the_first_five_as_they_were(chat: str, late: int) -> None:
    with memory(chat, retrieval={"late_turns": 0}) as mem:
        before = {q: [h.item.id for h in mem.search(q, scope="chat", k=10, now=NOW)]
                  for q in QUESTIONS}
    with memory(chat, retrieval={"late_turns": late}) as mem:
        for q in QUESTIONS:
            after = [h.item.id for h in mem.search(q, scope="chat", k=10, now=NOW)]
            assert after[:5] == before[q][:5], q
            assert len(after) == len(before[q]) == 10


def test_late_turns_is_checked() -> None:
    for bad in (-1, 21):
        with pytest.raises(ConfigError, match="retrieval.late_turns"):
            load_config(environ={}, overrides={"retrieval": {"late_turns": bad}})
