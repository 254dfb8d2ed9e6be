"""Session 28: one value however it is spelled.

A fact's value was compared by ``normalize_name`` (case, spacing, punctuation, accents
kept): "lives in São Paulo" and "lives in Sao Paulo" were two values, so the second
superseded the first (a history "São Paulo → Sao Paulo" for one truth), two spellings of a
liked dish were both current, and an ending "I no longer live in Sao Paulo" did not end
"São Paulo". ``normalize_value`` is now ``name_key`` without a leading article; migration
``value_keys`` writes the stored keys again on both stores and merges what falls together.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime, timedelta
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.index.facts import end_fact
from memlane.index.normalize import normalize_name, normalize_value
from memlane.memory import Memory
from memlane.store.rekey import rekey_values
from tests.facts.conftest import migration, rows

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)


def _day(days_ago: float) -> datetime:
    return NOW - timedelta(days=days_ago)



def _old_key(value: str) -> str:
    """``normalize_value`` before session 28: accents kept."""
    return re.sub(r"^(the|a|an) ", "", normalize_name(value))


_VALUES = ["São Paulo", "Crème brûlée", "Zürich", "Bogotá", "Café Nero", "Kraków", "Jalapeño poppers",
           "Ça Va Bistro", "Nguyễn Huệ street", "the Musée d'Orsay"]


def _strip(text: str) -> str:
    """``text`` without the accents of its Latin letters."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


@st.composite
def _spellings(draw: Any, value: str) -> str:
    """One spelling of ``value``: accents kept or stripped, any case, composed or decomposed
    (NFC, NFD), spaces doubled or around it, a final full stop or exclamation mark."""
    text = value if draw(st.booleans()) else _strip(value)
    text = draw(st.sampled_from([str.lower, str.upper, str.title, lambda t: t]))(text)
    text = unicodedata.normalize(draw(st.sampled_from(["NFC", "NFD", "NFKC", "NFKD"])), text)
    if draw(st.booleans()):
        text = text.replace(" ", "  ")
    text = draw(st.sampled_from(["", " ", "  "])) + text + draw(st.sampled_from(["", ".", "!", " .", "  "]))
    return text


@st.composite
def _statements(draw: Any) -> tuple[str, list[tuple[str, int]]]:
    value = draw(st.sampled_from(_VALUES))
    said = draw(st.lists(st.tuples(_spellings(value), st.integers(1, 90)), min_size=2, max_size=5,
                         unique_by=lambda t: t[1]))
    return value, said


_counter = iter(range(10**9))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(statements=_statements())
@example(statements=("São Paulo", [("São Paulo", 30), ("Sao Paulo", 10)]))
@example(statements=("São Paulo", [("SÃO PAULO.", 10), (unicodedata.normalize("NFD", "São  Paulo"), 30)]))
def test_spellings_of_one_value_are_one_current_fact_on_both_stores(pair: Any, statements: Any) -> None:
    """Any spellings of one value, stated in any time order of a single-valued predicate
    (``lives_in``) and a multi-valued one (``likes``): one fact, current, the value as first
    written, reinforced by every later statement; no history; an ending naming any spelling
    ends it."""
    value, said = statements
    scope = f"v{next(_counter)}"
    for mem in pair:
        for pred in ("lives_in", "likes"):
            outcomes = [mem.add_fact("user", pred, text, scope=scope, at=_day(days)) for text, days in said]
            assert [o.action for o in outcomes] == ["added"] + ["reinforced"] * (len(said) - 1), (pred, said)
            current = [f for f in mem.facts(scope, "user") if f.predicate == pred]
            assert [(f.object, f.status, f.reinforcements) for f in current] == [
                (said[0][0].strip(), "current", len(said) - 1)], (pred, said)
            assert [h["object"] for h in mem.fact_history("user", pred, scope)] == [said[0][0].strip()]
        # an ending of the value under another spelling, said after every statement, ends both
        with mem.store.atomic():
            for pred in ("lives_in", "likes"):
                out = end_fact(mem.store, mem.config.facts, scope=scope, subject="user", predicate=pred,
                               obj=_strip(value).upper(), at=_day(0).timestamp(), session_id=None,
                               message_id=None)
                assert len(out.replaced) == 1, (pred, value)
        assert mem.facts(scope, "user") == []


