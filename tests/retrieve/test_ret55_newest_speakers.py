"""A question naming one of a conversation's speakers takes no newest-first lift: "Which
team does Ivan support?" asks what Ivan told, and a newer session on the same subject is
no newer value of it (``retrieval.newest_skips_speakers``; docs/retrieval.md, "Session 55").
A chat without speakers keeps the lift."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memlane.config import load_config
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
TOLD = "I support the Harbor Hawks, my basketball team, every season."
LATER = "I watched a basketball game with my team every season."
SESSIONS = [
    (40, [("Ivan", TOLD), ("Omar", "Good choice."),
          ("Ivan", "I repainted the kitchen blue."), ("Omar", "Blue is calm.")]),
    (3, [("Ivan", LATER), ("Omar", "Sounds fun."),
         ("Ivan", "My knee hurts a bit now."), ("Omar", "Rest it.")]),
]
QUERY = "Which basketball team does Ivan support?"


def _turns(tmp_path: Path, skips: bool, speakers: bool = True) -> list[str]:
    m = memory(tmp_path / f"n{skips}{speakers}.db", retrieval={"newest_skips_speakers": skips})
    try:
        sessions = SESSIONS if speakers else [  # a chat: the user and the assistant
            (days, [("user" if who == "Ivan" else "assistant", text) for who, text in turns])
            for days, turns in SESSIONS]
        add_sessions(m, sessions, now=NOW, speakers=speakers)
        return [h.item.text for h in m.search(QUERY, scope="chat", k=6, now=NOW)
                if h.item.kind == "turn"]
    finally:
        m.close()


def test_the_told_turn_leads_when_the_question_names_the_speaker(tmp_path: Path) -> None:
    assert _turns(tmp_path, False)[:2] == [LATER, TOLD]  # the newer session lifted first
    assert load_config(environ={}).retrieval.newest_skips_speakers
    assert _turns(tmp_path, True)[:2] == [TOLD, LATER]


def test_a_chat_without_speakers_keeps_the_newest_first(tmp_path: Path) -> None:
    turns = _turns(tmp_path, True, speakers=False)
    assert turns.index(LATER) < turns.index(TOLD)
