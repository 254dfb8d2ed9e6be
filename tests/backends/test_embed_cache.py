"""CachedEmbedder and the get_embedder registry."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pytest

from memlane.backends.embed import (
    CachedEmbedder,
    HashingEmbedder,
    available_embedders,
    clear_caches,
    get_embedder,
    register_embedder,
)
from memlane.errors import ConfigError
from memlane.protocols import Embedder


class Counting:
    """A HashingEmbedder that records each inner batch."""

    def __init__(self, name: str = "counting-test") -> None:
        self._inner = HashingEmbedder(dim=16)
        self.name = name
        self.dim = 16
        self.batches: list[list[str]] = []

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.batches.append(list(texts))
        return self._inner.embed_batch(texts)


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    clear_caches()
    yield
    clear_caches()


def test_misses_counted_once_and_rows_in_order() -> None:
    inner = Counting()
    cached = CachedEmbedder(inner)
    assert isinstance(cached, Embedder) and cached.name == inner.name and cached.dim == 16
    out = cached.embed_batch(["a", "b", "a", "c"])
    assert inner.batches == [["a", "b", "c"]]
    assert (cached.misses, cached.hits) == (3, 1)
    np.testing.assert_allclose(out, inner._inner.embed_batch(["a", "b", "a", "c"]))
    out2 = cached.embed_batch(["c", "d", "a"])
    assert inner.batches[-1] == ["d"]
    assert (cached.misses, cached.hits) == (4, 3)
    np.testing.assert_allclose(out2, inner._inner.embed_batch(["c", "d", "a"]))


def test_all_hits_make_no_inner_call_and_empty_input() -> None:
    inner = Counting()
    cached = CachedEmbedder(inner)
    cached.embed_batch(["x", "y"])
    cached.embed_batch(["y", "x"])
    assert len(inner.batches) == 1
    assert cached.embed_batch([]).shape == (0, 16)
    assert len(inner.batches) == 1


def test_cache_is_shared_by_inner_name() -> None:
    first, second, other = Counting("same"), Counting("same"), Counting("other")
    CachedEmbedder(first).embed_batch(["t"])
    c2 = CachedEmbedder(second)
    c2.embed_batch(["t"])
    assert second.batches == [] and c2.hits == 1
    CachedEmbedder(other).embed_batch(["t"])
    assert other.batches == [["t"]]


def test_max_items_evicts_least_recently_used() -> None:
    inner = Counting("lru")
    cached = CachedEmbedder(inner, max_items=2)
    cached.embed_batch(["a", "b"])
    cached.embed_batch(["a"])  # a is now more recent than b
    cached.embed_batch(["c"])  # evicts b
    cached.embed_batch(["a", "b"])
    assert inner.batches[-1] == ["b"]


def test_returned_rows_do_not_alias_the_cache() -> None:
    cached = CachedEmbedder(Counting())
    out = cached.embed_batch(["z"])
    out[:] = 0
    assert np.linalg.norm(cached.embed_batch(["z"])[0]) == pytest.approx(1.0)


def test_registry_names_and_errors() -> None:
    assert set(available_embedders()) >= {"static", "minilm", "hashing", "openai"}
    with pytest.raises(ConfigError, match="unknown embedder 'nope'.*hashing"):
        get_embedder("nope")
    with pytest.raises(ConfigError, match="hashing"):
        get_embedder("hashing", bogus_option=1)
    register_embedder("counting-test", Counting)
    assert isinstance(get_embedder("counting-test"), Counting)
