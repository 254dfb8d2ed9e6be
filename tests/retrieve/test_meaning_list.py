"""The meaning tier as a candidate source: the transformer's own list over the scope's
cached vectors (``retrieval.meaning_list``), and the vectors file the benches seed it
from (docs/retrieval.md, session 15)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
import json
from pathlib import Path

import numpy as np
import pytest

from memlane.backends.embed.onnx import onnx_available
from memlane.config import load_config
from memlane.errors import ConfigError
from memlane.index.embed import text_hash
from memlane.retrieve.meaning import MeaningTier, load_vectors, save_vectors
from memlane.store.filters import Filters
from memlane.testing import HashingEmbedder, add_sessions, memory

needs_onnx = pytest.mark.skipif(not onnx_available(), reason="the meaning extra is not installed")

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
PUPPY = "I adopted a golden retriever puppy last month, she sleeps at the foot of my bed."
QUESTION = "What kind of animal lives with me?"
FILLER = [
    ("The animal shelter downtown is holding a bake sale on Saturday.",
     "Bake sales are a fun way to raise money."),
    ("My sister lives in Porto and works at a bank.", "Porto is a lovely city."),
    ("What kind of paint suits a bathroom ceiling?", "A satin finish resists moisture."),
    ("I need to renew my passport before the trip.", "Check the processing times first."),
    ("The kind neighbour fixed our fence on Sunday.", "That was generous of them."),
    ("Which train goes to the airport from the city centre?", "The express line does."),
]
SESSIONS = [(40 - 5 * i, [("user", u), ("assistant", a), ("user", "Thanks."),
                          ("assistant", "You are welcome.")]) for i, (u, a) in enumerate(FILLER)]
SESSIONS.insert(2, (33, [("user", PUPPY), ("assistant", "Lovely! Is she house-trained yet?"),
                         ("user", "Mostly, she still has accidents at night."),
                         ("assistant", "Crate training helps with that.")]))

ON = {"meaning": True, "meaning_list": 5, "candidates": 3, "meaning_candidates": 3,
      "graph_hops": 0}


def _mem(path: Path, **retrieval: object) -> object:
    return memory(path, retrieval={**ON, **retrieval})


@pytest.fixture
def warm(tmp_path: Path) -> Iterator[Path]:
    """A chat indexed by the worker with the tier on: every turn's vector is cached."""
    path = tmp_path / "m.db"
    mem = add_sessions(_mem(path), SESSIONS, now=NOW, index=False)
    mem.work_once(now=NOW)  # indexes, then computes the transformer vectors ahead
    mem.close()
    yield path


@needs_onnx
def test_the_transformers_list_brings_what_the_quick_lists_miss(warm: Path) -> None:
    # the quick lists (BM25 and hashing vectors, 3 candidates each, and their sessions) find the turns sharing
    # the question's words; only the transformer's own list reaches the puppy
    with _mem(warm, meaning_list=0) as mem:
        without = mem.search(QUESTION, scope="chat", k=5, now=NOW, explain=True)
    assert PUPPY not in [h.item.text for h in without]
    with _mem(warm) as mem:
        hits = mem.search(QUESTION, scope="chat", k=5, now=NOW, explain=True)
    puppy = next(h for h in hits if h.item.text == PUPPY)
    assert puppy.scores["meaning_rank"] == 1.0  # explain names the list that brought it
    assert "lexical_rank" not in puppy.scores and "vector_rank" not in puppy.scores
    # and the same transformer re-scored it: the closest of all the hits to the question
    assert puppy.scores["meaning"] == max(h.scores.get("meaning", -1.0) for h in hits)


@needs_onnx
def test_a_scope_without_cached_vectors_gives_no_list(tmp_path: Path) -> None:
    # indexed with the tier off: the worker computed nothing, and the list computes
    # nothing but the query's vector
    with add_sessions(memory(tmp_path / "cold.db"), SESSIONS, now=NOW) as mem:
        tier = mem._meaning_tier()
        before = tier.computed
        assert tier.search(mem.store, QUESTION, Filters(scope="chat"), 5) == []
        assert tier.computed == before


def test_the_list_ranks_cached_vectors_within_the_filters(tmp_path: Path) -> None:
    emb = HashingEmbedder(dim=64, char_trigrams=True)
    with add_sessions(memory(tmp_path / "h.db"), SESSIONS, now=NOW) as mem:
        tier = MeaningTier(emb)
        turns = [it for s in mem.store.list_sessions(scope="chat", limit=100)
                 for it in mem.store.session_items(s.id, kind="turn")]
        some = [t for t in turns if "Porto" in t.text or "passport" in t.text]
        tier.vectors(mem.store, [t.text for t in some])  # only these two are cached
        got = tier.search(mem.store, "my sister in Porto", Filters(scope="chat"), 5)
        assert [i for i, _ in got][0] == next(t.id for t in some if "Porto" in t.text)
        assert {i for i, _ in got} == {t.id for t in some}
        assert tier.search(mem.store, "Porto", Filters(scope="other"), 5) == []
        assert tier.search(mem.store, "Porto", Filters(scope="chat", kinds=("summary",)), 5) == []


def test_vectors_file_round_trip_and_seed(tmp_path: Path) -> None:
    emb = HashingEmbedder(dim=32, char_trigrams=True)
    texts = ["a golden retriever puppy", "quarterly tax filing"]
    vecs = {text_hash(t): v for t, v in zip(texts, np.asarray(emb.embed_batch(texts)), strict=True)}
    path = tmp_path / "v.npz"
    save_vectors(path, vecs)
    back = load_vectors(path)
    assert set(back) == set(vecs)
    for h, v in vecs.items():
        np.testing.assert_array_equal(back[h], v)
    # a seeded tier takes the file's vectors instead of computing them, and caches them
    with memory(tmp_path / "s.db") as mem:
        tier = MeaningTier(emb)
        tier.seed = back
        got = tier.vectors(mem.store, texts + ["a new text"])
        assert tier.computed == 1  # only the text the file did not hold
        assert text_hash("a new text") in back  # and the seed keeps what was computed
        np.testing.assert_array_equal(got[0], vecs[text_hash(texts[0])])
        assert set(mem.store.cached_vectors(tier.model, list(vecs))) == set(vecs)


@pytest.mark.parametrize("value", [-1, 1001])
def test_meaning_list_out_of_range_names_the_key(value: int) -> None:
    with pytest.raises(ConfigError, match="retrieval.meaning_list"):
        load_config(environ={"MEMLANE_RETRIEVAL_MEANING_LIST": str(value)})


def test_a_file_that_is_not_a_vectors_file_is_refused_naming_the_option(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from memlane.bench.cli import bench
    from tests.bench.test_bench_e2e import _locomo_records

    bad = [tmp_path / "text.npz", tmp_path / "keys.npz", tmp_path / "shape.npz"]
    bad[0].write_text("not a vectors file")
    np.savez(bad[1], other=np.zeros(3))
    np.savez(bad[2], hashes=np.zeros((2, 16), dtype=np.uint8), vectors=np.zeros((2, 4), dtype=np.float32))
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps(_locomo_records()))
    for path in bad:
        with pytest.raises(ValueError, match=str(path)):
            load_vectors(path)
        res = CliRunner().invoke(bench, ["locomo", "--data", str(data), "--vectors", str(path)])
        assert res.exit_code == 2 and "--vectors" in res.output and "Traceback" not in res.output, res.output
