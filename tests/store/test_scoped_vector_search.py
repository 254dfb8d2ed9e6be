"""Vector search within a scope equals an exact search over the scope's allowed items,
through the store (SQLite keeps rows per scope in its in-memory index), as items are added,
deleted and filtered by other columns."""

from __future__ import annotations

import numpy as np

from memlane.store import Filters
from memlane.store.vector_index import ann_available

MODEL = "m"


def _exact(store, q, f, k):
    vecs = store.item_vectors(MODEL, store.filter_ids(f))
    ranked = sorted(vecs, key=lambda i: (-float(vecs[i] @ q), i))
    return ranked[:k]


def _load(store, rng, n, scopes=("a", "b", "c")):
    vecs = rng.standard_normal((n, 16)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with store.atomic():
        sid = store.create_session("a", 1.0, None, None)
        store.close_session(sid, "idle")  # one open session a scope: the next load opens one
        ids = store.insert_items([
            {"kind": "turn" if i % 4 else "fact", "text": f"t{i}", "at": 1.0 + i,
             "scope": scopes[i % len(scopes)], "session_id": sid if i % 5 == 0 else None,
             "lane": "episodic" if i % 3 else "semantic"}
            for i in range(n)])
        store.put_vectors(MODEL, list(zip(ids, vecs, strict=True)))
    return ids


def test_scoped_search_equals_exact(store):
    rng = np.random.default_rng(3)
    ids = _load(store, rng, 600)
    queries = rng.standard_normal((15, 16)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    filters = [Filters(scope="a"), Filters(scope="b", kinds=("fact",)),
               Filters(scope="c", lanes=("semantic",)), Filters(scope="a", session_id=store.get_item(ids[0]).session_id),
               Filters(scope="nowhere")]

    def check():
        for q in queries:
            for f in filters:
                got = store.vector_search(MODEL, q, f, 10)
                assert [i for i, _ in got] == _exact(store, q, f, 10), f
                vecs = store.item_vectors(MODEL, [i for i, _ in got])
                assert all(abs(s - float(vecs[i] @ q)) < 1e-4 for i, s in got)

    check()
    with store.atomic():  # delete some of scope a, add more to every scope
        for i in ids[:60:3]:
            store.delete_item(i)
    _load(store, rng, 90)
    check()


def test_warming_loads_the_index_and_builds_ivf_when_large(store):
    rng = np.random.default_rng(5)
    _load(store, rng, 300)
    assert store.warm_vector_index(MODEL, 16, wait=True) is False  # small: exact (SQLite), no graph (PG)
    if store.backend == "sqlite" and ann_available():
        store._indexes[MODEL].ann_above = 200  # what 200k vectors would do, at 300
        assert store.warm_vector_index(MODEL, 16, wait=True) is True
        q = rng.standard_normal(16).astype(np.float32)
        q /= np.linalg.norm(q)
        got = store.vector_search(MODEL, q, Filters(), 5)
        assert len(got) == 5 and [s for _, s in got] == sorted((s for _, s in got), reverse=True)
