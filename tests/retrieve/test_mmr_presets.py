"""MMR's greedy choice, the named presets, and index expansion keys."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from memlane.config import Config, RetrievalConfig
from memlane.index.expand import date_words, item_keys, summary_keys
from memlane.retrieve.mmr import mmr_order
from memlane.retrieve.options import search_options
from memlane.retrieve.presets import ARAWN, FLAT, PRESETS, SESSION, Preset, from_config
from memlane.retrieve.rerank import SIGNALS

VECS = {
    "a": np.array([1.0, 0.0, 0.0]),
    "a2": np.array([0.99, 0.14, 0.0]),  # a near-duplicate of a
    "b": np.array([0.0, 1.0, 0.0]),
}
SCORED = [("a", 1.0), ("a2", 0.9), ("b", 0.5)]


def test_mmr_skips_the_near_duplicate_for_the_diverse_item() -> None:
    # after a: a2 = 0.5*0.8 - 0.5*0.99 < 0; b = 0.5*0 - 0.5*0 = 0
    assert mmr_order(SCORED, VECS, 0.5, 3) == ["a", "b", "a2"]


def test_mmr_with_lambda_one_is_the_score_order() -> None:
    assert mmr_order(SCORED, VECS, 1.0, 3) == ["a", "a2", "b"]
    assert mmr_order(SCORED, VECS, 0.5, 1) == ["a"]
    assert mmr_order([], VECS, 0.5, 3) == []


def test_mmr_item_without_vector_is_similar_to_nothing() -> None:
    assert mmr_order([("a", 1.0), ("x", 0.9), ("a2", 0.8)], VECS, 0.5, 3) == ["a", "x", "a2"]
    with pytest.raises(ValueError, match="lam"):
        mmr_order(SCORED, VECS, 1.5, 3)


def test_presets_are_complete_named_constants() -> None:
    assert set(PRESETS) == {"session", "flat", "arawn", "recency", "lexical", "meaning"}
    for p in PRESETS.values():
        assert set(p.weights) == set(SIGNALS)
    assert ARAWN.weight("cosine") == 0.4 and ARAWN.weight("graph") == 0.3
    assert ARAWN.weight("confidence") == 0.3 and ARAWN.weight("relevance") == 0.0
    assert FLAT.session_aware is False and SESSION.session_aware is True
    with pytest.raises(ValueError, match="unknown signal"):
        Preset("x", "bad", weights={"loudness": 1.0})


def test_default_preset_equals_the_session_preset() -> None:
    d = from_config(RetrievalConfig())
    assert dict(d.weights) == dict(SESSION.weights)
    assert d.fusion == SESSION.fusion
    assert dict(d.kind_bonuses or ()) == dict(SESSION.kind_bonuses or ())


def test_options_resolve_caller_over_preset_over_config() -> None:
    cfg = Config(retrieval=RetrievalConfig(top_sessions=7, preset="flat"))
    o = search_options(cfg)
    assert o.preset.name == "flat" and o.session_aware is False and o.top_sessions == 7
    o = search_options(cfg, preset="session", top_sessions=2, mmr=True)
    assert o.session_aware is True and o.top_sessions == 2 and o.mmr is True
    assert o.stage.bonus == {"turn.user": 0.3}
    assert search_options(cfg, preset="session", session_aware=False).session_aware is False


def test_expansion_keys() -> None:
    at = datetime(2023, 5, 20, 9, 30, tzinfo=UTC)
    assert date_words(at) == "Saturday 20 May 2023"
    assert item_keys("Saw Dr. Lee about my appt", at) == "Saturday 20 May 2023 doctor appointment"
    assert item_keys("plain words") == ""
    keys = summary_keys(["dentist", "insurance"], ["I saw the dentist", "", "claim denied"], at)
    assert keys == "dentist insurance\nSaturday 20 May 2023\nI saw the dentist\nclaim denied"


def test_question_scaffolding_is_left_out_of_the_lexical_query() -> None:
    from memlane.retrieve.search import question_terms

    assert question_terms("How many different dentists did I visit?") == ["dentists", "visit"]
    assert question_terms("How many days ago did we attend the Palm Sunday concert?") == [
        "attend", "Palm", "Sunday", "concert"]
    assert question_terms("how many times") == ["many", "times"]  # nothing else: kept


def test_context_words_give_a_short_turn_its_previous_message() -> None:
    from memlane.index.expand import context_words

    assert context_words("How did the kids like the museum trip?", "They loved it!") == (
        "kids like museum trip")
    assert context_words("the museum", "word " * 51) == ""  # a long turn says what it is about
    many = " ".join(f"word{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(100))
    assert len(context_words(many, "ok").split()) == 30


def test_a_turn_is_found_by_its_speaker_and_its_context(tmp_path) -> None:
    from memlane.testing import memory

    m = memory(tmp_path / "ctx.db")
    at = datetime(2023, 5, 20, 9, 30, tzinfo=UTC)
    m.add_message("chat", "user", "How did the kids like the museum trip, Rosa?", at, speaker="Lena")
    m.add_message("chat", "user", "They loved the dinosaur bones most of all!", at, speaker="Rosa")
    m.add_message("chat", "user", "I booked a pottery course for next week.", at, speaker="Rosa")
    m.add_message("chat", "assistant", "Pottery is a lovely hobby for the museum crowd.", at)
    m.add_message("chat", "user", "Thanks, noted.", at)
    m.close_session("chat")
    m.index(now=at)
    by_text = {it.text: it for it in m.store.session_items(1, kind="turn")}
    thanks = by_text["Thanks, noted."]
    (keys,) = m.store.db.execute("SELECT keys FROM items WHERE id = ?", (thanks.id,)).fetchone()
    assert "pottery" not in keys.split()  # a user's turn takes no context from an answer
    dino = by_text["They loved the dinosaur bones most of all!"]
    (keys,) = m.store.db.execute("SELECT keys FROM items WHERE id = ?", (dino.id,)).fetchone()
    assert "museum" in keys.split() and "Rosa" in keys.split()
    hits = m.search("museum kids", kinds=["turn"], k=3, now=at)
    assert dino.id in {h.item.id for h in hits}
    # Rosa's own words, which never name her, rank above Lena's turn that does
    hits = m.search("Rosa pottery", kinds=["turn"], k=3, now=at)
    assert hits[0].item.text == "I booked a pottery course for next week."
    m.close()
