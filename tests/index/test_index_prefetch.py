"""Indexing reads and embeds the next batch while the last one is written: the same items
as batch after batch, each message indexed once, and a failed write leaves what was
written before it and nothing half-written (the next run indexes the rest)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlane.config import load_config
from memlane.index import indexer
from memlane.index.indexer import index_pending
from memlane.memory import Memory

T0 = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path):
    return request.getfixturevalue("pg_url") if request.param == "postgres" else str(tmp_path / "m.db")


def _memory(db):
    mem = Memory(config=load_config(environ={}, overrides={
        "db": db, "embedding": {"backend": "hashing"}, "indexing": {"enabled": False}}))
    for k in range(30):
        for j in range(k % 3 + 1):
            mem.add_message(f"c{k % 4}", "user" if j % 2 == 0 else "assistant",
                            f"session {k} turn {j} on topic {k % 5}", T0 + timedelta(hours=2 * k, minutes=j))
    mem.close_idle(now=T0 + timedelta(days=9))
    return mem


def _turns(mem):
    rows = {}
    for s in mem.store.list_sessions(limit=1000):
        for it in mem.store.session_items(s.id, kind="turn"):
            rows[it.message_id] = (it.session_id, it.seq, it.text, it.role, it.extra)
    return rows


def test_prefetching_indexes_what_one_batch_at_a_time_does(db, tmp_path):
    mem = _memory(db)
    rep = index_pending(mem.store, mem.embeddings, batch_sessions=4)  # eight batches
    assert (rep.sessions_indexed, rep.items_indexed) == (30, 60)
    assert mem.store in indexer._PREFETCH  # the run prefetched
    got = _turns(mem)
    assert mem.store.sessions_to_index(100) == []
    mem.close()
    # the same messages indexed without the prefetch thread (a store it cannot key)
    ref = _memory(str(tmp_path / "ref.db"))
    prefetcher = indexer._prefetcher
    indexer._prefetcher = lambda store: None
    try:
        index_pending(ref.store, ref.embeddings, batch_sessions=4)
    finally:
        indexer._prefetcher = prefetcher
    want = _turns(ref)
    ref.close()
    assert len(got) == 60
    assert sorted(v[2:] for v in got.values()) == sorted(v[2:] for v in want.values())


def test_a_failed_write_leaves_earlier_batches_and_the_next_run_does_the_rest(db):
    mem = _memory(db)
    store = mem.store
    real, calls = store.insert_items, []

    def failing(rows):
        calls.append(len(rows))
        if len(calls) == 3:
            raise RuntimeError("the server went away during batch 3")
        return real(rows)

    store.insert_items = failing
    with pytest.raises(RuntimeError, match="batch 3"):
        index_pending(store, mem.embeddings, batch_sessions=4)
    del store.insert_items
    done = [s for s in store.list_sessions(limit=1000) if s.indexed]
    assert len(done) == 8  # two batches of 4, claimed with their items; batch 3 rolled back
    assert sum(len(store.session_items(s.id, kind="turn")) for s in done) == sum(calls[:2])
    rep = index_pending(store, mem.embeddings, batch_sessions=4)
    assert rep.sessions_indexed == 22
    turns = _turns(mem)
    assert len(turns) == 60 and store.sessions_to_index(100) == []
    mem.close()
