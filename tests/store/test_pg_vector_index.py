"""PostgreSQL HNSW indexes: built with memlane's parameters, and searched with good recall.

A real server with pgvector is started by the test run (see ``postgres_server_url`` in
conftest.py); each test gets its own empty database.
"""

from __future__ import annotations

import numpy as np
import pytest

psycopg = pytest.importorskip("psycopg")

from memlane.store import Filters, open_store
from memlane.store.postgres.search import HNSW_EF_CONSTRUCTION, HNSW_M


def test_unscoped_search_over_the_hnsw_index_finds_the_exact_neighbours(pg_url):
    s = open_store(pg_url)
    rng = np.random.default_rng(11)
    n, dim = 6000, 12  # above the exact-scan threshold: unscoped queries walk the graph
    vecs = rng.normal(size=(n, dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with s.atomic():
        sid = s.create_session("s", 1.0, None, None)
        ids = s.insert_items([{"kind": "turn", "text": f"t{i}", "at": float(i), "scope": f"s{i % 5}",
                               "session_id": sid} for i in range(n)])
    for start in range(0, n, 1000):  # in several transactions, as indexing writes them
        with s.atomic():
            s.put_vectors("m", list(zip(ids[start:start + 1000], vecs[start:start + 1000], strict=True)))
    with psycopg.connect(pg_url) as conn:
        options = conn.execute(
            "SELECT c.reloptions FROM pg_class c JOIN vector_indexes v ON v.name = c.relname"
        ).fetchall()
    assert options == [([f"m={HNSW_M}", f"ef_construction={HNSW_EF_CONSTRUCTION}"],)]

    found = 0
    for q in rng.normal(size=(20, dim)).astype(np.float32):
        q /= np.linalg.norm(q)
        got = s.vector_search("m", q, Filters(), 10)
        exact = [ids[i] for i in np.argsort(-(vecs @ q), kind="stable")[:10]]
        assert [c for _, c in got] == sorted((c for _, c in got), reverse=True)
        found += len({i for i, _ in got} & set(exact))
    assert found / 200 >= 0.95
    s.close()
