"""Questions asking what someone has done over time ("Where has Ana camped?"), or what the
person they name does ("Which places does Ana go camping?"): the first
``retrieval.pool_candidates`` candidate turns join stage two's pool even when stage one does
not shortlist their session, ranked below each shortlisted session's best hit
(docs/retrieval.md, sessions 31 and 39)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from hypothesis import given, strategies as st
import pytest

from memlane.config import load_config
from memlane.errors import ConfigError
from memlane.retrieve.gather import PARTICIPLES, asks_habit, asks_over_time
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
LAKE = "We camped by the lake in the forest last weekend."
BEACH = "We camped on the beach in Porto too, the kids loved it."


def _chat() -> list[tuple[float, list[tuple[str, str]]]]:
    """Five sessions of Ana shopping for camping gear (the question's words, several turns
    a session) lead stage one; Ana's two camping trips are told in two other sessions, the
    second one in a session about her week, which stage one ranks sixth."""
    sessions: list[tuple[float, list[tuple[str, str]]]] = []
    for i, gear in enumerate(["tent", "sleeping bag", "camping stove", "lantern", "backpack"]):
        sessions.append((60 - 5 * i, [
            ("Ana", f"Ana here: I want a new {gear} for camping, any camping shop tips?"),
            ("Ben", f"The camping shop downtown sells a good {gear}."),
            ("Ana", f"Thanks Ben, I will check the {gear} prices at that camping shop.")]))
    sessions.insert(2, (50, [("Ana", LAKE), ("Ben", "Sounds peaceful!")]))
    sessions.append((10, [("Ben", "How was your week?"), ("Ana", "Busy at work, and my cat was sick."),
                          ("Ben", "Oh no, hope she is better."), ("Ana", "She is fine now."),
                          ("Ben", "Good to hear."), ("Ana", BEACH), ("Ben", "Nice!")]))
    return sessions


def _top10(path: str | Path, question: str, **retrieval: object) -> list[str]:
    with memory(path, retrieval=retrieval) as mem:
        return [h.item.text for h in mem.search(question, scope="chat", k=10, now=NOW)]


@pytest.fixture
def chat(db_url: str) -> str:
    add_sessions(memory(db_url), _chat(), now=NOW, speakers=True).close()
    return db_url


def test_the_second_trip_joins_the_first_ten(chat: str) -> None:
    off = _top10(chat, "Where has Ana camped?", pool_candidates=0)
    assert LAKE in off and BEACH not in off  # its session is not among stage one's five
    on = _top10(chat, "Where has Ana camped?", pool_candidates=10)
    assert LAKE in on and BEACH in on
    assert _top10(chat, "Where has Ana camped?") == on  # the default (10) takes it


def test_questions_of_other_forms_are_left_alone(chat: str) -> None:
    for question in ("Where did Ana camp?", "How many times has Ana camped?"):
        assert _top10(chat, question, pool_candidates=10) == _top10(chat, question, pool_candidates=0)


def test_a_habit_of_the_person_who_leads_joins_the_first_ten(chat: str) -> None:
    """Asked in the present simple, the question takes the first candidate turns of
    sessions stage one did not shortlist, the second trip among them."""
    question = "What does Ana camp on?"
    assert BEACH not in _top10(chat, question, pool_candidates=0)
    assert BEACH in _top10(chat, question, pool_candidates=10)
    assert _top10(chat, question) == _top10(chat, question, pool_candidates=10)


def test_a_habit_of_someone_the_candidates_do_not_lead_is_left_alone(chat: str) -> None:
    """Ana tells of the camping, in more of the first candidate turns than Ben: a question
    naming Ben names the wrong person (LoCoMo's adversarial questions), and takes no stray."""
    question = "What does Ben camp on?"
    assert asks_habit(question)
    assert _top10(chat, question, pool_candidates=10) == _top10(chat, question, pool_candidates=0)


SUBJECTS = st.sampled_from(["Melanie", "Tim", "James and John", "Melanie and her kids",
                            "Joanna's brother"])


@given(SUBJECTS, st.sampled_from(sorted(PARTICIPLES - {"been"}) + ["camped", "visited",
                                                                    "painted", "pursued"]),
       st.sampled_from(["What", "Where", "Which books", "What kind of art"]))
def test_the_present_perfect_of_experience_is_recognised(subject: str, verb: str, wh: str) -> None:
    aux = "have" if " and " in subject else "has"
    assert asks_over_time(f"{wh} {aux} {subject} {verb}?")


@given(SUBJECTS, st.sampled_from(["playing the piano", "teaching his siblings", "surfing"]))
def test_ongoing_activities_and_have_as_the_verb_are_not(subject: str, doing: str) -> None:
    aux = "have" if " and " in subject else "has"
    assert not asks_over_time(f"How long {aux} {subject} been {doing}?")
    assert not asks_over_time(f"For how long {aux} {subject} had a dog?")
    assert not asks_over_time(f"What {aux} {subject} been {doing}?")
    do = "do" if " and " in subject else "does"
    assert not asks_over_time(f"What pets {do} {subject} have?")
    assert not asks_over_time(f"What did {subject} paint?")


@given(SUBJECTS, st.sampled_from(["What", "Which games", "What kind of stories"]),
       st.sampled_from(["write", "do to relax", "view her pets as", "play"]))
def test_the_present_simple_of_a_habit_is_recognised(subject: str, wh: str, verb: str) -> None:
    do = "do" if " and " in subject else "does"
    assert asks_habit(f"{wh} {do} {subject} {verb}?")
    assert not asks_habit(f"{wh} did {subject} {verb}?")  # the past: one time
    assert not asks_habit(f"Where {do} {subject} {verb}?")
    assert not asks_habit(f"What is {subject} allergic to?")
    assert not asks_habit(f"What did {subject} and her family do while camping?")


def test_pool_candidates_is_checked() -> None:
    with pytest.raises(ConfigError, match="memory.retrieval.pool_candidates"):
        load_config(environ={}, overrides={"retrieval": {"pool_candidates": 101}})
