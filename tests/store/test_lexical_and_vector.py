"""``Store.lexical_and_vector_search``: the two candidate lists of a search in one call, the
same lists as ``lexical_search`` and ``vector_search`` give one after the other, on both
backends; on PostgreSQL the lexical statements run on a helper thread's connection while
the calling thread runs the vector one."""

from __future__ import annotations

import numpy as np
import pytest

from memlane.errors import StoreError
from memlane.store import Filters

MODEL = "m"
WORDS = ["lantern", "harbor", "copper", "meadow", "signal", "orchid", "granite", "falcon"]


def _load(store, n: int = 240) -> list[int]:
    rng = np.random.default_rng(5)
    vecs = rng.standard_normal((n, 16)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with store.atomic():
        sid = store.create_session("a", 1.0, None, None)
        store.close_session(sid, "idle")
        ids = store.insert_items([
            {"kind": "turn", "text": " ".join(WORDS[(i * k) % len(WORDS)] for k in range(1, 2 + i % 5)),
             "at": 1.0 + i, "scope": ("a", "b", "c")[i % 3], "session_id": sid if i % 3 == 0 else None}
            for i in range(n)])
        store.put_vectors(MODEL, list(zip(ids, vecs, strict=True)))
        store.upsert_entity("a", "Falcon", "falcon", "thing", "a bird", 1.0)
    return ids


def _queries():
    rng = np.random.default_rng(9)
    for i in range(6):
        q = rng.standard_normal(16).astype(np.float32)
        yield [WORDS[i], WORDS[(i + 3) % len(WORDS)]], q / np.linalg.norm(q)


@pytest.mark.parametrize("scope", [None, "a"])
def test_both_lists_equal_the_two_searches(store, scope) -> None:
    _load(store)
    f = Filters(scope=scope)
    for terms, q in _queries():
        want = (store.lexical_search(terms, f, 20), store.vector_search(MODEL, q, f, 20))
        own: dict[str, float] = {}
        assert store.lexical_and_vector_search(terms, MODEL, q, f, 20, timings=own) == want
        assert want[0] and want[1]
        assert sorted(own) == ["lexical_ms", "vector_ms"] and min(own.values()) > 0
    assert store.lexical_and_vector_search([], MODEL, q, f, 20) == ([], store.vector_search(MODEL, q, f, 20))
    assert store.lexical_and_vector_search(["lantern"], MODEL, q, f, 0) == ([], [])


@pytest.fixture
def overlapping(pg_url, monkeypatch):
    """A loaded PostgreSQL store with the model's HNSW index (the threshold lowered to its
    size), so that its unscoped searches overlap the two lists as in production."""
    from memlane.store import open_store
    from memlane.store.postgres import search as pg_search

    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 100)
    s = open_store(pg_url)
    _load(s)
    assert s.ensure_vector_index(MODEL, 16)
    assert s._overlap(MODEL, 16, Filters()) and not s._overlap(MODEL, 16, Filters(scope="a"))
    yield s
    s.close()


def test_postgres_runs_the_lexical_statements_on_another_connection(overlapping, round_trips) -> None:
    s = overlapping
    for terms, q in _queries():
        want = (s.lexical_search(terms, Filters(), 20), s.vector_search(MODEL, q, Filters(), 20))
        own: dict[str, float] = {}
        with round_trips(s) as trips, s.reading():
            got = s.lexical_and_vector_search(terms, MODEL, q, Filters(), 20, timings=own)
            vecs = s.item_vectors(MODEL, [i for i, _ in got[1]])
        assert got == want and want[0]
        assert sorted(own) == ["lexical_ms", "vector_ms"] and min(own.values()) > 0
        assert "ts_rank" not in trips.trace and "<=>" in trips.trace  # vector here, lexical there
        assert set(vecs) == {i for i, _ in got[1]}  # the ranked vectors were kept by the block
    assert s.__dict__["_pool"][1] is not None


def test_postgres_a_scoped_search_runs_both_here_with_the_scopes_entity_names(overlapping, sent_statements) -> None:
    s = overlapping
    f = Filters(scope="a")
    for terms, q in _queries():
        want = (s.lexical_search(terms, f, 20), s.vector_search(MODEL, q, f, 20))
        with sent_statements(s) as sent, s.reading():
            got = s.lexical_and_vector_search(terms, MODEL, q, f, 20)
            names = s.entity_names("a")
        assert got == want and want[0]
        assert any("ts_rank" in x for x, _ in sent) and any("<=>" in x for x, _ in sent)
        assert names == ["falcon"]
        # the scope's entity names came with the lexical search's statements, not in one of their own
        carried = [x for x, _ in sent if "norm_name" in x]
        assert len(carried) == 1 and ("memlane_term_df" in carried[0] or "ts_rank" in carried[0])


