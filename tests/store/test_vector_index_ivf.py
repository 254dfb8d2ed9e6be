"""The IVF path of VectorIndex (large unfiltered searches): recall against exact search,
and deletes/updates honoured once the IVF index exists."""

import numpy as np
import pytest

from memlane.store.vector_index import VectorIndex

pytest.importorskip("faiss")


def _clustered(n: int, dim: int = 64, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((100, dim)).astype(np.float32)
    x = centres[rng.integers(0, 100, n)] + 0.7 * rng.standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def _pair(x: np.ndarray) -> tuple[VectorIndex, VectorIndex]:
    exact, ann = VectorIndex(x.shape[1]), VectorIndex(x.shape[1])
    ann.ann_above = 1000  # the IVF path from 1,000 vectors instead of 200,000
    for index in (exact, ann):
        index.apply((i + 1, v) for i, v in enumerate(x))
    return exact, ann


def test_ivf_recall_at_10_against_exact_is_at_least_098():
    x = _clustered(8000)
    exact, ann = _pair(x)
    rng = np.random.default_rng(2)
    queries = x[rng.integers(0, len(x), 60)] + 0.3 * rng.standard_normal((60, x.shape[1])).astype(np.float32)
    hits = 0
    for q in queries:
        want = {i for i, _ in exact.search(q, 10)}
        got = ann.search(q, 10)
        assert len(got) == 10 and [s for _, s in got] == sorted((s for _, s in got), reverse=True)
        hits += len(want & {i for i, _ in got})
    assert ann._ivf is not None  # the IVF path answered
    assert hits / 600 >= 0.98


def test_ivf_scores_are_exact_cosines():
    x = _clustered(3000)
    _, ann = _pair(x)
    for item_id, score in ann.search(x[10], 5):
        assert score == pytest.approx(float(x[item_id - 1] @ x[10]), abs=1e-5)


def test_ivf_honours_deletes_updates_and_new_rows():
    x = _clustered(3000)
    _, ann = _pair(x)
    assert ann.search(x[0], 1)[0][0] == 1  # builds the IVF index
    ann.apply([(1, None)])  # deleted: never returned
    assert 1 not in {i for i, _ in ann.search(x[0], 10)}
    ann.apply([(2, x[0])])  # updated in place: found under its new vector
    assert ann.search(x[0], 1)[0][0] == 2
    fresh = _clustered(1, seed=9)[0]
    ann.apply([(99_999, fresh)])  # added after the build
    assert ann.search(fresh, 1) == [(99_999, pytest.approx(1.0, abs=1e-5))]


def test_filtered_search_stays_exact_with_ivf():
    x = _clustered(3000)
    exact, ann = _pair(x)
    allowed = list(range(1, 3001, 7))
    assert ann.search(x[5], 10, allowed=allowed) == exact.search(x[5], 10, allowed=allowed)
