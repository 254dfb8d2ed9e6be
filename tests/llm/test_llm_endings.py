"""Session 22: "I no longer work at Acme" retires the fact whichever backend summarised. An LLM's
JSON has no field for an ending, so the offline patterns read the endings of a session the LLM
backend summarised; against a real loopback chat server, through ``Memory`` (before session 22
the old value stayed current)."""

from __future__ import annotations

from datetime import UTC, datetime

from memlane.backends.llm import OpenAIChat
from memlane.config import load_config
from memlane.index.llm_intel import LLMIntelligence
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, add_sessions
from memlane.testing.llm_server import ChatServer

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)


def test_an_llm_summarised_session_ends_a_fact(srv: ChatServer, tmp_path) -> None:
    backend = LLMIntelligence(OpenAIChat(srv.base_url, "test-model", backoff_base=0.01,
                                         api_key_env="MEMLANE_TEST_NO_SUCH_KEY"))
    srv.script_json({"topic": "Work", "context": "The user's job.",
                     "facts": [{"subject": "user", "predicate": "works_at", "object": "Acme", "turn": 1},
                               {"subject": "user", "predicate": "owns", "object": "Toyota Corolla", "turn": 3}]})
    srv.script_json({"topic": "News", "context": "The user's news.", "facts": []})
    config = load_config(environ={}, overrides={"db": str(tmp_path / "m.db")})
    mem = Memory(config=config, embedder=HashingEmbedder(dim=256, char_trigrams=True), intelligence=backend)
    try:
        add_sessions(mem, [(30, [("user", "I work at Acme."), ("assistant", "Noted."),
                                 ("user", "I drive a Toyota Corolla."), ("assistant", "Nice.")]),
                           (10, [("user", "Big news: I quit my job at Acme."), ("assistant", "Wow."),
                                 ("user", "And I sold my Corolla."), ("assistant", "OK.")])],
                     now=NOW, scope="u")
        assert len(srv.chat_requests) == 2
        assert {(f.predicate, f.object) for f in mem.facts("u", now=NOW)} == set()
        retired = {(f.predicate, f.object) for f in mem.facts("u", include_superseded=True, now=NOW)
                   if f.status == "superseded"}
        assert retired == {("works_at", "Acme"), ("owns", "Toyota Corolla")}
    finally:
        mem.close()
        backend.close()
