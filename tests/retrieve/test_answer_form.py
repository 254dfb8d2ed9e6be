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
    "What films has Ivan seen?",
    "Which places has Omar been to?",
    "What card games does Pavel play?",
    "Which shows does Ivan mention watching?",
    "What songs have both Mira and Pavel sung?",
    "Which countries has Felix cycled through?",
])
def test_questions_asking_for_named_things(query: str) -> None:
    assert asks_named(query)


@pytest.mark.parametrize("query", [
    "What scarf did Ivan buy in Oslo?",  # one thing, not a gathering
    "How many books has Ivan read?",
    "Where did Ivan buy the books?",
    "What are Mira's hobbies?",
])
def test_other_questions_do_not_ask_for_named_things(query: str) -> None:
    assert not asks_named(query)


@pytest.mark.parametrize(("text", "named"), [
    ('I just finished "Middlemarch", a slow but rich story.', True),
    ("I was in Lisbon, it was lovely!", True),
    ("Thanks, Lena! I love reading books.", False),  # a speaker's name
    ("Wow. That sounds great! I went there on Monday in May.", False),  # sentence starts, days
    ("Look at this! [shares a photo: a photo of Paris]", False),  # the caption is left out
])
def test_names_thing(text: str, named: bool) -> None:
    assert names_thing(text, ["Lena", "Ivan"]) is named


@pytest.mark.parametrize("query", [
    "What activities does Rosa take part in?",
    "What are Mira's hobbies?",
    "What sports does Omar like besides rowing?",
    "What kind of crafts does Mira do?",
    "What does Ivan do to unwind?",
])
def test_questions_asking_what_someone_does(query: str) -> None:
    assert asks_doing(query)


@pytest.mark.parametrize("query", [
    "What did Lena research?",
    "When did Rosa go sailing?",
    "What books has Ivan read?",
    "How many times has Mira found new cycling routes?",
])
def test_other_questions_do_not_ask_what_someone_does(query: str) -> None:
    assert not asks_doing(query)


@pytest.mark.parametrize(("text", "doing"), [
    ("We went sailing with my cousins last month.", True),
    ("I started rowing three years back and I still love it.", True),
    ("I'm also trying out tai chi to keep limber.", True),
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


# Ivan names a title once, in words the question does not use; another of his turns repeats
# the question's words without naming a book.
BOOKS = [
    (30, [("Ivan", 'Just finished "Middlemarch", a really gripping story.'),
          ("Omar", "Nice, I have to check that out.")]),
    (20, [("Ivan", "I have read so many books this year, reading books is my thing."),
          ("Omar", "Reading is great.")]),
    (10, [("Omar", "How was the game last night?"),
          ("Ivan", "We lost, but it was a close one.")]),
]
BOOKS_Q = "What books has Ivan read?"


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


# Rosa tells of going camping in words the question does not use; another of her turns
# repeats the question's words without telling of anything she did.
DOING = [
    (30, [("Rosa", "We went camping by the lake last weekend, so much fun!"),
          ("Lena", "Sounds lovely.")]),
    (20, [("Rosa", "Such activities sound great, partaking in activities is so good."),
          ("Lena", "Totally agree.")]),
    (10, [("Lena", "How is work going?"),
          ("Rosa", "Busy, but fine.")]),
]
DOING_Q = "What activities does Rosa partake in?"


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
