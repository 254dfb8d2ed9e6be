"""Equal cosines come back in id order on both stores (session 21).

The store contract ranks ``vector_search`` by score, best first; PostgreSQL breaks ties by
item id (``ORDER BY distance, item_id``), SQLite's in-memory vector index broke them by its
row order (scope, then id; and ``argpartition`` cut a run of equal scores at the limit
anywhere in it). The same items
with the same vectors gave the two stores different candidate lists, so the same search
different hits (seen with the hashing embedder, whose cosines are often exactly equal).
"""

from __future__ import annotations

import numpy as np

from memlane.store import Filters


def _unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def _add(store, scope: str, texts: list[str]) -> list[int]:
    with store.atomic():
        sid = store.create_session(scope, 1000.0, None, None)
        return store.insert_items([
            {"kind": "turn", "text": t, "at": 1000.0 + i, "scope": scope, "session_id": sid,
             "seq": i + 1} for i, t in enumerate(texts)])


def _tied_store(store):
    """Items of three scopes written scope by scope, so id order is not (scope, id) order;
    vectors of three distinct directions, many items sharing each."""
    ids = []
    for scope in ("c", "a", "b"):
        ids += _add(store, scope, [f"apple pie number {i}" for i in range(7)])
    dirs = [_unit(1, 0, 0), _unit(0, 1, 0), _unit(1, 1, 0)]
    with store.atomic():
        store.put_vectors("m", [(i, dirs[n % 3]) for n, i in enumerate(ids)])
    return ids


def _expected(pairs: list[tuple[int, float]]) -> list[int]:
    return [i for i, _ in sorted(pairs, key=lambda p: (-round(p[1], 5), p[0]))]


def test_vector_ties_in_id_order(store):
    ids = _tied_store(store)
    q = _unit(1, 0.2, 0)
    every = store.vector_search("m", q, Filters(), 100)
    assert len(every) == len(ids)
    assert [i for i, _ in every] == _expected(every)
    for limit in (1, 3, 5, 8, 13, 20):
        got = store.vector_search("m", q, Filters(), limit)
        assert [i for i, _ in got] == [i for i, _ in every[:limit]], limit
        scoped = store.vector_search("m", q, Filters(scope="a"), limit)
        want = [i for i, _ in every if i in set(ids[7:14])][:limit]
        assert [i for i, _ in scoped] == want, limit
