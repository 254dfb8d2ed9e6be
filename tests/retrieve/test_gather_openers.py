"""Gathering questions keep the openers of the best sessions among the first hits
(``retrieval.gather_openers``): each session tells its piece once, often in its opener,
while its later turns match the question's words better."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane.retrieve.gather import gathers
from memlane.testing import memory

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)

# Each session opens with the user's piece of the answer in other words; later turns
# repeat "kitchen items" and "replace".
CHATS = [
    (20, [("user", "I'm looking for breakfast ideas. By the way, I finally got a new toaster."),
          ("assistant", "Try overnight oats or a frittata."),
          ("user", "Which kitchen items should I keep on the counter in my kitchen?"),
          ("assistant", "Only the items you use every day."),
          ("user", "Do you have tips to fix kitchen drawer items that stick?"),
          ("assistant", "Check the rails."),
          ("user", "Should I replace kitchen items made of plastic?"),
          ("assistant", "Wax the runners.")]),
    (12, [("user", "I'm after a soup recipe. I mended the dripping tap myself last week."),
          ("assistant", "A lentil soup is easy."),
          ("user", "How should I store kitchen items like knives in a small kitchen?"),
          ("assistant", "A magnetic strip saves space."),
          ("user", "What kitchen items do I need to replace every year?"),
          ("assistant", "Sponges and dish brushes.")]),
    (6, [("user", "Can you suggest a pasta recipe for tonight?"),
         ("assistant", "A simple tomato and basil pasta is quick."),
         ("user", "I have no basil, what else works?"),
         ("assistant", "Parsley or spinach.")]),
]
OPENERS = [CHATS[0][1][0][1], CHATS[1][1][0][1]]
QUESTION = "How many kitchen items did I fix or replace?"
FINAL_K = 4


def _chat(path: Path, **retrieval: object):
    m = memory(path, retrieval={"top_sessions": 2, "final_k": FINAL_K, **retrieval})
    for days, turns in CHATS:
        at = NOW - timedelta(days=days)
        for i, (role, text) in enumerate(turns):
            m.add_message("chat", role, text, at=at + timedelta(minutes=i))
        m.close_session("chat")
    m.index(now=NOW)
    return m


def test_the_openers_of_the_best_sessions_take_places_among_the_first_hits(
        tmp_path: Path) -> None:
    assert gathers(QUESTION)
    off = _chat(tmp_path / "off.db", gather_openers=0.0)
    on = _chat(tmp_path / "on.db", gather_openers=0.6)
    try:
        before = off.search(QUESTION, scope="chat", k=40, now=NOW, explain=True)
        after = on.search(QUESTION, scope="chat", k=40, now=NOW, explain=True)
        first_before = [h.item.text for h in before[:FINAL_K]]
        assert not set(OPENERS) & set(first_before), first_before
        first = after[:FINAL_K]
        assert {h.item.text for h in first} >= set(OPENERS), [h.item.text for h in first]
        moved = [h for h in first if h.item.text in OPENERS]
        assert all(h.scores["gathered_from"] > FINAL_K for h in moved)
        # the first hits stay in score order: the best hit leads as before
        assert [h.score for h in first] == sorted((h.score for h in first), reverse=True)
        assert after[0].item.id == before[0].item.id
        # the same items are returned, only their places change
        assert {h.item.id for h in after} == {h.item.id for h in before}
    finally:
        off.close()
        on.close()


def test_an_opener_below_the_floor_is_not_moved(tmp_path: Path) -> None:
    m = _chat(tmp_path / "floor.db", gather_openers=1.0)
    try:
        hits = m.search(QUESTION, scope="chat", k=8, now=NOW, explain=True)
        assert not set(OPENERS) & {h.item.text for h in hits[:FINAL_K]}
        assert all("gathered_from" not in h.scores for h in hits)
    finally:
        m.close()


def test_other_questions_are_left_alone(tmp_path: Path) -> None:
    off = _chat(tmp_path / "off.db", gather_openers=0.0)
    on = _chat(tmp_path / "on.db", gather_openers=0.6)
    try:
        q = "Should I store knives on a magnetic strip in my kitchen?"
        assert not gathers(q)
        a = [(h.item.id, round(h.score, 9)) for h in on.search(q, scope="chat", k=8, now=NOW)]
        b = [(h.item.id, round(h.score, 9)) for h in off.search(q, scope="chat", k=8, now=NOW)]
        assert a == b
    finally:
        off.close()
        on.close()


def test_gather_openers_is_checked() -> None:
    from memlane.config import load_config
    from memlane.errors import ConfigError

    with pytest.raises(ConfigError, match="retrieval.gather_openers"):
        load_config(environ={}, overrides={"retrieval": {"gather_openers": 1.5}})
