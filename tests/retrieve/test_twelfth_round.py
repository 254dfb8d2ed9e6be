"""Turns outranked inside the right sessions (docs/retrieval.md, "Twelfth round: turns
outranked inside the right sessions"): ``retrieval.speaker_first_named``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memlane.retrieve.speaker import first_named_speaker
from memlane.testing import TURNS_ALONE, add_sessions, memory
from memlane.types import Item

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def _turn(speaker: str | None) -> Item:
    return Item(id=1, kind="turn", text="hi", at=NOW, role="user",
                extra={"speaker": speaker} if speaker else {})


TURNS = [_turn("Omar"), _turn("Ivan"), _turn(None)]


@pytest.mark.parametrize(("query", "who"), [
    ("What news did Omar share with Ivan in March 2024?", "Omar"),
    ("What did Omar say about Oslo, tempting Ivan to come?", "Omar"),
    ("Which film did Ivan recommend to Omar?", "Ivan"),
    ("Is it likely that ivan has friends besides omar?", "Ivan"),
])
def test_the_first_of_two_speakers_named_apart(query: str, who: str) -> None:
    assert first_named_speaker(TURNS, query) == who


@pytest.mark.parametrize("query", [
    "What matching board game do Ivan and Omar own?",
    "Who is Ivan and Omar's favourite chess player?",
    "Do both Omar and Ivan have pets?",
    "When did Omar, Ines and Ivan go to the game together?",
    "What did Omar win?",  # one name: focus_speaker's case
    "What did Omari tell Ivan?",  # a name is matched whole
])
def test_joined_or_single_names_give_no_first_speaker(query: str) -> None:
    assert first_named_speaker(TURNS, query) is None


def test_turns_without_two_speakers_give_none() -> None:
    chat = [_turn(None), _turn("Omar")]
    assert first_named_speaker(chat, "What did Omar share with Ivan?") is None


# Ivan asks about the recipe with every word of the question; Omar's answer names it once.
RECIPES = [
    (20, [("Ivan", "Omar, share the recipe with me! Which recipe would you share with Ivan, "
                  "Omar? A recipe to share!"),
          ("Omar", "Sure, it is my grandma's lemon cake: butter, lemons and sugar.")]),
    (10, [("Omar", "I played basketball all weekend."),
          ("Ivan", "Nice, I read a fantasy novel.")]),
    (5, [("Ivan", "How is the team doing?"),
         ("Omar", "We won the regional final.")]),
]
RECIPE_Q = "What recipe did Omar share with Ivan?"


def _first_turn(m, query: str) -> str:
    return next(h.item.text for h in m.search(query, scope="chat", k=5, now=NOW)
                if h.item.kind == "turn")


def test_a_question_naming_two_speakers_apart_focuses_on_the_first(tmp_path: Path) -> None:
    asks, answer = RECIPES[0][1][0][1], RECIPES[0][1][1][1]
    off = add_sessions(memory(tmp_path / "off.db", retrieval={"speaker_first_named": False},
                              indexing=TURNS_ALONE),
                       RECIPES, now=NOW, speakers=True)
    on = add_sessions(memory(tmp_path / "on.db", retrieval={"speaker_first_named": True},
                             indexing=TURNS_ALONE),
                      RECIPES, now=NOW, speakers=True)
    try:
        assert _first_turn(off, RECIPE_Q) == asks
        assert _first_turn(on, RECIPE_Q) == answer
        hits = on.search(RECIPE_Q, scope="chat", k=5, now=NOW)
        assert [h.scores.get("other_speaker") for h in hits if h.item.text == asks] == [0.6]
        # joined names ask about both: no focus
        both = on.search("What recipe did Omar and Ivan share?", scope="chat", k=5, now=NOW)
        assert all("other_speaker" not in h.scores for h in both)
    finally:
        off.close()
        on.close()
