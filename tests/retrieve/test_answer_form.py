"""The answer's form (docs/retrieval.md, twelfth round): questions asking for named things
(``retrieval.named_lift``) and for what someone does (``retrieval.doing_lift``)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memlane.retrieve.answerform import asks_doing, asks_named, names_thing, tells_doing
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("query", [
    "What books has Tim read?",
    "Which cities has John been to?",
    "What video games does Nate play?",
    "Which TV series does Tim mention watching?",
    "What movies have both Joanna and Nate seen?",
    "Which countries has James visited?",
])
def test_questions_asking_for_named_things(query: str) -> None:
    assert asks_named(query)


@pytest.mark.parametrize("query", [
    "What book did Tim get in Italy?",  # one thing, not a gathering
    "How many books has Tim read?",
    "Where did Tim buy the books?",
    "What are Joanna's hobbies?",
])
def test_other_questions_do_not_ask_for_named_things(query: str) -> None:
    assert not asks_named(query)


@pytest.mark.parametrize(("text", "named"), [
    ('I just finished "A Dance with Dragons", a great story.', True),
    ("I was in Chicago, it was awesome!", True),
    ("Thanks, Caroline! I love reading books.", False),  # a speaker's name
    ("Wow. That sounds great! I went there on Monday in May.", False),  # sentence starts, days
    ("Look at this! [shares a photo: a photo of Paris]", False),  # the caption is left out
])
def test_names_thing(text: str, named: bool) -> None:
    assert names_thing(text, ["Caroline", "Tim"]) is named


@pytest.mark.parametrize("query", [
    "What activities does Melanie partake in?",
    "What are Joanna's hobbies?",
    "What sports does John like besides basketball?",
    "What kind of writings does Joanna do?",
    "What does Tim do to escape reality?",
])
def test_questions_asking_what_someone_does(query: str) -> None:
    assert asks_doing(query)


@pytest.mark.parametrize("query", [
    "What did Caroline research?",
    "When did Melanie go camping?",
    "What books has Tim read?",
    "How many times has Joanna found new hiking trails?",
])
def test_other_questions_do_not_ask_what_someone_does(query: str) -> None:
    assert not asks_doing(query)


@pytest.mark.parametrize(("text", "doing"), [
    ("We went camping with my fam two weekends ago.", True),
    ("I started surfing five years ago and it's been great.", True),
    ("I'm also trying out yoga to get a little extra strength.", True),
    ("My kids love painting together.", True),
    ("That sounds awesome, congrats!", False),
    ("You should try the new trail.", False),
])
def test_tells_doing(text: str, doing: bool) -> None:
    assert tells_doing(text) is doing


def _first_turn(m, query: str) -> str:
    return _turns(m, query)[0]


def _turns(m, query: str) -> list[str]:
    return [h.item.text for h in m.search(query, scope="chat", k=6, now=NOW)
            if h.item.kind == "turn"]


# Tim names a title once, in words the question does not use; another of his turns repeats
# the question's words without naming a book.
BOOKS = [
    (30, [("Tim", 'Just finished "A Dance with Dragons", a really gripping story.'),
          ("John", "Nice, I have to check that out.")]),
    (20, [("Tim", "I have read so many books this year, reading books is my thing."),
          ("John", "Reading is great.")]),
    (10, [("John", "How was the game last night?"),
          ("Tim", "We lost, but it was a close one.")]),
]
BOOKS_Q = "What books has Tim read?"


def test_a_question_asking_for_named_things_lifts_the_turn_naming_one(
        tmp_path: Path) -> None:
    title = BOOKS[0][1][0][1]
    far = {"min_similarity": -1}  # the floor off: a far turn ranked above the title
    # without the lift, which the floor now keeps out (session 31)
    off = add_sessions(memory(tmp_path / "off.db", retrieval={"named_lift": 0.0, **far}),
                       BOOKS, now=NOW, speakers=True)
    on = add_sessions(memory(tmp_path / "on.db", retrieval={"named_lift": 1.5, **far}),
                      BOOKS, now=NOW, speakers=True)
    try:
        assert title not in _turns(off, BOOKS_Q)[:3]  # below John's reply and a game
        assert title in _turns(on, BOOKS_Q)[:2]  # just below the turn repeating the words
        hits = on.search(BOOKS_Q, scope="chat", k=6, now=NOW)
        lifted = next(h for h in hits if h.item.text == title)
        plain = next(h for h in off.search(BOOKS_Q, scope="chat", k=6, now=NOW)
                     if h.item.text == title)
        assert lifted.scores["relevance"] == pytest.approx(2.5 * plain.scores["relevance"])
    finally:
        off.close()
        on.close()


# Melanie tells of going camping in words the question does not use; another of her turns
# repeats the question's words without telling of anything she did.
DOING = [
    (30, [("Melanie", "We went camping by the lake last weekend, so much fun!"),
          ("Caroline", "Sounds lovely.")]),
    (20, [("Melanie", "Such activities sound great, partaking in activities is so good."),
          ("Caroline", "Totally agree.")]),
    (10, [("Caroline", "How is work going?"),
          ("Melanie", "Busy, but fine.")]),
]
DOING_Q = "What activities does Melanie partake in?"


def test_a_question_asking_what_someone_does_ranks_their_statement_of_doing_first(
        tmp_path: Path) -> None:
    camping = DOING[0][1][0][1]
    off = add_sessions(memory(tmp_path / "off.db", retrieval={"doing_lift": 0.0}), DOING,
                       now=NOW, speakers=True)
    on = add_sessions(memory(tmp_path / "on.db", retrieval={"doing_lift": 2.0}), DOING,
                      now=NOW, speakers=True)
    try:
        assert _first_turn(off, DOING_Q) != camping
        assert _first_turn(on, DOING_Q) == camping
    finally:
        off.close()
        on.close()


def test_chats_without_speakers_are_left_alone(tmp_path: Path) -> None:
    chats = [(days, [("user", text) for _, text in turns]) for days, turns in BOOKS]
    q = "What books have I read?"

    def ranking(path: Path, lift: float) -> list[str]:
        m = add_sessions(memory(path, retrieval={"named_lift": lift, "doing_lift": lift}),
                         chats, now=NOW)
        try:
            return [h.item.text for h in m.search(q, scope="chat", k=10, now=NOW)]
        finally:
            m.close()

    assert ranking(tmp_path / "off.db", 0.0) == ranking(tmp_path / "on.db", 3.0)


@pytest.mark.parametrize("key", ["named_lift", "doing_lift"])
def test_out_of_range_lifts_are_refused_naming_the_key(key: str) -> None:
    from memlane.config import load_config
    from memlane.errors import MemlaneError

    with pytest.raises(MemlaneError, match=f"retrieval.{key}"):
        load_config(environ={}, overrides={"retrieval": {key: 5}})
    with pytest.raises(MemlaneError, match=f"retrieval.{key}"):
        load_config(environ={}, overrides={"retrieval": {key: -0.1}})
