"""Whatever facts a model answers within the summary's schema (session 26), the LLM backend
stores only whole facts of the session's own scope, and the scope's facts stay true: a value
the model wrote as a number or a boolean is that value as JSON writes it (``0`` and ``false``
were dropped, so "I have 0 cars now" left 2 cars current), an empty subject, predicate or
object drops the fact, a huge one is clipped, and a field the schema does not know
(``confidence``, ``supersedes``, ``scope``) changes nothing. Against a loopback chat server,
through ``Memory``."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.backends.llm import OpenAIChat
from memlane.config import load_config
from memlane.index.llm_intel import LLMIntelligence
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, add_sessions
from memlane.testing.llm_server import ChatServer

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)
TURNS = [("user", "I live in Berlin and I have 2 cars. My sister Ana likes jazz."), ("assistant", "Noted."),
         ("user", "Actually I have 0 cars now."), ("assistant", "OK.")]

WORDS = ["user", "I", "the user", "Ana", "Zorblax", "Berlin", "cars", "lives in", "likes", "has cars", "!!!", "é" * 3]
text = st.one_of(st.sampled_from([*WORDS, "", "  ", "\x00\u200b"]),
                 st.text(max_size=30), st.text(alphabet="ab ", min_size=300, max_size=3000))
value = st.one_of(text, st.integers(-3, 3), st.sampled_from([0, 1.5, 2.0, True, False, 10**20]))
fact = st.fixed_dictionaries(
    {"subject": text, "predicate": text, "object": value},
    optional={"turn": st.one_of(st.none(), st.integers(-1, 6), st.sampled_from(["1", "turn 3", "x"])),
              "source": st.one_of(st.none(), st.sampled_from(["stated", "inferred", "guess", ""])),
              "confidence": st.one_of(st.floats(allow_nan=False), st.text(max_size=5)),
              "supersedes": st.integers(0, 5), "scope": st.just("other")})


def _stored(mem: Memory) -> list[Any]:
    return mem.facts(None, include_superseded=True, now=NOW)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(facts=st.lists(fact, max_size=6))
@example(facts=[{"subject": "I", "predicate": "has cars", "object": 0, "confidence": "high", "supersedes": 1}])
def test_any_facts_a_model_answers_leave_only_whole_facts_of_the_scope(facts: list[dict[str, Any]]) -> None:
    with ChatServer() as srv, tempfile.TemporaryDirectory() as folder:
        backend = LLMIntelligence(OpenAIChat(srv.base_url, "test-model", backoff_base=0.01,
                                             api_key_env="MEMLANE_TEST_NO_SUCH_KEY"))
        srv.script_json({"topic": "Home", "context": "Where the user lives.", "facts": facts})
        config = load_config(environ={}, overrides={"db": str(Path(folder) / "m.db")})
        with Memory(config=config, embedder=HashingEmbedder(dim=64), intelligence=backend) as mem:
            mem.add_fact("user", "lives_in", "Rome", scope="other", at=NOW)
            add_sessions(mem, [(5, TURNS)], now=NOW, scope="u")
            assert [s.status for s in mem.sessions("u")] == ["summarized"]
            stored = _stored(mem)
            other = [f for f in stored if f.scope == "other"]
            assert [(f.object, f.status) for f in other] == [("Rome", "current")]  # never touched
            current: dict[tuple[str, str], list[str]] = {}
            for f in stored:
                assert f.subject.strip() and f.predicate.strip() and f.object.strip(), f
                assert len(f.subject) <= 200 and len(f.predicate) <= 100 and len(f.object) <= 400, f
                if f.superseded_by is not None:
                    assert next(g for g in stored if g.id == f.superseded_by).scope == f.scope
                if f.status == "current" and f.scope == "u" and f.predicate in ("lives_in", "has_cars"):
                    current.setdefault((f.subject, f.predicate), []).append(f.object)
            assert all(len(v) == 1 for v in current.values()), current
            # a number or a boolean of the user's is stored as JSON writes it (0 and false were dropped)
            kept = {f.object for f in stored if f.scope == "u"}
            scalars = {json.dumps(f["object"]) for f in facts
                       if f["subject"] in ("user", "I", "the user") and f["predicate"] in WORDS
                       and isinstance(f["object"], (bool, int, float))}
            assert scalars <= kept, (scalars, kept)
        backend.close()


def test_a_value_written_as_zero_or_false_is_stored(tmp_path: Path) -> None:
    with ChatServer() as srv:
        backend = LLMIntelligence(OpenAIChat(srv.base_url, "test-model", backoff_base=0.01,
                                             api_key_env="MEMLANE_TEST_NO_SUCH_KEY"))
        srv.script_json({"topic": "Cars", "context": "The user's cars.", "facts": [
            {"subject": "user", "predicate": "car count", "object": 2, "turn": 1},
            {"subject": "user", "predicate": "car count", "object": 0, "turn": 3},
            {"subject": "user", "predicate": "vegetarian", "object": False, "turn": 1},
            {"subject": "user", "predicate": "has pets", "object": True, "turn": 1}]})
        config = load_config(environ={}, overrides={"db": str(tmp_path / "m.db")})
        with Memory(config=config, embedder=HashingEmbedder(dim=64), intelligence=backend) as mem:
            add_sessions(mem, [(5, TURNS)], now=NOW, scope="u")
            assert sorted((f.predicate, f.object) for f in mem.facts("u", now=NOW)) == [
                ("car_count", "0"), ("has_pets", "true"), ("vegetarian", "false")]  # was 2 current
        backend.close()
