"""PostgreSQL batch writes: many items or vectors in one statement keep their order and columns.

A real server with pgvector is started by the test run (see ``postgres_server_url`` in
conftest.py); each test gets its own empty database.
"""

from __future__ import annotations

import numpy as np
import pytest

psycopg = pytest.importorskip("psycopg")

from memlane.errors import StoreError
from memlane.store import Filters, open_store


def _rows(sid: int, n: int) -> list[dict]:
    rows = []
    for i in range(n):
        row = {"kind": ("turn", "fact", "note")[i % 3], "text": f"row {i} word{i} it's \"quoted\" ✓",
               "at": 1000.0 + i, "scope": None if i % 7 == 0 else f"s{i % 4}",
               "session_id": sid if i % 2 == 0 else None, "seq": i if i % 5 else None,
               "keys": f"key{i}", "keywords": [f"k{i}"], "extra": {"i": i, "nested": [i, None]},
               "pinned": i % 11 == 0, "trust": 0.5 + (i % 5) / 10}
        if i % 13 == 0:
            row["ttl_seconds"] = 60 + i
        rows.append(row)
    return rows


def test_many_items_come_back_in_input_order_with_their_columns(pg_url):
    s = open_store(pg_url)
    with s.atomic():
        sid = s.create_session("s0", 1.0, None, None)
        rows = _rows(sid, 700)
        ids = s.insert_items(rows)
    assert len(ids) == 700 and ids == sorted(set(ids))  # distinct, drawn in input order
    got = s.get_items(ids)
    for i, row in zip(ids, rows, strict=True):
        it = got[i]
        assert (it.kind, it.text, it.scope, it.session_id, it.seq, it.pinned) == (
            row["kind"], row["text"], row["scope"], row["session_id"], row["seq"], row["pinned"])
        assert it.extra == row["extra"] and it.keywords == tuple(row["keywords"])
        assert it.trust == pytest.approx(row["trust"])
        assert it.ttl_seconds == row.get("ttl_seconds")
    with psycopg.connect(pg_url) as conn:
        expires = dict(conn.execute("SELECT id, expires_at FROM items").fetchall())
    assert expires[ids[13]] == 1013.0 + 73 and expires[ids[1]] is None
    # the generated tsvector sees text and keys of every row
    assert [i for i, _ in s.lexical_search(["word512"], Filters(), 5)] == [ids[512]]
    assert [i for i, _ in s.lexical_search(["key613"], Filters(), 5)] == [ids[613]]
    # a second batch continues after the first
    with s.atomic():
        more = s.insert_items(_rows(sid, 3))
    assert min(more) > max(ids) and more == sorted(more)
    s.close()


def test_a_failing_batch_inserts_none_of_its_rows(pg_url):
    s = open_store(pg_url)
    with s.atomic():
        sid = s.create_session("s0", 1.0, None, None)
    rows = _rows(sid, 5)
    rows[1]["dedupe_hash"] = rows[4]["dedupe_hash"] = "same"
    with pytest.raises(StoreError), s.atomic():
        s.insert_items(rows)
    assert s.stats()["items"] == {}
    with s.atomic():
        assert len(s.insert_items(rows[:2])) == 2  # the store is usable afterwards
    assert sum(s.stats()["items"].values()) == 2
    s.close()


def test_batched_vectors_are_stored_and_replaced(pg_url):
    s = open_store(pg_url)
    rng = np.random.default_rng(3)
    with s.atomic():
        sid = s.create_session("s0", 1.0, None, None)
        ids = s.insert_items(_rows(sid, 300))
        first = rng.normal(size=(300, 8)).astype(np.float32)
        s.put_vectors("m", list(zip(ids, first, strict=True)))
    with s.atomic():
        second = rng.normal(size=(100, 8)).astype(np.float32)
        s.put_vectors("m", list(zip(ids[:100], second, strict=True)))
    stored = s.item_vectors("m", ids)
    assert s.vector_count("m") == 300
    assert np.allclose(stored[ids[5]], second[5]) and np.allclose(stored[ids[250]], first[250])
    best = s.vector_search("m", first[250], Filters(), 1)
    assert best[0][0] == ids[250] and best[0][1] == pytest.approx(1.0, abs=1e-5)
    s.close()