def test_postgres_inside_a_transaction_runs_both_on_its_connection(overlapping, round_trips) -> None:
    s = overlapping
    terms, q = next(_queries())
    with s.atomic():
        with s.atomic():
            s.insert_items([{"kind": "turn", "text": "zeppelin lantern", "at": 9.0, "scope": "a"}])
        with round_trips(s) as trips:
            lexical, _ = s.lexical_and_vector_search(["zeppelin"], MODEL, q, Filters(), 20)
    assert len(lexical) == 1  # the transaction's own row: read on its connection
    assert "ts_rank" in trips.trace
    assert "_pool" not in s.__dict__


def test_postgres_a_failing_vector_statement_waits_for_the_lexical_one(overlapping) -> None:
    s = overlapping
    terms, q = next(_queries())
    with pytest.raises(StoreError):
        s.lexical_and_vector_search(terms, MODEL, np.ones(17_000, np.float32), Filters(), 20)
    # the store still answers on both connections
    assert s.lexical_and_vector_search(terms, MODEL, q, Filters(), 5) == (
        s.lexical_search(terms, Filters(), 5), s.vector_search(MODEL, q, Filters(), 5))


def test_postgres_session_turns_bring_their_vectors_within_a_search(pg_url, round_trips) -> None:
    """Stage two reads a session's turns, then their vectors: within ``reading()`` the
    vectors (under the block's vector search's model) come with the turns."""
    from memlane.store import open_store

    s = open_store(pg_url)
    try:
        ids = _load(s)
        with s.atomic():  # a turn of the session without a vector
            sid = s.get_item(ids[0]).session_id
            bare = s.insert_items([{"kind": "turn", "text": "no vector", "at": 999.0, "scope": "a",
                                    "session_id": sid}])[0]
        q = next(_queries())[1]
        want_items = s.session_items(sid, kind="turn")
        want_vecs = s.item_vectors(MODEL, [it.id for it in want_items])
        with s.reading():
            s.vector_search(MODEL, q, Filters(), 5)
            with round_trips(s) as trips:
                got_items = s.session_items(sid, kind="turn")
                got_vecs = s.item_vectors(MODEL, [it.id for it in got_items])
        assert got_items == want_items and bare in [it.id for it in got_items]
        assert list(got_vecs) == list(want_vecs) and bare not in got_vecs
        assert all(np.array_equal(got_vecs[i], want_vecs[i]) for i in want_vecs)
        assert trips.count == 1, trips.trace
        with s.reading():  # no vector search in the block: the model is not known
            assert s.session_items(sid) == s.session_items(sid)
    finally:
        s.close()


def test_sessions_items_equal_session_items_of_each(store) -> None:
    ids = _load(store)
    with store.atomic():
        sid = store.create_session("b", 2.0, None, None)
        store.insert_items([{"kind": "summary", "text": "a summary", "at": 3.0, "scope": "b", "session_id": sid},
                            {"kind": "turn", "text": "one turn", "at": 4.0, "scope": "b", "session_id": sid,
                             "seq": 2},
                            {"kind": "turn", "text": "its first turn", "at": 5.0, "scope": "b", "session_id": sid,
                             "seq": 1}])
    first = store.get_item(ids[0]).session_id
    for kind in (None, "turn", "summary"):
        got = store.sessions_items([sid, first, sid, 10**9], kind)
        want = {s: its for s in (sid, first) if (its := store.session_items(s, kind))}
        assert got == want and list(got[sid]) == store.session_items(sid, kind)
    assert [it.text for it in store.sessions_items([sid], "turn")[sid]] == ["its first turn", "one turn"]
    assert store.sessions_items([]) == {}
    with store.reading():  # PostgreSQL, after a vector search: the vectors come too
        store.vector_search(MODEL, next(_queries())[1], Filters(), 3)
        got = store.sessions_items([sid, first], "turn")
        vecs = store.item_vectors(MODEL, [it.id for it in got[first]])
    assert got == {s: store.session_items(s, "turn") for s in (sid, first)}
    assert set(vecs) == {it.id for it in got[first]}


def test_postgres_overlaps_only_searches_over_all_scopes_with_an_hnsw_index(pg_url) -> None:
    from memlane.store import open_store

    s = open_store(pg_url)
    try:
        _load(s)
        assert not s._overlap(MODEL, 16, Filters())  # 240 vectors: no HNSW index, exact scans
        s._hnsw.add((MODEL, 16))  # as once the index exists
        assert s._overlap(MODEL, 16, Filters())
        assert not s._overlap(MODEL, 16, Filters(scope="a"))
        with s.atomic():
            assert not s._overlap(MODEL, 16, Filters())
    finally:
        s.close()
