"""The session as a document (``retrieval.session_doc_weight``): stage one's best sessions
gain by their BM25 as one text, so a session whose answer is spread over several turns
rises above one whose single turn shares the question's words."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.errors import ConfigError
from memlane.retrieve.sessiondoc import session_doc_scores
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)

SESSIONS = [
    # the answer, spread: each turn shares a word of the question at most
    (20, [("user", "The fair was on Saturday."),
          ("assistant", "How did it go?"),
          ("user", "I baked all Friday night for it."),
          ("assistant", "Impressive."),
          ("user", "My lemon cake sold out first."),
          ("assistant", "Well done."),
          ("user", "The school raised enough for new books."),
          ("assistant", "Great news.")]),
    # one turn with most of the question's words, in a long session about something else
    (10, [("user", "My sister asked what to bake for the school fair bake sale at her school."),
          ("assistant", "What did you tell her?"),
          ("user", "I told her about my new job at the library and the commute by train "
                   "every morning."),
          ("assistant", "How is the commute?"),
          ("user", "The train is usually late and crowded, so I read on my phone."),
          ("assistant", "Audiobooks help too."),
          ("user", "My manager wants a report on the archive project by the end of the month."),
          ("assistant", "Plan it in weekly steps.")]),
    (5, [("user", "Can you suggest a pasta recipe for tonight?"),
         ("assistant", "A simple tomato and basil pasta is quick.")]),
    (3, [("user", "My bike needs a new chain."),
         ("assistant", "A chain tool helps.")]),
]
QUESTION = "What did I bake for the school fair?"


def _first_session_texts(db: str, weight: float) -> list[str]:
    mem = memory(db, retrieval={"top_sessions": 1, "turns_per_session": 3,
                                "session_doc_weight": weight})
    scope = f"chat-{weight}"  # both runs share the database (one PostgreSQL database a test)
    try:
        add_sessions(mem, SESSIONS, now=NOW, scope=scope)
        hits = mem.search(QUESTION, scope, k=3, now=NOW)
        return [h.item.text for h in hits if h.item.kind == "turn"]
    finally:
        mem.close()


def test_the_spread_session_rises_to_the_top_on_both_stores(db_url: str) -> None:
    off = _first_session_texts(db_url, 0.0)
    assert off[0].startswith("My sister asked what to bake")  # stage one: the one good turn
    on = _first_session_texts(db_url, 1.0)
    assert "I baked all Friday night for it." in on[:3]
    assert not any(t.startswith("My sister asked") for t in on)


def test_off_by_default_and_bad_values_name_the_key() -> None:
    c = load_config(environ={})
    assert c.retrieval.session_doc_depth == 20
    with pytest.raises(ConfigError, match="retrieval.session_doc_weight: must be >= 0"):
        load_config(environ={"MEMLANE_RETRIEVAL_SESSION_DOC_WEIGHT": "-0.1"})
    with pytest.raises(ConfigError, match="retrieval.session_doc_depth"):
        load_config(environ={"MEMLANE_RETRIEVAL_SESSION_DOC_DEPTH": "0"})


def test_scores_favour_the_session_holding_more_of_the_terms() -> None:
    got = session_doc_scores(["school", "fair", "bake"], {
        1: "The fair was on Saturday.\nI baked a cake.\nThe school raised money.",
        2: "The fair was fun.",
        3: "Nothing about it."})
    assert set(got) == {1, 2}
    assert got[1] > got[2] > 0


@settings(max_examples=200, deadline=None)
@given(terms=st.lists(st.text(max_size=12), max_size=6),
       docs=st.dictionaries(st.integers(1, 10**6), st.text(max_size=80), max_size=5))
def test_any_terms_and_texts_score_without_error(terms: list[str], docs: dict[int, str]) -> None:
    got = session_doc_scores(terms, docs)  # quotes, NUL, FTS5 syntax: all literal words
    assert set(got) <= set(docs)
    assert all(v >= 0 for v in got.values())
