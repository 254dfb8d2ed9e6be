"""Gathering questions ("how many", "in total", "What activities does X do?") read
``retrieval.gather_sessions`` more sessions in stage two; those sessions' hits rank below
the best hit of every one of the ``top_sessions`` before them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane.retrieve.gather import asks_plural, gathers
from memlane.testing import memory

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)

# Four sessions speak of bikes, from much to little; the last one is about pasta.
CHATS = [
    (30, [("user", "I want to buy a new road bike; which bike brands are good?"),
          ("assistant", "Trek, Giant and Specialized make good bikes."),
          ("user", "Should I buy the bike online or from a bike shop?"),
          ("assistant", "A shop fits the bike to you.")]),
    (20, [("user", "I bought a gravel bike last week and love it."),
          ("assistant", "Gravel bikes are versatile."),
          ("user", "What tyre pressure suits a gravel bike?"),
          ("assistant", "Around 40 psi, depending on your weight.")]),
    (12, [("user", "My daughter got her first bike for her birthday."),
          ("assistant", "How exciting! A helmet is a must."),
          ("user", "Which helmet size fits a six year old?"),
          ("assistant", "Usually 48 to 52 cm.")]),
    (6, [("user", "I also bought an old bike frame to restore this winter."),
         ("assistant", "Restoring a frame is a nice project."),
         ("user", "How do I remove rust from steel?"),
         ("assistant", "Steel wool and a rust converter.")]),
    (3, [("user", "Can you suggest a pasta recipe for tonight?"),
         ("assistant", "A simple tomato and basil pasta is quick."),
         ("user", "I have no basil, what else works?"),
         ("assistant", "Parsley or spinach.")]),
]

QUESTION = "How many bikes did I buy?"


def _chat(path: Path, **retrieval: object):
    m = memory(path, retrieval={"top_sessions": 2, "turns_per_session": 2, **retrieval})
    for days, turns in CHATS:
        at = NOW - timedelta(days=days)
        for i, (role, text) in enumerate(turns):
            m.add_message("chat", role, text, at=at + timedelta(minutes=i))
        m.close_session("chat")
    m.index(now=NOW)
    return m


def _sessions(hits) -> list[int]:
    out: list[int] = []
    for h in hits:
        if h.item.session_id is not None and h.item.session_id not in out:
            out.append(h.item.session_id)
    return out


def test_gathering_questions_are_recognised() -> None:
    assert gathers("How many model ships have I built or bought?")
    assert gathers("How much money did I spend on workshops in total?")
    assert gathers("What is the average age of my parents and myself?")
    assert gathers("What activities does Rosa take part in?")
    assert gathers("What kinds of books has Omar read?")
    assert gathers("What are Mira's hobbies?")
    assert not gathers("What is my favourite colour?")
    assert not gathers("Where did I go on my trip with my family?")
    assert not gathers("What does Rosa do for work?")
    assert not asks_plural("What was the address of the class?")  # "-ss" is no plural
    assert not asks_plural("Which bus did I take?")


def test_a_gathering_question_reads_more_sessions_below_the_top_ones(tmp_path: Path) -> None:
    off = _chat(tmp_path / "off.db", gather_sessions=0)
    on = _chat(tmp_path / "on.db", gather_sessions=2)
    try:
        before = off.search(QUESTION, scope="chat", k=12, now=NOW, explain=True)
        after = on.search(QUESTION, scope="chat", k=12, now=NOW, explain=True)
        # off: only the 2 best sessions give stage-two turns (the rest follow unranked)
        assert {h.scores["session_rank"] for h in before if "turn_rank" in h.scores} <= {1.0, 2.0}
        extra = [h for h in after if h.scores["session_rank"] in (3.0, 4.0)
                 and "turn_rank" in h.scores]
        assert extra, [(h.item.text, h.scores) for h in after]
        best = {r: max(h.score for h in after if h.scores["session_rank"] == r)
                for r in (1.0, 2.0)}
        assert all(h.score < min(best.values()) for h in extra)
        # the sessions that come first stay the same, in the same order
        assert _sessions(after)[:2] == _sessions(before)[:2]
        capped = [h for h in extra if "below_top" in h.scores]
        assert all(h.scores["contrib.below_top"] == -h.scores["below_top"] for h in capped)
    finally:
        off.close()
        on.close()


def test_other_questions_are_left_alone(tmp_path: Path) -> None:
    off = _chat(tmp_path / "off.db", gather_sessions=0)
    on = _chat(tmp_path / "on.db", gather_sessions=2)
    try:
        q = "Which gravel bike tyre pressure did you suggest?"
        assert not gathers(q)
        a = [(h.item.id, round(h.score, 9)) for h in on.search(q, scope="chat", k=12, now=NOW)]
        b = [(h.item.id, round(h.score, 9)) for h in off.search(q, scope="chat", k=12, now=NOW)]
        assert a == b
    finally:
        off.close()
        on.close()


def test_gather_sessions_is_checked() -> None:
    from memlane.config import load_config
    from memlane.errors import ConfigError

    with pytest.raises(ConfigError, match="retrieval.gather_sessions"):
        load_config(environ={}, overrides={"retrieval": {"gather_sessions": -1}})
