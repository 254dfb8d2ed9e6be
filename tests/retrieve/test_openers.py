"""Session openers: the user's first turn of each of the best sessions is kept near its
session's best hit (``retrieval.opener_lift``), in chats without speakers only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane.testing import memory

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)

# Each session opens with what it is about; later turns repeat the question's words more.
CHATS = [
    (20, [("user", "I just got a new commuter ride and want a rear rack for groceries."),
          ("assistant", "A rear rack is a good idea; check the frame has eyelets."),
          ("user", "How often should I service a bike? I service my bikes every spring."),
          ("assistant", "Once a year is fine for most riders."),
          ("user", "Do you service bike brakes and bike gears at the same time?"),
          ("assistant", "Yes, usually in one visit.")]),
    (12, [("user", "My mountain bike tyre keeps going flat on the trails."),
          ("assistant", "Try a tubeless setup or thicker tubes."),
          ("user", "Is it worth paying a shop to service a bike, or service it myself?"),
          ("assistant", "Basic service is easy to learn.")]),
    (6, [("user", "Can you suggest a pasta recipe for tonight?"),
         ("assistant", "A simple tomato and basil pasta is quick."),
         ("user", "I have no basil, what else works?"),
         ("assistant", "Parsley or spinach.")]),
]

QUESTION = "How many of my bikes did I service?"


def _chat(path: Path, *, speakers: bool = False, **retrieval: object):
    m = memory(path, retrieval=retrieval)
    for days, turns in CHATS:
        at = NOW - timedelta(days=days)
        for i, (role, text) in enumerate(turns):
            who = ("Ana" if role == "user" else "Ben") if speakers else None
            m.add_message("chat", role, text, at=at + timedelta(minutes=i), speaker=who)
        m.close_session("chat")
    m.index(now=NOW)
    return m


def _texts(m, k: int = 4) -> list[str]:
    return [h.item.text for h in m.search(QUESTION, scope="chat", k=k, now=NOW)
            if h.item.kind == "turn"]


def test_the_first_user_turn_of_a_best_session_joins_the_first_hits(tmp_path: Path) -> None:
    opener = CHATS[0][1][0][1]
    off = _chat(tmp_path / "off.db", opener_lift=0.0)
    try:
        assert opener not in _texts(off, 6)  # later turns say "service" and "bike" more often
    finally:
        off.close()
    on = _chat(tmp_path / "on.db", opener_lift=0.9)
    try:
        hits = on.search(QUESTION, scope="chat", k=5, now=NOW, explain=True)
        lifted = [h for h in hits if h.item.text == opener]
        assert lifted, [h.item.text for h in hits]
        h = lifted[0]
        best = max(x.score for x in hits if x.item.session_id == h.item.session_id)
        assert h.score >= 0.9 * best - 1e-9
        assert h.scores["opener"] > 0 and h.scores["contrib.opener"] == h.scores["opener"]
    finally:
        on.close()


def test_conversations_between_people_are_left_alone(tmp_path: Path) -> None:
    a = _chat(tmp_path / "a.db", speakers=True, opener_lift=0.9)
    b = _chat(tmp_path / "b.db", speakers=True, opener_lift=0.0)
    try:
        hits = a.search(QUESTION, scope="chat", k=6, now=NOW)
        assert all("opener" not in h.scores for h in hits)
        assert _texts(a, 6) == _texts(b, 6)
    finally:
        a.close()
        b.close()


def test_opener_lift_is_checked() -> None:
    from memlane.config import load_config
    from memlane.errors import ConfigError

    with pytest.raises(ConfigError, match="retrieval.opener_lift"):
        load_config(environ={}, overrides={"retrieval": {"opener_lift": 1.5}})


def test_a_question_about_what_the_assistant_said_lifts_no_opener(tmp_path: Path) -> None:
    from memlane.retrieve.search import asks_assistant

    assert asks_assistant("Can you remind me what you suggested for my bike last time?")
    assert asks_assistant("In our previous conversation, which tyre did we pick?")
    assert not asks_assistant("Can you recommend a bike shop?")
    assert not asks_assistant(QUESTION)
    m = _chat(tmp_path / "a.db", opener_lift=0.9)
    try:
        hits = m.search("What did you suggest when I asked how often to service bikes?",
                        scope="chat", k=8, now=NOW)
        assert hits and all("opener" not in h.scores for h in hits)
        assert any("opener" in h.scores for h in m.search(QUESTION, scope="chat", k=8, now=NOW))
    finally:
        m.close()
