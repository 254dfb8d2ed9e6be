"""HashingEmbedder: shapes, norms, determinism across processes, seeds."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.backends.embed import HashingEmbedder, get_embedder
from memlane.protocols import Embedder


def test_shape_dtype_and_unit_rows() -> None:
    emb = HashingEmbedder(dim=64)
    out = emb.embed_batch(["hello world", "Another text, with punctuation!", "x"])
    assert out.shape == (3, 64)
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-6)
    assert isinstance(emb, Embedder)


def test_empty_and_wordless_texts_give_zero_rows() -> None:
    out = HashingEmbedder(dim=32).embed_batch(["", "   ", "?!", "word"])
    assert not out[:3].any()
    assert np.linalg.norm(out[3]) == np.float32(1.0)
    assert HashingEmbedder().embed_batch([]).shape == (0, 256)


def test_case_insensitive_and_order_free() -> None:
    emb = HashingEmbedder()
    a, b = emb.embed_batch(["Red Apple pie", "pie apple RED"])
    np.testing.assert_allclose(a, b, atol=1e-7)


def test_overlap_scores_higher_than_disjoint() -> None:
    emb = HashingEmbedder(dim=512)
    q, near, far = emb.embed_batch(["my dog likes the park", "the dog park", "tax deadline filing"])
    assert q @ near > q @ far


def test_seed_and_trigrams_change_name_and_vectors() -> None:
    a = HashingEmbedder(seed=0)
    b = HashingEmbedder(seed=1)
    c = HashingEmbedder(char_trigrams=True)
    assert len({a.name, b.name, c.name}) == 3
    assert not np.allclose(a.embed_batch(["some words here"]), b.embed_batch(["some words here"]))
    # trigrams make morphological variants similar
    v = c.embed_batch(["running", "runner"])
    assert v[0] @ v[1] > 0.2


def test_stable_across_processes() -> None:
    code = (
        "from memlane.backends.embed.hashing import HashingEmbedder;"
        "print(HashingEmbedder(dim=16, seed=3).embed_batch(['stable vectors please']).tolist())"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outs) == 1
    here = HashingEmbedder(dim=16, seed=3).embed_batch(["stable vectors please"])
    np.testing.assert_allclose(np.array(eval(outs.pop()), dtype=np.float32), here)


def test_registry_builds_hashing() -> None:
    emb = get_embedder("hashing", dim=8)
    assert isinstance(emb, HashingEmbedder)
    assert emb.dim == 8


@settings(max_examples=50, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=6))
def test_rows_are_unit_or_zero(texts: list[str]) -> None:
    out = HashingEmbedder(dim=16).embed_batch(texts)
    assert out.shape == (len(texts), 16)
    norms = np.linalg.norm(out, axis=1)
    assert np.all((np.abs(norms - 1) < 1e-5) | (norms == 0))
