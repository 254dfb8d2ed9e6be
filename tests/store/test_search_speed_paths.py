"""The shortcuts that keep search fast return what a plain filtered search would.

Lexical and vector search rank first and check filters on the best few (a ``pool``),
falling back to an exact filtered pass when too few pass; the vector index finds rows by
binary search while ids arrive in order; rare terms are found by capped document counts.
Each test builds data where the shortcut alone would be wrong, and checks the answer.
"""

from __future__ import annotations

import numpy as np
import pytest

import memlane.store.sqlite.search as sqlite_search
from memlane.store import Filters, open_store
from memlane.store.vector_index import VectorIndex


def _unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def _session(store, scope: str = "s") -> int:
    with store.atomic():
        return store.create_session(scope, 1000.0, None, None)


def _insert(store, sid: int, rows: list[dict], scope: str = "s") -> list[int]:
    with store.atomic():
        return store.insert_items([
            {"kind": "turn", "at": 1000.0 + i, "scope": scope, "session_id": sid, "seq": i + 1, **r}
            for i, r in enumerate(rows)
        ])


def test_lexical_search_finds_eligible_items_ranked_below_many_ineligible_ones(store):
    """The 60 best matches are shared (filtered out by default): the private ones still come."""
    sid = _session(store)
    shared = _insert(store, sid, [{"text": "apple apple apple", "privacy": "shared"}] * 60)
    private = _insert(store, sid, [{"text": "apple and" + " pear" * i} for i in range(8)])
    got = [i for i, _ in store.lexical_search(["apple"], Filters(), 5)]
    assert len(got) == 5 and set(got) <= set(private)
    everything = store.lexical_search(["apple"], Filters(privacy=("private", "shared")), 100)
    assert {i for i, _ in everything} == set(shared) | set(private)
    assert store.lexical_search(["apple"], Filters(scope="s"), 100) == [
        (i, s) for i, s in everything if i in private]


def test_vector_search_finds_eligible_items_ranked_below_many_ineligible_ones(store):
    sid = _session(store)
    near = _insert(store, sid, [{"text": f"n{i}", "status": "superseded"} for i in range(60)])
    far = _insert(store, sid, [{"text": f"f{i}"} for i in range(8)])
    with store.atomic():
        store.put_vectors("m", [(i, _unit(1, 0.01 * k)) for k, i in enumerate(near)]
                          + [(i, _unit(0.2 + 0.1 * k, 1)) for k, i in enumerate(far)])
    got = store.vector_search("m", _unit(1, 0), Filters(), 3)
    assert [i for i, _ in got] == [far[7], far[6], far[5]]
    assert got[0][1] > got[1][1] > got[2][1]
    assert [i for i, _ in store.vector_search("m", _unit(1, 0), Filters(scope="s"), 3)] == [
        far[7], far[6], far[5]]


def test_vector_index_finds_rows_whatever_order_ids_arrive_in():
    index = VectorIndex(2)
    index.apply([(10, _unit(1, 0)), (20, _unit(0, 1)), (30, _unit(1, 1))])
    assert [i for i, _ in index.search(_unit(1, 0), 3, allowed=[30, 10, 99])] == [10, 30]
    index.apply([(20, None)])  # deleted, then back with another vector: ids now out of order
    assert [i for i, _ in index.search(_unit(0, 1), 3, allowed=[20, 30])] == [30]
    index.apply([(20, _unit(0, 1)), (5, _unit(-1, -0.1))])
    assert [i for i, _ in index.search(_unit(0, 1), 4, allowed=[5, 20, 30])] == [20, 30, 5]
    assert [i for i, _ in index.search(_unit(0, 1), 4)] == [20, 30, 10, 5]
    assert len(index) == 4


def test_vector_index_search_after_compaction():
    index = VectorIndex(2)
    index.apply((i, _unit(1, i / 3000)) for i in range(1, 3001))
    index.apply((i, None) for i in range(1, 2501))  # most deleted: the index compacts
    assert len(index) == 500
    got = index.search(_unit(0, 1), 3, allowed=range(2990, 3010))
    assert [i for i, _ in got] == [3000, 2999, 2998]
    assert [i for i, _ in index.search(_unit(1, 0), 2)] == [2501, 2502]


@pytest.fixture
def few_postings(monkeypatch):
    """Term pruning at a cap of 3 postings, so a dozen items exercise it."""
    monkeypatch.setattr(sqlite_search, "LEXICAL_POSTINGS", 3)


def test_common_terms_are_pruned_rarest_first(tmp_path, few_postings):
    store = open_store(tmp_path / "p.db")
    sid = _session(store)
    texts = (["common alpha"] * 4 + ["common mid"] * 4 + ["common beta", "mid rare"]
             + ["other"] * 2)  # 12 items: common in 9, mid in 5, rare in 1
    ids = _insert(store, sid, [{"text": t} for t in texts])
    hits = lambda terms: {i for i, _ in store.lexical_search(terms, Filters(), 20)}  # noqa: E731
    # rare (1 item) then mid (5) would pass the cap of 3 postings: only the rarest is kept
    assert hits(["common", "mid", "rare"]) == {ids[9]}
    assert hits(["other"]) == {ids[10], ids[11]}
    # every term is above the cap: counted again to keep the rarest
    assert hits(["common", "mid"]) == {*ids[4:8], ids[9]}
    assert hits(["common", "alphas"]) == set(ids[:4])  # counted as FTS5 stems it: "alpha"
    # a term in most items cannot rank: nothing
    assert hits(["common"]) == set()
    # a phrase counts as rare
    assert hits(["mid rare", "common"]) == {ids[9]}
    store.close()


def test_remembered_word_counts_follow_changes_from_any_connection(tmp_path, few_postings):
    path = tmp_path / "c.db"
    reader, writer = open_store(path), open_store(path)
    sid = _session(reader)
    mine = _insert(reader, sid, [{"text": "common x"}] * 5 + [{"text": "other"}] * 7)
    hits = lambda: {i for i, _ in reader.lexical_search(["common"], Filters(), 50)}  # noqa: E731
    assert hits() == set(mine[:5])  # in 5 of 12 items: ranked
    theirs = _insert(writer, sid, [{"text": "common y"}] * 6)
    assert hits() == set()  # another connection made it 11 of 18: too common to rank
    for i in mine[:5]:
        reader.delete_item(i)
    assert hits() == set(theirs)  # this connection's deletes: 6 of 13, ranked again
    reader.close()
    writer.close()
