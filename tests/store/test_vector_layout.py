"""The in-memory vector index lays each scope's rows side by side (``VectorIndex.load``, and
again at compaction), so a scoped search scans a slice of the matrix: results stay those of
an exact search through miscounts, later rows, moves between scopes, deletes, and changes
made through another connection to the same SQLite file."""

from __future__ import annotations

import numpy as np

from memlane.store import Filters, open_store
from memlane.store.vector_index import RUN, VectorIndex


def _unit(rng: np.random.Generator, n: int, dim: int = 16) -> np.ndarray:
    x = rng.standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def _exact(vecs: dict[int, np.ndarray], scope_of: dict[int, str], scope: str, q: np.ndarray, k: int) -> list[int]:
    ids = [i for i in vecs if scope_of[i] == scope]
    return sorted(ids, key=lambda i: (-float(vecs[i] @ q), i))[:k]


def _check(index: VectorIndex, vecs: dict[int, np.ndarray], scope_of: dict[int, str], rng: np.random.Generator) -> None:
    for q in _unit(rng, 8):
        for scope in sorted(set(scope_of.values())) + ["nowhere"]:
            got = index.search(q, 12, scope=scope)
            assert [i for i, _ in got] == _exact(vecs, scope_of, scope, q, 12), scope
            assert all(abs(s - float(vecs[i] @ q)) < 1e-5 for i, s in got)


def test_load_places_each_scope_in_one_run_and_searches_exactly():
    rng = np.random.default_rng(1)
    x = _unit(rng, 900)
    scopes = ["a", "b", "c"]
    vecs = {i + 1: x[i] for i in range(900)}
    scope_of = {i + 1: scopes[i % 3] for i in range(900)}  # interleaved, as arrivals are
    index = VectorIndex(16)
    index.load(((i, vecs[i], scope_of[i]) for i in vecs), {"a": 300, "b": 300, "c": 300})
    for scope in scopes:
        plan = index._rows_in_scope(scope)
        assert plan is not None and len(plan.runs) == 1 and plan.scattered.size == 0
    _check(index, vecs, scope_of, rng)


def test_miscounted_load_later_rows_moves_and_deletes_stay_exact():
    rng = np.random.default_rng(2)
    x = _unit(rng, 1200)
    vecs = {i + 1: x[i] for i in range(1000)}
    scope_of = {i + 1: "ab"[i % 2] for i in range(1000)}
    index = VectorIndex(16)
    # "a" counted short (its last rows go to the end), "b" counted long (empty rows stay),
    # and a scope counted that has no rows at all
    index.load(((i, vecs[i], scope_of[i]) for i in vecs), {"a": 400, "b": 700, "z": 50})
    assert index.search(x[0], 5, scope="z") == []
    _check(index, vecs, scope_of, rng)
    index.apply((1000 + i, x[1000 + i], "a") for i in range(1, 200))  # later rows of "a"
    vecs.update({1000 + i: x[1000 + i] for i in range(1, 200)})
    scope_of.update({1000 + i: "a" for i in range(1, 200)})
    index.apply([(2, x[2], "c"), (4, x[4], "a")])  # moved from "b"
    scope_of.update({2: "c", 4: "a"})
    vecs.update({2: x[2], 4: x[4]})
    index.apply([(i, None) for i in range(5, 300, 7)])  # deleted
    for i in range(5, 300, 7):
        del vecs[i], scope_of[i]
    _check(index, vecs, scope_of, rng)
    plan = index._rows_in_scope("a")
    assert plan is not None and plan.scattered.size < len(plan.rows)  # most of "a" scored in place


def test_compaction_puts_scopes_side_by_side_again():
    rng = np.random.default_rng(3)
    x = _unit(rng, 3000)
    vecs = {i + 1: x[i] for i in range(3000)}
    scope_of = {i + 1: "pq"[i % 2] for i in range(3000)}
    index = VectorIndex(16)
    index.apply((i, vecs[i], scope_of[i]) for i in vecs)  # arrival order: scopes interleaved
    assert len(index._rows_in_scope("p").runs) == 0
    index.apply([(i, None) for i in range(1, 1700)])  # more than half deleted: compacts
    for i in range(1, 1700):
        del vecs[i], scope_of[i]
    assert len(index._rows_in_scope("p").runs) == 1 and len(index._rows_in_scope("q").runs) == 1
    _check(index, vecs, scope_of, rng)
    # ids are no longer in row order: a search restricted to ids still finds them
    some = sorted(vecs)[::50]
    got = index.search(x[some[0] - 1], len(some), allowed=some)
    assert sorted(i for i, _ in got) == some


def test_store_scoped_search_stays_exact_under_another_connections_writes(tmp_path):
    rng = np.random.default_rng(4)
    path = tmp_path / "v.db"
    reader, writer = open_store(path), open_store(path)
    try:
        x = _unit(rng, 2000)

        def add(store, lo: int, hi: int) -> list[int]:
            with store.atomic():
                ids = store.insert_items([{"kind": "turn", "text": f"t{i}", "at": 1.0 + i,
                                           "scope": f"s{i % 4}"} for i in range(lo, hi)])
                store.put_vectors("m", list(zip(ids, x[lo:hi], strict=True)))
            return ids

        first = add(writer, 0, 4 * RUN * 3)
        q = _unit(rng, 6)

        def check() -> None:
            for qv in q:
                for s in ("s0", "s1", "s2", "s3"):
                    f = Filters(scope=s)
                    want = reader.item_vectors("m", reader.filter_ids(f))
                    ranked = sorted(want, key=lambda i: (-float(want[i] @ qv), i))[:10]
                    assert [i for i, _ in reader.vector_search("m", qv, f, 10)] == ranked

        check()  # the reader's index is loaded here, each scope's rows side by side
        assert len(reader._indexes["m"]._rows_in_scope("s0").runs) == 1
        add(writer, 4 * RUN * 3, 1500)  # more rows, deletes and a changed vector meanwhile
        with writer.atomic():
            for i in first[:200:3]:
                writer.delete_item(i)
            writer.put_vectors("m", [(first[1], x[1999])])
        check()
    finally:
        reader.close()
        writer.close()


def test_one_scope_loaded_out_of_id_order_still_finds_rows_by_id():
    rng = np.random.default_rng(5)
    x = _unit(rng, 300)
    index = VectorIndex(16)
    order = list(range(300, 0, -1))  # ids arrive in decreasing order
    index.load(((i, x[i - 1], "only") for i in order), {"only": 300})
    for want in ([7], [1, 150, 300], list(range(40, 60))):
        got = index.search(x[want[0] - 1], len(want), allowed=want)
        assert sorted(i for i, _ in got) == want
