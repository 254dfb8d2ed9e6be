"""PostgreSQL search, ninth round: a scope is scanned exactly when it holds at most
``EXACT_BELOW`` items, or at most ``EXACT_SHARE`` of the table's rows (the planner's
``reltuples``) up to ``EXACT_MAX``; above, the HNSW graph is walked. The count and its
threshold come from one statement."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("psycopg")

from memlane.store import Filters
from memlane.store.postgres import search as pg_search

MODEL = "m"


@pytest.fixture
def graph_store(pg_url, monkeypatch):
    """400 items in three scopes (~133 each) with 16-d vectors, the HNSW graph built, the
    items analysed (``pg_class.reltuples`` = 400)."""
    from memlane.store import open_store

    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 30)
    s = open_store(pg_url)
    rng = np.random.default_rng(9)
    vecs = rng.standard_normal((400, 16)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with s.atomic():
        ids = s.insert_items([{"kind": "fact", "text": f"t{i}", "at": 1.0 + i, "scope": "abc"[i % 3]}
                              for i in range(400)])
        s.put_vectors(MODEL, list(zip(ids, vecs, strict=True)))
    assert s.ensure_vector_index(MODEL, 16)
    s.db.execute("ANALYZE items")
    yield s, rng
    s.close()


def _exact_top(store, q, f, k):
    vecs = store.item_vectors(MODEL, store.filter_ids(f))
    return sorted(vecs, key=lambda i: (-float(vecs[i] @ q), i))[:k]


def _path(sent):
    walks = [q for q, _ in sent if "WITH r AS MATERIALIZED" in q]
    scans = [q for q, _ in sent if "ANY(ARRAY(SELECT i.id FROM items i" in q]
    return "walk" if walks and not scans else "exact" if scans and not walks else (walks, scans)


@pytest.mark.parametrize(("below", "share", "most", "path"), [
    (10, 0.5, 1000, "exact"),   # 133 <= max(10, min(1000, 0.5 * 400)) = 200
    (10, 0.2, 1000, "walk"),    # 133 > 80
    (10, 0.5, 100, "walk"),     # 133 > min(100, 200)
    (150, 0.1, 1000, "exact"),  # 133 <= 150 whatever the share
    (150, 0.1, 100, "exact"),   # EXACT_BELOW wins over EXACT_MAX
])
def test_a_scope_is_scanned_exactly_up_to_a_share_of_the_items(graph_store, sent_statements, monkeypatch,
                                                                below, share, most, path):
    s, rng = graph_store
    monkeypatch.setattr(pg_search, "EXACT_BELOW", below)
    monkeypatch.setattr(pg_search, "EXACT_SHARE", share)
    monkeypatch.setattr(pg_search, "EXACT_MAX", most)
    q = _unit(rng)
    f = Filters(scope="a")
    with sent_statements(s) as sent:
        got = s.vector_search(MODEL, q, f, 10)
    assert _path(sent) == path
    if path == "exact":
        assert [i for i, _ in got] == _exact_top(s, q, f, 10)
    assert len(got) == 10 and all(s.get_item(i).scope == "a" for i, _ in got)


def test_a_table_never_analysed_uses_the_fixed_threshold(pg_url, sent_statements, monkeypatch):
    """reltuples is -1 before the first ANALYZE: only EXACT_BELOW counts."""
    from memlane.store import open_store

    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 30)
    s = open_store(pg_url)
    try:
        rng = np.random.default_rng(4)
        with s.atomic():
            ids = s.insert_items([{"kind": "fact", "text": f"t{i}", "at": 1.0 + i, "scope": "ab"[i % 2]}
                                  for i in range(120)])
            s.put_vectors(MODEL, [(i, _unit(rng)) for i in ids])
        assert s.ensure_vector_index(MODEL, 16)
        s.db.execute("UPDATE pg_class SET reltuples = -1 WHERE oid = 'items'::regclass")
        monkeypatch.setattr(pg_search, "EXACT_SHARE", 1.0)
        for below, path in ((10, "walk"), (60, "exact")):
            monkeypatch.setattr(pg_search, "EXACT_BELOW", below)
            with sent_statements(s) as sent:
                got = s.vector_search(MODEL, _unit(rng), Filters(scope="b"), 5)
            assert _path(sent) == path and len(got) == 5
    finally:
        s.close()


def _unit(rng):
    v = rng.standard_normal(16).astype(np.float32)
    return v / np.linalg.norm(v)
