"""The meaning tier: ONNX MiniLM against the numpy one, the cascade, its content-hash cache."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from memlane.backends.embed.minilm import MiniLMEmbedder
from memlane.backends.embed.onnx import OnnxMiniLMEmbedder, meaning_embedder, onnx_available
from memlane.index.embed import text_hash
from memlane.retrieve.meaning import best_passage, passages, shared_tier
from memlane.testing import TURNS_ALONE, add_sessions, memory

needs_onnx = pytest.mark.skipif(not onnx_available(), reason="the meaning extra is not installed")

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
SESSIONS = [
    (30, [("user", "We finally brought home a golden retriever puppy last month"),
          ("assistant", "How exciting! Golden retrievers are gentle family dogs."),
          ("user", "She chews everything, especially my running shoes"),
          ("assistant", "Chew toys and a crate can help with that.")]),
    (20, [("user", "My quarterly tax filing is due and the spreadsheet is a mess"),
          ("assistant", "Let's sort the receipts by category first."),
          ("user", "The accountant wants the totals by Friday"),
          ("assistant", "Then start with the largest expense categories.")]),
    (10, [("user", "I repainted the kitchen cabinets a pale green colour"),
          ("assistant", "Pale green works well with wooden counters."),
          ("user", "The hinges squeak now, maybe I should oil them"),
          ("assistant", "A drop of oil on each hinge should stop the squeak.")]),
]
SENTENCES = [
    "We finally brought home a golden retriever puppy last month",
    "What kind of animal lives with me?",
    "My quarterly tax filing is due and the spreadsheet is a mess",
    "A drop of oil on each hinge should stop the squeak.",
]


@needs_onnx
def test_onnx_vectors_match_the_numpy_minilm() -> None:
    onnx = OnnxMiniLMEmbedder(max_tokens=128).embed_batch(SENTENCES)
    ref = MiniLMEmbedder(max_tokens=128).embed_batch(SENTENCES)
    assert onnx.shape == ref.shape == (4, 384)
    np.testing.assert_allclose(np.linalg.norm(onnx, axis=1), 1.0, atol=1e-5)
    cos = (onnx * ref).sum(axis=1)
    assert cos.min() > 0.99, cos  # int8 weights: close to the float model (measured >= 0.998)
    # and they rank alike: the pet question is nearest the puppy sentence in both
    for m in (onnx, ref):
        assert int(np.argmax(m[[0, 2, 3]] @ m[1])) == 0


def test_onnx_embedder_rejects_bad_options() -> None:
    with pytest.raises(ValueError, match="max_tokens"):
        OnnxMiniLMEmbedder(max_tokens=1)
    with pytest.raises(ValueError, match="batch_size"):
        OnnxMiniLMEmbedder(batch_size=0)


def test_meaning_embedder_falls_back_to_numpy_without_the_extra() -> None:
    emb = meaning_embedder()
    expected = OnnxMiniLMEmbedder if onnx_available() else MiniLMEmbedder
    assert isinstance(emb, expected)
    assert emb.dim == 384


def _fill(m):
    return add_sessions(m, SESSIONS, now=NOW, index=False)


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[object]:
    # every candidate embedded at query time (the bounded cold query: test_meaning_cold.py)
    m = _fill(memory(tmp_path / "m.db", retrieval={"meaning_candidates": 14, "meaning_cold": 0}))
    m.index(now=NOW)
    yield m
    m.close()


def _cached(m, model: str, texts: list[str]) -> int:
    return len(m.store.cached_vectors(model, [text_hash(t) for t in texts]))


def test_the_meaning_preset_rescores_candidates_and_finds_the_paraphrase(mem) -> None:
    q = "What kind of animal lives with me?"
    hits = mem.search(q, scope="chat", k=5, now=NOW, preset="meaning")
    scored = [h for h in hits if "meaning" in h.scores]
    assert scored, "the tier re-scored no hit"
    assert "golden retriever" in hits[0].item.text
    plain = mem.search(q, scope="chat", k=5, now=NOW)
    assert all("meaning" not in h.scores for h in plain)


def test_each_vector_is_computed_once_and_kept_in_the_store(mem) -> None:
    tier = shared_tier(mem.config.retrieval.meaning_max_tokens)
    turns = [t for _, ts in SESSIONS for _, t in ts]
    assert _cached(mem, tier.model, turns) == 0
    before = tier.computed
    mem.search("repainting cabinets in the kitchen", scope="chat", k=5, now=NOW, preset="meaning")
    first = tier.computed - before
    assert 2 <= first <= 14  # the re-scored candidates only, not the whole memory (18 items)
    every = {it.text for s in mem.store.list_sessions(scope="chat")
             for it in mem.store.session_items(s.id)}
    assert _cached(mem, tier.model, sorted(every)) == first  # each one is in the store
    mem.search("repainting cabinets in the kitchen", scope="chat", k=5, now=NOW, preset="meaning")
    assert tier.computed - before == first  # same candidates: nothing computed again
    mem.search("kitchen cabinet colour", scope="chat", k=5, now=NOW, preset="meaning")
    # another query computes only candidates never seen: every text at most once
    assert _cached(mem, tier.model, sorted(every)) == tier.computed - before


def test_the_worker_computes_vectors_ahead_of_queries(tmp_path: Path) -> None:
    m = _fill(memory(tmp_path / "w.db", retrieval={"meaning": True, "meaning_candidates": 14}))
    try:
        tier = shared_tier(m.config.retrieval.meaning_max_tokens)
        turns = [t for _, ts in SESSIONS for _, t in ts]
        m.work_once(now=NOW)
        assert _cached(m, tier.model, turns) == len(turns)
        before = tier.computed
        hits = m.search("tax spreadsheet for the accountant", scope="chat", k=5, now=NOW)
        assert any("meaning" in h.scores for h in hits)  # on by config, no preset needed
        assert tier.computed == before
    finally:
        m.close()


LONG = ("We spent the morning sorting the garage, which took far longer than planned because "
        "every box held something from the old flat. By noon my back hurt and we ordered "
        "lunch. In the afternoon I finally booked the flights to Lisbon for the conference in "
        "October, window seats both ways, and reserved a small hotel near the river.")


def test_passages_cut_a_long_text_into_even_pieces_that_cover_it() -> None:
    parts = passages(LONG, 20)
    assert len(parts) == 3  # 59 words: three pieces of at most 20
    assert all(len(p.split()) <= 20 for p in parts)
    assert " ".join(parts).split() == LONG.split()  # nothing lost, nothing repeated
    assert passages("short text here", 20) == ["short text here"]
    assert passages(LONG, 0) == [LONG]


def test_best_passage_is_the_piece_holding_the_most_query_words() -> None:
    assert "Lisbon" in best_passage(LONG, ["flights", "Lisbon", "conference"], 20)
    assert best_passage(LONG, ["garage", "boxes"], 20).startswith("We spent the morning")
    # no query word anywhere: the first piece
    assert best_passage(LONG, ["volcano"], 20) == passages(LONG, 20)[0]


def test_a_windowed_tier_embeds_only_the_matching_passage(tmp_path: Path) -> None:
    m = memory(tmp_path / "p.db", retrieval={"meaning_window": 20, "meaning_candidates": 14,
                                                     "meaning_cold": 0},
               indexing=TURNS_ALONE)
    try:
        add_sessions(m, [(5, [("user", LONG), ("assistant", "Have a great trip!")])],
                     now=NOW, index=False)
        m.index(now=NOW)
        tier = shared_tier(m.config.retrieval.meaning_max_tokens, 20)
        hits = m.search("when is my flight to the Lisbon conference", scope="chat", k=3,
                        now=NOW, preset="meaning")
        assert "meaning" in hits[0].scores and "Lisbon" in hits[0].item.text
        lisbon = next(p for p in passages(LONG, 20) if "Lisbon" in p)
        assert _cached(m, tier.model, [lisbon]) == 1  # the matching piece was embedded
        assert _cached(m, tier.model, [LONG]) == 0  # the whole text was not
        # the worker embeds every piece, so any later query finds its passage cached
        assert tier.warm(m.store, [hits[0].item.session_id]) == 2
        assert _cached(m, tier.model, passages(LONG, 20)) == 3
    finally:
        m.close()