def test_the_model_s_two_spellings_of_one_fact_are_one(srv: Any) -> None:
    """The LLM backend's de-duplication of a model's facts keys the value as a fact is keyed:
    "São Paulo" and "Sao Paulo." of one subject and predicate are one fact (two before)."""
    from memlane.backends.llm import OpenAIChat
    from memlane.index.llm_intel import LLMIntelligence
    from memlane.types import Message

    srv.script_json({"topic": "moving", "context": "The user lives in São Paulo.", "facts": [
        {"subject": "user", "predicate": "lives_in", "object": "São Paulo", "turn": 1},
        {"subject": "user", "predicate": "lives_in", "object": "Sao Paulo.", "turn": 2},
        {"subject": "user", "predicate": "likes", "object": "Crème brûlée", "turn": 2},
        {"subject": "user", "predicate": "likes", "object": "CREME BRULEE", "turn": 2},
    ]})
    backend = LLMIntelligence(OpenAIChat(srv.base_url, "test-model", backoff_base=0.01,
                                         api_key_env="MEMLANE_TEST_NO_SUCH_KEY"))
    try:
        messages = [Message(id=1, session_id=1, scope="u", role="user", text=text, at=NOW, seq=i + 1)
                    for i, text in enumerate(["I live in São Paulo now.", "Yes, Sao Paulo. I love crème brûlée."])]
        _summary, extraction = backend.summarize("u", messages)
    finally:
        backend.close()
    assert [(f.predicate, f.object) for f in extraction.facts] == [("lives_in", "São Paulo"),
                                                                   ("likes", "Crème brûlée")]


@pytest.fixture
def srv() -> Any:
    from memlane.testing.llm_server import ChatServer

    with ChatServer() as server:
        yield server




def test_an_old_database_is_rekeyed_and_merged_on_both_stores(db_url: str,
                                                               open_memory: Callable[[str], Memory]) -> None:
    """A database as the code before left it (value keys with accents: "Crème brûlée" and
    "Creme brulee" both current likes, "São Paulo" current after "I no longer live in Sao
    Paulo"), opened: every key written again, one current like (the newest stated, the other
    its history), São Paulo ended by the ending; values as written; a second run changes
    nothing."""
    mem = open_memory(db_url)
    s = mem.store
    # each statement in a scope of its own, then moved into one: the old code's two rows
    mem.add_fact("user", "likes", "Crème brûlée", scope="t1", at=_day(30))
    mem.add_fact("user", "likes", "Creme brulee", scope="t2", at=_day(10))
    mem.add_fact("user", "likes", "jazz", scope="t1", at=_day(20))
    mem.add_fact("user", "lives_in", "São Paulo", scope="t1", at=_day(40))
    with s.atomic():
        end_fact(s, mem.config.facts, scope="t2", subject="user", predicate="lives_in", obj="Sao Paulo",
                 at=_day(20).timestamp(), session_id=None, message_id=None)
        for table in ("facts", "items", "fact_events"):
            s._run(f"UPDATE {table} SET scope = 'u' WHERE scope IN ('t1', 't2')")
        for fid, obj in s._run("SELECT id, object FROM facts").fetchall():
            s._run("UPDATE facts SET norm_object = %s WHERE id = %s", (_old_key(obj) if obj else "", fid))
        s._run("DELETE FROM schema_migrations WHERE name = %s", (migration(db_url, "value_keys"),))
    mem.close()
    assert sorted(r[0] for r in rows(db_url, "SELECT object FROM facts WHERE status = 'current'")) == [
        "Creme brulee", "Crème brûlée", "São Paulo", "jazz"]

    mem = open_memory(db_url)
    try:
        current = {(f.predicate, f.object) for f in mem.facts("u", "user")}
        assert current == {("likes", "Creme brulee"), ("likes", "jazz")}
        likes = mem.fact_history("user", "likes", "u")
        assert [(h["object"], h["status"]) for h in likes] == [
            ("Crème brûlée", "superseded"), ("jazz", "current"), ("Creme brulee", "current")]
        lives = mem.fact_history("user", "lives_in", "u")
        assert [(h["object"], h["status"]) for h in lives] == [("São Paulo", "superseded"), ("Sao Paulo", "ended")]
        for obj, norm in rows(db_url, "SELECT object, norm_object FROM facts"):
            assert norm == (normalize_value(obj) if obj else "")
        before = [sorted(map(str, rows(db_url, f"SELECT * FROM {t}"))) for t in ("facts", "fact_events", "items")]
        with mem.store.atomic():
            rekey_values(mem.store.db)
        after = [sorted(map(str, rows(db_url, f"SELECT * FROM {t}"))) for t in ("facts", "fact_events", "items")]
        assert after == before
    finally:
        mem.close()
