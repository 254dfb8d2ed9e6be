"""PostgreSQL HNSW indexes: built with memlane's parameters, and searched with good recall.

A real server with pgvector is started by the test run (see ``postgres_server_url`` in
conftest.py); each test gets its own empty database.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

psycopg = pytest.importorskip("psycopg")

from memlane.store import Filters, open_store
from memlane.store.postgres import search as pg_search
from memlane.store.postgres import vectors as pg_vectors
from memlane.store.postgres.search import HNSW_EF_CONSTRUCTION, HNSW_M


def test_unscoped_search_over_the_hnsw_index_finds_the_exact_neighbours(pg_url, monkeypatch):
    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 5000)
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
    assert s.ensure_vector_index("m", dim)  # built in one pass after the load
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


def _hnsw_indexes(pg_url):
    with psycopg.connect(pg_url) as conn:
        return conn.execute("SELECT indexname FROM pg_indexes WHERE indexdef LIKE '%%hnsw%%'").fetchall()


def test_below_the_threshold_no_graph_is_built_and_search_is_exact(pg_url):
    s = open_store(pg_url)
    rng = np.random.default_rng(3)
    n, dim = 500, 8
    vecs = rng.normal(size=(n, dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with s.atomic():
        sid = s.create_session("s", 1.0, None, None)
        ids = s.insert_items([{"kind": "turn", "text": f"t{i}", "at": float(i), "scope": f"s{i % 2}",
                               "session_id": sid} for i in range(n)])
        s.put_vectors("m", list(zip(ids, vecs, strict=True)))
    assert s.ensure_vector_index("m", dim) is False and _hnsw_indexes(pg_url) == []
    for q in rng.normal(size=(5, dim)).astype(np.float32):
        q /= np.linalg.norm(q)
        exact = [ids[i] for i in np.argsort(-(vecs @ q), kind="stable")[:10]]
        assert [i for i, _ in s.vector_search("m", q, Filters(), 10)] == exact
        in_scope = [ids[i] for i in np.argsort(-(vecs @ q), kind="stable") if i % 2 == 1][:10]
        assert [i for i, _ in s.vector_search("m", q, Filters(scope="s1"), 10)] == in_scope
    s.close()


def test_indexing_a_backlog_builds_the_graph_once_at_the_end(pg_url, monkeypatch):
    from datetime import UTC, datetime, timedelta

    from memlane.config import load_config
    from memlane.memory import Memory

    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 30)
    mem = Memory(config=load_config(environ={}, overrides={
        "db": pg_url, "embedding": {"backend": "hashing"}, "indexing": {"enabled": False}}))
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    for i in range(40):
        mem.add_message(f"c{i % 4}", "user", f"turn number {i} about topic {i % 7}", t0 + timedelta(hours=i))
    assert _hnsw_indexes(pg_url) == []
    rep = mem.index(now=t0 + timedelta(days=5))
    assert rep.items_indexed == 40
    assert len(_hnsw_indexes(pg_url)) == 1
    hits = mem.search("topic 3", scope="c1", k=5)
    assert hits and all(h.item.scope == "c1" for h in hits)
    mem.close()


def test_a_search_remembers_a_missing_graph_for_a_while(pg_url, round_trips, monkeypatch):
    """Below the threshold there is no index, and asking costs a round trip: a search
    remembers the answer for NO_HNSW_TTL seconds, then asks again and finds a graph that
    another process built meanwhile (remembered from then on)."""
    monkeypatch.setattr(pg_vectors, "NO_HNSW_TTL", 0.5)
    s = open_store(pg_url)
    rng = np.random.default_rng(5)
    vecs = rng.normal(size=(50, 8)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with s.atomic():
        sid = s.create_session("s", 1.0, None, None)
        ids = s.insert_items([{"kind": "turn", "text": f"t{i}", "at": float(i), "scope": "s",
                               "session_id": sid} for i in range(50)])
        s.put_vectors("m", list(zip(ids, vecs, strict=True)))
    q = vecs[0]
    counts = []
    for _ in range(2):
        with round_trips(s) as trips:
            assert s.vector_search("m", q, Filters(), 5)[0][0] == ids[0]
        counts.append(trips.count)
    assert counts[1] == counts[0] - 1

    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 1)
    other = open_store(pg_url)
    assert other.ensure_vector_index("m", 8)
    other.close()
    time.sleep(0.6)
    with round_trips(s) as trips:
        s.vector_search("m", q, Filters(), 5)
    assert trips.count == counts[0]  # asked again: the graph is there
    with round_trips(s) as trips:
        s.vector_search("m", q, Filters(), 5)
    assert trips.count == counts[1]  # and remembered
    s.close()


def test_the_graph_waits_for_the_last_indexer_of_a_backlog(pg_url, monkeypatch):
    """While another indexer holds reservations (it is in the middle of a batch, and calls
    ensure_vector_index at the end of its run) no graph is built: its CREATE INDEX would
    block that indexer's inserts. Once it lets go, the graph is built."""
    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 30)
    s, other = open_store(pg_url), open_store(pg_url)
    rng = np.random.default_rng(2)
    vecs = rng.normal(size=(40, 8)).astype(np.float32)
    sids = []
    for k in range(2):
        sids.append(s.add_message(f"c{k}", "user", "hi", 1000.0, gap=1e9, speaker=None,
                                  ext_id=None, agent=None, project=None, redactions=0)[1])
    with s.atomic():
        for sid in sids:
            s.close_session(sid, "idle")
        ids = s.insert_items([{"kind": "turn", "text": f"t{i}", "at": float(i), "scope": "c0",
                               "session_id": sids[0]} for i in range(40)])
        s.put_vectors("m", list(zip(ids, vecs, strict=True)))
    assert [x.id for x in other.sessions_to_index(1, reserve=True)] == sids[:1]
    assert s.ensure_vector_index("m", 8) is False and _hnsw_indexes(pg_url) == []
    other.sessions_to_index(0, reserve=True)  # the other indexer's run ends
    assert s.ensure_vector_index("m", 8) is True and len(_hnsw_indexes(pg_url)) == 1
    s.close()
    other.close()


def test_a_failed_indexing_run_lets_go_of_its_reservations(pg_url):
    """An indexer whose write fails still ends its reservations (else every other indexer
    would leave the graph to it), and the error it hit is the one raised."""
    from datetime import UTC, datetime, timedelta

    from memlane.config import load_config
    from memlane.index.indexer import index_pending
    from memlane.memory import Memory

    mem = Memory(config=load_config(environ={}, overrides={
        "db": pg_url, "embedding": {"backend": "hashing"}, "indexing": {"enabled": False}}))
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    for i in range(12):
        mem.add_message(f"c{i % 3}", "user", f"turn {i}", t0 + timedelta(hours=i))
    mem.close_idle(now=t0 + timedelta(days=2))
    other = open_store(pg_url)

    def fail(rows):
        raise RuntimeError("the write failed")

    mem.store.insert_items = fail
    with pytest.raises(RuntimeError, match="the write failed"):
        index_pending(mem.store, mem.embeddings, batch_sessions=2)
    assert other.indexers_elsewhere() is False
    del mem.store.insert_items
    assert index_pending(mem.store, mem.embeddings, batch_sessions=2).items_indexed == 12
    other.close()
    mem.close()
