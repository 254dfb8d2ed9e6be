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
    """A store whose two lists overlap: its model's HNSW index exists (built by the indexing
    run at the end of ``add_sessions``, the threshold lowered to this store's size), with a
    message whose facts were all superseded."""
    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 1)
    m = add_sessions(memory(pg_url), SESSIONS, now=NOW)
    assert m.store._overlap(m.embeddings.model, m.embeddings.embedder.dim, Filters())
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


@pytest.fixture
def walked(pg_url, monkeypatch):
    """A store with the model's HNSW index (over 40 vectors) whose two lists overlap."""
    import numpy as np

    from memlane.store import open_store

    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 10)
    s = open_store(pg_url)
    rng = np.random.default_rng(3)
    vecs = rng.normal(size=(40, 8)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with s.atomic():
        sid = s.create_session("s", 1.0, None, None)
        ids = s.insert_items([{"kind": "turn", "text": f"word{i % 4} other{i}", "at": float(i), "scope": "s",
                               "session_id": sid, "keys": "key" if i % 2 else ""} for i in range(40)])
        s.put_vectors("m", list(zip(ids, vecs, strict=True)))
    assert s.ensure_vector_index("m", 8) and s._overlap("m", 8, Filters())
    yield s, vecs
    s.close()


@pytest.mark.parametrize("superseded", [True, False])
def test_the_graph_walk_brings_its_items(walked, sent_statements, superseded):
    s, vecs = walked
    want = (s.lexical_search(["word1"], Filters(), 5), s.vector_search("m", vecs[0], Filters(), 5))
    ids = list(dict.fromkeys(i for lst in want for i, _ in lst))
    want_items = s.get_items(ids)
    with s.reading(superseded=superseded), sent_statements(s) as sent:
        got = s.lexical_and_vector_search(["word1"], "m", vecs[0], Filters(), 5)
        n = len(sent)
        items = s.get_items(ids)
    assert got == want and items == want_items and len(sent) == n  # get_items read nothing
    walk = [q for q, _ in sent if "WITH r AS MATERIALIZED" in q]
    assert len(walk) == 1 and "c_text" in walk[0] and ("FROM facts" in walk[0]) is superseded
    # by key: only the lexical list's items the walk did not bring
    read = sorted(i for x in _item_reads(sent) for i in _ids(x))
    assert read == sorted({i for i, _ in want[0]} - {i for i, _ in want[1]})


def test_the_walk_sorts_its_rows_by_distance_not_trusting_the_index_order(walked, monkeypatch):
    """With relaxed_order iterative scans the index returns rows nearly sorted; sorted by
    ``d`` again, the planner took them as sorted and only ordered equal distances (an
    incremental sort): the walk's list came out of order."""
    from psycopg import sql

    s, vecs = walked
    sent = []
    execute = s.db.execute
    monkeypatch.setattr(s.db, "execute", lambda q, p=None, **kw: sent.append((q, p)) or execute(q, p, **kw))
    got = s.vector_search("m", vecs[0], Filters(), 5)
    (q, params), = [(q, p) for q, p in sent if "WITH r AS MATERIALIZED" in str(q)]
    assert [i for i, _ in got] == sorted((i for i, _ in got), key=lambda i: -dict(got)[i])
    plan = [r[0] for r in execute(sql.SQL("EXPLAIN ") + q, params).fetchall()]
    assert plan[0].startswith("Sort ") and not any("Incremental" in line for line in plan), plan
