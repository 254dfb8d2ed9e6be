"""Session 19: the LLM backend's facts of named speakers agree with the offline backend's. A model
told to write "user" for "I" (or writing "I", "my sister") in a conversation between named people
gets each fact's subject from the speaker of the turn it names, against a real loopback chat server."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from memlane.backends.llm import OpenAIChat
from memlane.index.llm_intel import LLMIntelligence
from memlane.index.offline import OfflineIntelligence
from memlane.testing.llm_server import ChatServer
from memlane.types import Message

T0 = datetime(2024, 5, 2, 18, 0, tzinfo=UTC)
TURNS = [("Caroline", "I live in Boston now. My sister lives in Austin."),
         ("Melanie", "Oh nice! I live in Denver. My sister lives in Miami."),
         ("Caroline", "We should visit each other.")]


def _messages(turns=TURNS, roles=None) -> list[Message]:
    return [Message(id=10 + i, session_id=3, scope="friends", role=(roles or {}).get(who, "user"), text=text,
                    at=T0 + timedelta(minutes=i), seq=i + 1, speaker=None if who in ("user", "assistant") else who)
            for i, (who, text) in enumerate(turns)]


@pytest.fixture
def intel(srv: ChatServer) -> Iterator[LLMIntelligence]:
    backend = LLMIntelligence(OpenAIChat(srv.base_url, "test-model", backoff_base=0.01,
                                         api_key_env="MEMLANE_TEST_NO_SUCH_KEY"))
    yield backend
    backend.close()


def _answer(facts: list[dict], relations: list[dict] = ()) -> dict:
    return {"topic": "Catching up", "context": "Two friends catch up.", "facts": facts,
            "relations": list(relations)}


def test_the_users_facts_are_each_speakers_own(srv: ChatServer, intel: LLMIntelligence) -> None:
    srv.script_json(_answer([
        {"subject": "user", "predicate": "lives_in", "object": "Boston", "turn": 1},
        {"subject": "user's sister", "predicate": "lives_in", "object": "Austin", "turn": 1},
        {"subject": "I", "predicate": "lives_in", "object": "Denver", "turn": 2},
        {"subject": "my sister", "predicate": "lives_in", "object": "Miami", "turn": 2},
        {"subject": "Melanie", "predicate": "likes", "object": "Boston", "turn": 3},
        # no turn: which of the two "user" is cannot be told, so it stays "user"
        {"subject": "user", "predicate": "plans", "object": "a visit"},
    ]))
    _, extraction = intel.summarize("friends", _messages())
    got = {(f.subject, f.predicate, f.object) for f in extraction.facts}
    assert got == {("Caroline", "lives_in", "Boston"), ("Caroline's sister", "lives_in", "Austin"),
                   ("Melanie", "lives_in", "Denver"), ("Melanie's sister", "lives_in", "Miami"),
                   ("Melanie", "likes", "Boston"), ("user", "plans", "a visit")}
    # the offline backend reads the same subjects from the same turns
    offline = {(f.subject, f.predicate, f.object) for f in OfflineIntelligence().extract(_messages()).facts}
    assert {("Caroline", "lives_in", "Boston"), ("Caroline's sister", "lives_in", "Austin"),
            ("Melanie", "lives_in", "Denver"), ("Melanie's sister", "lives_in", "Miami")} <= offline


def test_a_chat_with_the_assistant_keeps_user(srv: ChatServer, intel: LLMIntelligence) -> None:
    srv.script_json(_answer([
        {"subject": "I", "predicate": "lives_in", "object": "Leeds", "turn": 1},
        {"subject": "my sister", "predicate": "lives_in", "object": "York", "turn": 1},
    ], [{"from": "I", "relation": "lives_in", "to": "Leeds"}]))
    turns = [("user", "I live in Leeds. My sister lives in York."), ("assistant", "Noted.")]
    _, extraction = intel.summarize("chat", _messages(turns, {"assistant": "assistant"}))
    assert {(f.subject, f.predicate, f.object) for f in extraction.facts} == {
        ("user", "lives_in", "Leeds"), ("my sister", "lives_in", "York")}
    assert [(r.source, r.target) for r in extraction.relations] == [("user", "Leeds")]
