"""The IVF path of VectorIndex (large unfiltered searches): recall against exact search,
and deletes/updates honoured once the IVF index exists."""

import numpy as np
import pytest

from memlane.store import vector_index
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
    ann.search(x[0], 1)  # starts the IVF build (in a thread)
    assert ann.wait_for_ann(timeout=120)
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
    assert ann.search(x[0], 1)[0][0] == 1
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


def test_searches_are_exact_until_the_background_build_is_ready():
    """The build is held (``start_build`` keeps it) to look at the index while it runs:
    unfiltered searches are exact meanwhile, and what changes during the build (deletes,
    updates in place, new rows) is honoured once the new lists serve."""
    x = _clustered(3000)
    exact = VectorIndex(x.shape[1])
    held: list = []
    ann = VectorIndex(x.shape[1], start_build=held.append)
    ann.ann_above = 1000
    for index in (exact, ann):
        index.apply((i + 1, v) for i, v in enumerate(x))
    rng = np.random.default_rng(4)
    queries = x[rng.integers(0, len(x), 20)]
    for q in queries:  # the first search asks for a build; none starts a second
        assert ann.search(q, 10) == exact.search(q, 10)
    assert len(held) == 1 and not ann.ann_ready
    assert not ann.wait_for_ann(timeout=0.01)  # still building
    ann.apply([(1, None), (2, x[0]), (5000, x[1])])  # changes while the build runs
    exact.apply([(1, None), (2, x[0]), (5000, x[1])])
    for q in queries:
        assert ann.search(q, 10) == exact.search(q, 10)
    held[0]()  # the build runs to its end
    assert ann.ann_ready and ann.wait_for_ann(timeout=0)
    got = {i for i, _ in ann.search(x[0], 10)}
    assert 1 not in got and 2 in got
    assert ann.search(x[1], 1)[0][0] in (2, 5000) and 5000 in {i for i, _ in ann.search(x[1], 3)}
    hits = sum(len({i for i, _ in ann.search(q, 10)} & {i for i, _ in exact.search(q, 10)})
               for q in queries)
    assert hits / 200 >= 0.95


def test_a_build_overtaken_by_a_compaction_is_dropped():
    x = _clustered(3000)
    held: list = []
    ann = VectorIndex(x.shape[1], start_build=held.append)
    ann.ann_above = 1000
    ann.apply((i + 1, v) for i, v in enumerate(x))
    ann.search(x[0], 10)
    ann.apply((i + 1, None) for i in range(2001))  # most rows deleted: rows are compacted
    held[0]()
    assert not ann.ann_ready  # its row numbers were stale; below ann_above now, so exact
    assert ann.search(x[2500], 1)[0][0] == 2501


def test_scope_search_scans_exactly_the_rows_of_that_scope():
    x = _clustered(2000)
    index = VectorIndex(x.shape[1])
    index.apply((i + 1, v, f"s{i % 7}") for i, v in enumerate(x))
    in_s3 = [i + 1 for i in range(2000) if i % 7 == 3]
    for q in x[:20]:
        assert index.search(q, 10, scope="s3") == index.search(q, 10, allowed=in_s3)
    assert index.search(x[0], 10, scope="nowhere") == []
    assert 4 in in_s3 and 12 not in in_s3
    index.apply([(4, None), (12, x[0], "s3"), (5000, x[0], "s3")])  # delete, move, add
    in_s3 = [i for i in in_s3 if i != 4] + [12, 5000]
    assert index.search(x[0], 10, scope="s3") == index.search(x[0], 10, allowed=in_s3)
    assert 12 not in {i for i, _ in index.search(x[0], 2000, scope="s4")}


def _concentrated(n: int, dim: int = 128, seed: int = 5) -> np.ndarray:
    """Unit vectors close to one direction (as a static embedder's vectors of chat text are:
    their mean has norm 0.95), spread around it less and less along each next direction."""
    rng = np.random.default_rng(seed)
    rotation, _ = np.linalg.qr(rng.standard_normal((dim, dim)))
    spread = 0.1 * 0.93 ** np.arange(dim - 1)
    x = np.hstack([np.full((n, 1), 1.0), rng.standard_normal((n, dim - 1)) * spread]) @ rotation.T
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def test_lists_of_concentrated_vectors_hold_fewer_dimensions_and_keep_recall(monkeypatch):
    x = _concentrated(8000)
    rng = np.random.default_rng(6)
    queries = x[rng.integers(0, len(x), 60)] + 0.05 * rng.standard_normal((60, 128)).astype(np.float32)

    def recall(ann: VectorIndex) -> float:
        hits = 0
        for q in queries:
            got = ann.search(q, 10)
            for item_id, score in got:  # scores are the exact cosines of the float32 rows
                assert score == pytest.approx(float(x[item_id - 1] @ q), abs=1e-5)
            hits += len({i for i, _ in exact.search(q, 10)} & {i for i, _ in got})
        return hits / 600

    exact, ann = _pair(x)
    assert ann._ivf is not None and ann._ivf.proj is not None
    assert ann._ivf.proj.shape[0] == 128 and ann._ivf.proj.shape[1] <= 128 / 2
    projected = recall(ann)
    monkeypatch.setattr(vector_index, "SPREAD_KEPT", 2.0)  # keep every dimension
    _, full = _pair(x)
    assert full._ivf is not None and full._ivf.proj is None
    # the lists' own recall (a quarter of them probed) is what it is; the projection
    # takes at most a point and a half off it
    assert projected >= recall(full) - 0.015 and projected >= 0.95


def test_projected_lists_honour_deletes_updates_and_new_rows():
    x = _concentrated(3000)
    _, ann = _pair(x)
    assert ann._ivf is not None and ann._ivf.proj is not None
    assert ann.search(x[0], 1)[0][0] == 1
    ann.apply([(1, None)])
    assert 1 not in {i for i, _ in ann.search(x[0], 10)}
    ann.apply([(2, x[0])])  # moved in place: the lists hold its new projection
    assert ann.search(x[0], 1)[0][0] == 2
    fresh = _concentrated(1, seed=9)[0]  # another mean: far from every row
    ann.apply([(99_999, fresh)])
    assert ann.search(fresh, 1) == [(99_999, pytest.approx(1.0, abs=1e-5))]


def test_vectors_spread_over_all_dimensions_keep_them_all():
    _, ann = _pair(_clustered(3000))
    assert ann._ivf is not None and ann._ivf.proj is None
