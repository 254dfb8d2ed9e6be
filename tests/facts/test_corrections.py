"""A user correcting what they just said (session 26): "My dentist appointment is on Monday."
— "Sorry, I meant Tuesday." Before, the correction was read as nothing (it names no subject
or predicate), so Monday stayed current with full confidence and Tuesday was nowhere. Now the
corrected value is stated at the correction's turn and the old one ends there, whatever the
predicate (a multi-valued one too: "I'm allergic to peanuts" corrected keeps no peanuts).
Only a short turn of the same speaker right after, with one weekday, month, number or name
that replaces the one word of its kind in one fact of the turn before; anything else reads
nothing. Through the offline extractor (hypothesis) and ``Memory`` on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import add_sessions, memory, offline_summary

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)

# (statement, its value's word, the fact's predicate and object, a replacement)
STATEMENTS = [
    ("My dentist appointment is on Monday.", "Monday", ("dentist_appointment", "on Monday"), "Tuesday"),
    ("I live in Leeds.", "Leeds", ("lives_in", "Leeds"), "York"),
    ("I work at Acme.", "Acme", ("works_at", "Acme"), "Globex Labs"),
    ("My flight is at 3pm.", "3pm", ("flight", "at 3pm"), "5pm"),
    ("I'm 34 years old.", "34", ("age", "34"), "35"),
]
OPENINGS = ["", "Sorry, ", "Oops, ", "Sorry! ", "Whoops - ", "My bad, ", "Correction: ", "No, ", "Actually, "]
VERBS = ["I meant", "I mean", "make that", "I should have said", "I meant to say"]
TAILS = ["", ".", "!", ", not {old}.", " instead."]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(STATEMENTS), st.sampled_from(OPENINGS), st.sampled_from(VERBS),
       st.sampled_from(TAILS), st.booleans())
def test_every_way_of_saying_i_meant_states_the_new_value_and_ends_the_old(
        statement, opening, verb, tail, answered) -> None:
    said, old, (predicate, value), new = statement
    fix = f"{opening}{verb if opening else verb[:1].upper() + verb[1:]} {new}{tail.format(old=old)}"
    turns = [f"user: {said}", *(["assistant: Noted."] if answered else []), f"user: {fix}"]
    _, extraction = offline_summary(*turns, model=None)
    facts = {(f.predicate, f.object, f.seq) for f in extraction.facts}
    assert (predicate, value.replace(old, new), len(turns)) in facts, (fix, facts)
    assert {(f.predicate, f.object, f.seq) for f in extraction.endings} == {(predicate, value, len(turns))}


@pytest.mark.parametrize("turns", [
    ("user: My dentist appointment is on Monday.", "assistant: Noted.", "user: I mean it."),
    ("user: My dentist appointment is on Monday.", "assistant: Noted.", "user: Sorry, I meant to ask about Tuesday."),
    ("user: My dentist appointment is on Monday.", "assistant: Noted.", "user: I mean Monday works too."),
    ("user: I work at Acme.", "assistant: Do you like it?", "user: I mean, Globex was better."),
    ("user: My dentist appointment is on Monday.", "assistant: You mean Tuesday?", "user: Yes."),
    # two values it could correct: which one is not said
    ("user: I live in Leeds and I work at Acme.", "assistant: Noted.", "user: Sorry, I meant Globex."),
    # another speaker's words are not the speaker's own to correct
    ("Ana: I live in Leeds.", "Tom: Sorry, I meant York."),
    # a value of another kind than the word it would replace
    ("user: My dentist appointment is on Monday.", "assistant: Noted.", "user: Sorry, I meant 5pm."),
    ("user: I'm allergic to peanuts.", "assistant: Noted.", "user: I mean seriously allergic."),
])
def test_what_is_no_correction_reads_nothing(turns) -> None:
    _, extraction = offline_summary(*turns, model=None)
    assert not extraction.endings
    assert {f.seq for f in extraction.facts} <= {1, 2}


def test_a_correction_keeps_the_corrected_value_current_on_both_stores(db_url: str) -> None:
    with memory(db_url) as mem:
        add_sessions(mem, [(10, [("user", "My dentist appointment is on Monday."), ("assistant", "Noted."),
                                 ("user", "Sorry, I meant Tuesday."), ("assistant", "Tuesday it is.")]),
                           (5, [("user", "I'm allergic to Penicillin."), ("assistant", "Noted."),
                                ("user", "Oops, I meant Amoxicillin."), ("assistant", "Got it.")])],
                     now=NOW, scope="u")
        current = {(f.predicate, f.object) for f in mem.facts("u", now=NOW)}
        assert ("dentist_appointment", "on Tuesday") in current  # was on Monday
        assert ("dentist_appointment", "on Monday") not in current
        assert ("allergic_to", "Amoxicillin") in current
        assert ("allergic_to", "Penicillin") not in current  # a value of many: ended, not kept beside
        history = mem.fact_history("user", "dentist_appointment", "u", now=NOW)
        assert [(h["object"], h["status"]) for h in history if h["status"] != "ended"] == [
            ("on Monday", "superseded"), ("on Tuesday", "current")]


def test_an_llm_summarised_correction_is_read_too(tmp_path) -> None:
    """The LLM backend's facts of the turn before are corrected the same way (its JSON has no
    field for a correction); a model that already wrote the corrected value changes nothing."""
    from memlane.backends.llm import OpenAIChat
    from memlane.config import load_config
    from memlane.index.llm_intel import LLMIntelligence
    from memlane.memory import Memory
    from memlane.testing import HashingEmbedder
    from memlane.testing.llm_server import ChatServer

    with ChatServer() as srv:
        backend = LLMIntelligence(OpenAIChat(srv.base_url, "test-model", backoff_base=0.01,
                                             api_key_env="MEMLANE_TEST_NO_SUCH_KEY"))
        srv.script_json({"topic": "Dentist", "context": "An appointment.", "facts": [
            {"subject": "user", "predicate": "dentist appointment", "object": "on Monday", "turn": 1}]})
        srv.script_json({"topic": "Dentist", "context": "An appointment.", "facts": [
            {"subject": "the user", "predicate": "dentist appointment", "object": "on Friday", "turn": 1}]})
        config = load_config(environ={}, overrides={"db": str(tmp_path / "m.db")})
        mem = Memory(config=config, embedder=HashingEmbedder(dim=256, char_trigrams=True), intelligence=backend)
        try:
            turns = [("user", "My dentist appointment is on Monday."), ("assistant", "Noted."),
                     ("user", "Sorry, I meant Tuesday."), ("assistant", "Tuesday it is.")]
            add_sessions(mem, [(10, turns)], now=NOW, scope="u")
            assert [f.object for f in mem.facts("u", now=NOW)] == ["on Tuesday"]
            # a model that wrote the corrected value at the first turn: no correction to read
            add_sessions(mem, [(5, [("user", "My dentist appointment is on Friday."), ("assistant", "Noted."),
                                    ("user", "Sorry, I meant Friday."), ("assistant", "OK.")])],
                         now=NOW, scope="v")
            assert [(f.object, f.status) for f in mem.facts("v", include_superseded=True, now=NOW)] == [
                ("on Friday", "current")]
        finally:
            mem.close()
            backend.close()
