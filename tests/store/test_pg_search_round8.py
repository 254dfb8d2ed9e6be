"""PostgreSQL search, eighth round: each candidate list's items are read as soon as that list
is ranked, on the connection that ranked it (``reads.ReadAhead``), so the search's
``get_items`` finds them read; the same items, superseded flags and sessions as the
statements of the seventh round."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

pytest.importorskip("psycopg")

from memlane.store import Filters
from memlane.store.postgres import search as pg_search
from memlane.store.postgres.search import PostgresSearch
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
SESSIONS = [
    (60, [("user", "My favorite color is blue."), ("assistant", "Blue is calming."),
          ("user", "I live in Boston near the harbor."), ("assistant", "Boston harbor is lovely.")]),
    (5, [("user", "My favorite color is green now."), ("assistant", "Green is fresh."),
         ("user", "I live in Denver these days."), ("assistant", "Denver has mountains.")]),
]


@pytest.fixture
def mem(pg_url, monkeypatch):
    """A store whose two lists overlap whatever its size (in production once the model's
    HNSW index exists), with a message whose facts were all superseded."""
    monkeypatch.setattr(PostgresSearch, "_overlap", lambda self, model, dim, f: not self.db.in_transaction)
    m = add_sessions(memory(pg_url), SESSIONS, now=NOW)
    yield m
    m.close()


def _item_reads(sent):
    """The id arrays of the statements that read items by key."""
    return [params[0] for q, params in sent if "FROM items WHERE id = ANY" in q]


def _ids(literal: str) -> list[int]:
    return [int(x) for x in literal.strip("{}").split(",")]


@pytest.mark.parametrize("superseded", [True, False])
def test_both_lists_items_are_read_ahead_once_and_get_items_reads_none(mem, sent_statements, superseded):
    s = mem.store
    model, qvec = mem.embeddings.model, mem.embeddings.for_query("favorite color harbor")
    terms = ["color", "harbor"]
    want_lists = (s.lexical_search(terms, Filters(), 20), s.vector_search(model, qvec, Filters(), 20))
    ids = list(dict.fromkeys(i for lst in want_lists for i, _ in lst))
    want_items = s.get_items(ids)
    messages = sorted({it.message_id for it in want_items.values() if it.message_id is not None})
    want_superseded = s.superseded_messages(messages)
    assert want_superseded, "a message whose facts were all superseded is among the candidates"
    lexical_ids = {i for i, _ in want_lists[0]}
    assert lexical_ids & {i for i, _ in want_lists[1]}, "an item in both lists"
    with s.reading(superseded=superseded), sent_statements(s) as sent:
        got_lists = s.lexical_and_vector_search(terms, model, qvec, Filters(), 20)
        n = len(sent)
        got = s.get_items(ids)
        got_superseded = s.superseded_messages(messages)
    assert got_lists == want_lists
    assert got == want_items and list(got) == ids
    assert got_superseded == want_superseded
    reads = [_ids(x) for x in _item_reads(sent[:n])]
    assert sorted(i for r in reads for i in r) == sorted(ids)  # each item read once
    assert all("FROM facts" in q for q, _ in sent[:n] if "FROM items WHERE id = ANY" in q) is superseded
    assert all("FROM sessions" not in q for q, _ in sent[:n] if "FROM items WHERE id = ANY" in q)
    # get_items read nothing; superseded_messages asked only outside a newest-first block
    assert len(sent) == n + (0 if superseded else 1), sent[n:]


def test_the_hits_sessions_are_read_when_asked(mem, sent_statements):
    s = mem.store
    model, qvec = mem.embeddings.model, mem.embeddings.for_query("favorite color")
    with s.reading():
        lexical, vector = s.lexical_and_vector_search(["color"], model, qvec, Filters(), 20)
        items = s.get_items([i for i, _ in lexical + vector])
        sids = {it.session_id for it in items.values() if it.session_id is not None}
        with sent_statements(s) as sent:
            got = s.get_sessions(sids)
        with sent_statements(s) as again:
            assert s.get_sessions(sids) == got
    assert len(sent) == 1 and not again  # read once, then remembered
    assert got == s.get_sessions(sids) and set(got) == sids and len(sids) == 2


def test_outside_a_search_or_switched_off_no_items_are_read(mem, sent_statements, monkeypatch):
    s = mem.store
    model, qvec = mem.embeddings.model, mem.embeddings.for_query("favorite color")
    with sent_statements(s) as sent:
        s.lexical_and_vector_search(["color"], model, qvec, Filters(), 20)
    assert sent and not _item_reads(sent)
    monkeypatch.setattr(pg_search, "PREFETCH_ITEMS", False)
    with s.reading(), sent_statements(s) as sent:
        lexical, vector = s.lexical_and_vector_search(["color"], model, qvec, Filters(), 20)
        n = len(sent)
        s.get_items([i for i, _ in lexical + vector])
    assert not _item_reads(sent[:n]) and len(_item_reads(sent)) == 1  # get_items reads them all
