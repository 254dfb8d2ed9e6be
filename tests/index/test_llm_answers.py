"""What a model answers, through the queue into each store: text no message could hold
(NUL, controls, lone surrogates, names of 50,000 characters) is cleaned the same way for
SQLite and PostgreSQL, so the session is summarized on both and both store the same."""

from __future__ import annotations

import json
import unicodedata
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import memory
from memlane.testing.llm_server import ChatServer

NOW = "2024-06-01T00:00:00Z"
T0 = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)


def _llm_memory(db, srv, **indexing):
    return memory(
        db,
        indexing={"backend": "llm", "service": "local", "retry_base_seconds": 0, **indexing},
        llm_services={"local": {"base_url": srv.base_url, "model": "test-model",
                                "timeout_seconds": 5, "max_retries": 0}},
    )


def _conversation(mem, scope="s"):
    lines = ["I moved to Lisbon last spring and I drink green tea every morning.",
             "Lisbon is lovely in spring.", "My sister Hana lives in Kyoto.", "Nice!"]
    for i, text in enumerate(lines):
        mem.add_message(scope, "user" if i % 2 == 0 else "assistant", text,
                        T0 + timedelta(minutes=i))
    return mem.close_session(scope)


# a JSON answer as a model sent it: "\u0000" and "\ud800" escapes, raw controls, huge names
ODD = ('{"topic": "Tea\\u0000 and Lisbon\\ud800", "context": "The user\\u0007 moved.",'
       ' "decisions": ["Drink\\u0000 tea", "' + "D" * 30000 + '"],'
       ' "entities": [{"name": "Lis\\u0000bon", "type": "place\\u001b[31m"},'
       ' {"name": "' + "E" * 50000 + '", "type": "' + "t" * 5000 + '"}],'
       ' "facts": [{"subject": "user", "predicate": "drinks", "object": "green\\u0000 tea",'
       ' "turn": 1}, {"subject": "Hana", "predicate": "lives in", "object": "Kyo\\udc00to",'
       ' "turn": 3}, {"subject": "user", "predicate": "' + "p" * 9000 + '", "object": "'
       + "O" * 50000 + '"}],'
       ' "relations": [{"from": "Hana", "relation": "sister\\u0000 of", "to": "user"}],'
       ' "observations": [{"text": "I drink green tea\\u0000 every morning", "turn": 1}]}')


def test_a_models_odd_text_is_cleaned_and_stored_alike(db_url):
    json.loads(ODD)  # valid JSON: what a real server can send
    with ChatServer() as srv:
        mem = _llm_memory(db_url, srv)
        session = _conversation(mem)
        srv.script(ODD)
        report = mem.index(now=NOW)
        (s,) = mem.sessions()
        assert (report.sessions_summarized, report.sessions_failed) == (1, 0), s.failed_reason
        intel = mem.session_intelligence(session.id)
        stored = json.dumps(intel, ensure_ascii=False)
        assert "\x00" not in stored and "\x07" not in stored and "\x1b" not in stored
        assert intel["summary"]["topic"] == "Tea and Lisbon\ufffd"
        facts = {(f["subject"], f["predicate"], f["object"]) for f in intel["facts"]}
        assert ("user", "drinks", "green tea") in facts
        assert ("Hana", "lives_in", "Kyo\ufffdto") in facts
        assert max(len(f["object"]) for f in intel["facts"]) <= 400
        assert max(len(f["predicate"]) for f in intel["facts"]) <= 100
        assert {e["name"] for e in intel["entities"]} >= {"Lis bon"}
        assert max(len(e["name"]) for e in intel["entities"]) <= 200
        assert max(len(d) for d in intel["summary"]["decisions"]) <= 400
        assert [o["text"] for o in intel["observations"]] == ["I drink green tea every morning"]
        assert mem.search("green tea", kinds=["fact"])
        mem.close()


_ANY = st.text(st.characters(codec=None, categories=None), max_size=600)


@pytest.fixture(scope="module")
def chat_server():
    with ChatServer() as srv:
        yield srv


@settings(max_examples=60, deadline=None)
@given(topic=_ANY, name=_ANY, obj=_ANY, items=st.lists(_ANY, max_size=3))
def test_every_string_a_model_returns_comes_out_storable(chat_server, topic, name, obj, items):
    """Property: whatever characters a model puts in its JSON, what LLMIntelligence hands
    on has no control character, no lone surrogate and stays within its field's length."""
    from memlane.backends.llm import OpenAIChat
    from memlane.index.llm_intel import LLMIntelligence
    from memlane.testing import turn_messages

    answer = {"topic": topic, "context": obj, "decisions": items, "topic_tags": items,
              "entities": [{"name": name, "type": obj}],
              "facts": [{"subject": name, "predicate": topic, "object": obj, "turn": 1}],
              "relations": [{"from": name, "relation": topic, "to": obj}],
              "observations": [{"text": obj, "turn": 1}]}
    chat_server.script(json.dumps(answer))
    with OpenAIChat(chat_server.base_url, "m") as chat:
        summary, extraction = LLMIntelligence(chat).summarize(
            "s", turn_messages(["user: I drink tea", "assistant: Nice"]))
    strings = [summary.topic, summary.context, *summary.decisions, *summary.topic_tags,
               *(x for e in extraction.entities for x in (e.name, e.type, e.context)),
               *(x for f in extraction.facts for x in (f.subject, f.predicate, f.object)),
               *(x for r in extraction.relations for x in (r.source, r.relation, r.target)),
               *(o.text for o in extraction.observations)]
    for text in strings:
        assert not any(unicodedata.category(c) in ("Cc", "Cs") for c in text), repr(text)
        assert len(text) <= 2000 and text == text.strip()
        text.encode("utf-8")
