"""The indexer's batch writes: vectors and the embedding cache stored in bulk read back as
stored one by one, on both backends (PostgreSQL writes a batch with one binary COPY)."""

from __future__ import annotations

import numpy as np
import pytest

from memlane.store import Filters


def _items(store, n, scope="s"):
    with store.atomic():
        sid = store.create_session(scope, 1.0, None, None)
        return store.insert_items([{"kind": "turn", "text": f"t{i}", "at": float(i), "scope": scope,
                                    "session_id": sid} for i in range(n)])


def _unit(rng, n, dim):
    v = rng.normal(size=(n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


@pytest.mark.parametrize("n", [3, 200])  # one upsert a vector, and one batch
def test_a_batch_of_vectors_reads_back_exactly_and_replaces_older_ones(store, n):
    rng = np.random.default_rng(n)
    ids = _items(store, n)
    first, second = _unit(rng, n, 24), _unit(rng, n, 24)
    with store.atomic():
        store.put_vectors("m", list(zip(ids, first, strict=True)))
    got = store.item_vectors("m", ids)
    assert sorted(got) == sorted(ids)
    assert all(np.array_equal(got[i], v) for i, v in zip(ids, first, strict=True))
    # again, outside a transaction, with the first id given twice: the last vector wins
    store.put_vectors("m", [(ids[0], second[1]), *zip(ids, second, strict=True)])
    got = store.item_vectors("m", ids)
    assert all(np.array_equal(got[i], v) for i, v in zip(ids, second, strict=True))
    # searched as stored: the exact neighbour of each vector is its own item
    for i, v in list(zip(ids, second, strict=True))[:3]:
        assert store.vector_search("m", v, Filters(), 1)[0][0] == i


def test_a_failed_batch_leaves_the_older_vectors(store):
    rng = np.random.default_rng(5)
    ids = _items(store, 100)
    old = _unit(rng, 100, 8)
    store.put_vectors("m", list(zip(ids, old, strict=True)))
    with pytest.raises(Exception), store.atomic():  # noqa: B017 - any error rolls it back
        store.put_vectors("m", list(zip(ids, _unit(rng, 100, 8), strict=True)))
        raise RuntimeError("the batch's transaction fails after its vectors")
    got = store.item_vectors("m", ids)
    assert all(np.array_equal(got[i], v) for i, v in zip(ids, old, strict=True))


def test_the_embedding_cache_keeps_the_first_vector_of_a_hash(store):
    rng = np.random.default_rng(9)
    vecs = _unit(rng, 300, 16)
    hashes = [bytes([i % 256, i // 256]) * 16 for i in range(300)]
    with store.atomic():
        store.cache_vectors("m", list(zip(hashes[:200], vecs[:200], strict=True)))
    with store.atomic():  # 100 known, 100 new: the known keep their first vector
        store.cache_vectors("m", list(zip(hashes[100:], vecs[::-1][:200], strict=True)))
    got = store.cached_vectors("m", hashes)
    assert len(got) == 300
    assert all(np.array_equal(got[h], v) for h, v in zip(hashes[:200], vecs[:200], strict=True))
    assert all(np.array_equal(got[h], v)
               for h, v in zip(hashes[200:], vecs[::-1][100:200], strict=True))
    assert store.cached_vectors("other", hashes) == {}
