"""One search's reads on PostgreSQL (``memlane.store.postgres.reads``): the same hits, ids,
scores and sessions in fewer statements, and reads the remembered rows do not cover
still answered by the database."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

pytest.importorskip("psycopg")

from memlane.retrieve.options import search_options
from memlane.retrieve.search import search as search_items
from memlane.store.filters import Filters
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
SESSIONS = [
    (60, [("user", "My favorite color is blue."), ("assistant", "Blue is calming."),
          ("user", "I live in Boston near the harbor with Ana."), ("assistant", "Boston harbor is lovely.")]),
    (30, [("user", "I baked sourdough bread this weekend with Ana."), ("assistant", "Nice crust?"),
          ("user", "The crumb was dense."), ("assistant", "Try a longer proof.")]),
    (5, [("user", "My favorite color is green now."), ("assistant", "Green is fresh."),
         ("user", "I live in Denver these days."), ("assistant", "Denver has mountains.")]),
]
QUERIES = ["What is my favorite color?", "Where do I currently live?", "sourdough crumb Ana",
           "What did I bake with Ana?", "harbor", "mountains and bread"]


def _hits(mem, query: str, scope: str | None):
    opts = search_options(mem.config, explain=True, meaning=mem._meaning_tier)
    f = Filters.build(scope=scope, privacy=mem.config.search.default_privacy)
    hits = search_items(mem.store, mem.embeddings, mem.config.search, opts, query, f, 8, NOW)
    return [(h.item, h.score, h.scores, h.session) for h in hits]


@pytest.fixture
def mem(pg_url):
    m = add_sessions(memory(pg_url), SESSIONS, now=NOW)
    s = m.store
    with s.atomic():  # an entity of the scope for the graph stage to find by name
        s.upsert_entity("chat", "Ana", "ana", "person", "a friend", NOW.timestamp())
    yield m
    m.close()


def test_a_search_within_reading_finds_the_same_hits_in_fewer_statements(mem, round_trips) -> None:
    s = mem.store
    assert "ana" in s.entity_names("chat")
    for query in QUERIES:
        for scope in ("chat", None):
            _hits(mem, query, scope)  # the term statistics and prepared statements, once
            with round_trips(s) as plain:
                want = _hits(mem, query, scope)
            with round_trips(s) as reads, s.reading(superseded=True):
                got = _hits(mem, query, scope)
            assert got == want and want, (query, scope)
            assert reads.count < plain.count, (query, scope, reads.count, plain.count)
    # a scoped present-tense question: sessions, superseded facts, vectors and entity names
    # each came with an earlier statement
    with round_trips(s) as plain:
        _hits(mem, "What is my favorite color?", "chat")
    with round_trips(s) as reads, s.reading(superseded=True):
        _hits(mem, "What is my favorite color?", "chat")
    assert plain.count - reads.count >= 4, (plain.count, reads.count)


@pytest.mark.parametrize("sessions_with_items", [20, 1])
def test_reads_not_remembered_are_asked_of_the_database(mem, monkeypatch, sessions_with_items) -> None:
    """Also when the items span more sessions than get_items brings along (then none come)."""
    from memlane.store.postgres import reads

    monkeypatch.setattr(reads, "SESSIONS_WITH_ITEMS", sessions_with_items)
    s = mem.store
    items = {it["id"]: it for it in s.iter_items()}
    turns = [i for i, it in items.items() if it["kind"] == "turn"]
    model = mem.embeddings.model
    sessions = sorted({it["session_id"] for it in items.values() if it["session_id"]})
    messages = sorted({it["message_id"] for it in items.values() if it["message_id"]})
    want = (s.get_sessions(sessions), s.superseded_messages(messages),
            s.item_vectors(model, turns), s.entity_names("chat"), s.entity_names("other"))
    assert want[1], "the fixture has a message whose facts were all superseded"
    with s.reading(superseded=True):
        s.get_items([turns[0], turns[-1]])  # two items' sessions (two) and messages
        qvec = mem.embeddings.for_query("favorite color")
        s.vector_search(model, qvec, Filters(scope="chat"), 2)  # remembers two vectors
        s.lexical_search(["color"], Filters(scope="other"), 5)  # remembers "other"'s names
        got = (s.get_sessions(sessions), s.superseded_messages(messages),
               s.item_vectors(model, turns), s.entity_names("chat"), s.entity_names("other"))
    assert got[0] == want[0] and got[1] == want[1] and got[3:] == want[3:]
    assert list(got[2]) == list(want[2]) and all(np.array_equal(got[2][i], want[2][i]) for i in turns)
    assert s._reads() is None  # nothing is remembered past the block


def test_the_facts_are_read_with_the_items_only_when_the_search_will_ask(mem, sent_statements) -> None:
    s = mem.store
    turns = [it["id"] for it in s.iter_items() if it["kind"] == "turn"][:4]
    for wanted in (False, True):
        with sent_statements(s) as sent, s.reading(superseded=wanted):
            first = s.get_items(turns[:3])
            assert s.get_items(turns[:1]) == {turns[0]: first[turns[0]]}  # read already: no statement
            s.get_items(turns[2:])  # only the fourth is read
        assert len(sent) == 2 and ["FROM facts" in q for q, _ in sent] == [wanted, False], sent
        assert sent[1][1][0] == "{%d}" % turns[3]
