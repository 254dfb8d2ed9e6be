"""The meaning tier keeps newest first: an update said in passing still leads the older
session that states the subject at length (docs/retrieval.md, session 14)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memlane.backends.embed.onnx import onnx_available
from memlane.testing import add_sessions, memory

needs_onnx = pytest.mark.skipif(not onnx_available(), reason="the meaning extra is not installed")

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
OLD = ("Wells Fargo pre-approved me for a mortgage of $350,000 today, the amount I hoped the "
       "bank would approve for my first home loan.")
NEW = ("Wells Fargo pre-approved me for a mortgage of $400,000 now. Anyway, which paint "
       "colours suit a small hallway?")
SESSIONS = [
    (90, [("user", OLD),
          ("assistant", "Congratulations on the pre-approval! $350,000 opens up a lot of options."),
          ("user", "I want to stay well under the pre-approved amount though."),
          ("assistant", "That is wise: leave room for closing costs.")]),
    (60, [("user", "I baked sourdough bread this weekend."), ("assistant", "Nice crust?"),
          ("user", "The crumb was dense."), ("assistant", "Try a longer proof.")]),
    (30, [("user", "Can you suggest a good running playlist?"),
          ("assistant", "Try some upbeat pop."),
          ("user", "I run about five kilometres."), ("assistant", "Then thirty minutes of music.")]),
    (5, [("user", NEW),
         ("assistant", "Light neutrals make a hallway feel bigger."),
         ("user", "I like warm greys."), ("assistant", "Warm greys work well with wood floors.")]),
]
QUESTION = "What amount was I pre-approved for on my Wells Fargo mortgage?"


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[object]:
    m = add_sessions(memory(tmp_path / "m.db", retrieval={"meaning_candidates": 30,
                                                           "meaning_cold": 0}), SESSIONS,
                     now=NOW)
    yield m
    m.close()


def _turns(hits):
    return [h for h in hits if h.item.kind == "turn"]


def test_the_quick_tier_puts_the_update_first(mem) -> None:
    hits = _turns(mem.search(QUESTION, scope="chat", k=6, now=NOW, explain=True))
    assert hits[0].item.text == NEW
    assert hits[0].scores["newest_place"] == 1.0
    assert all("meaning_level" not in h.scores for h in hits)  # the tier is off


@needs_onnx
def test_the_meaning_tier_keeps_the_update_first(mem) -> None:
    hits = _turns(mem.search(QUESTION, scope="chat", k=6, now=NOW, preset="meaning",
                             explain=True))
    first = hits[0]
    old = next(h for h in hits if h.item.text == OLD)
    # the transformer prefers the older, fuller statement by far ...
    assert old.scores["meaning"] > first.scores.get("meaning", 0.0) + 0.2
    # ... but among sessions that say the same thing, newest first decides
    assert first.item.text == NEW
    assert first.scores["meaning_level"] > 0
    assert first.scores["contrib.meaning_level"] == pytest.approx(first.scores["meaning_level"])
    assert "meaning_level" not in old.scores  # the most relevant one is not raised
    assert hits.index(old) > 0
