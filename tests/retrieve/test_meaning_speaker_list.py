"""The transformer's list over the turns of the speaker a question names
(``retrieval.meaning_speaker_list``), its query without the name, and its gate: it joins
only when that speaker's turns lead the quick candidates (docs/retrieval.md, session 28)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
import re

from hypothesis import given, strategies as st
import pytest

from memlane.backends.embed.onnx import onnx_available
from memlane.config import load_config
from memlane.errors import ConfigError
from memlane.retrieve.meaning import MeaningTier
from memlane.retrieve.speaker import query_without_name
from memlane.store.filters import Filters
from memlane.testing import HashingEmbedder, add_sessions, memory

needs_onnx = pytest.mark.skipif(not onnx_available(), reason="the meaning extra is not installed")

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
PUPPY = "I adopted a golden retriever puppy last month, she sleeps at the foot of my bed."
QUESTION = "What pet does Ana have?"
FILLER = [
    ("The animal shelter downtown is holding a bake sale on Saturday.",
     "Bake sales are a fun way to raise money."),
    ("My sister lives in Porto and works at a bank.", "Porto is a lovely city."),
    ("What kind of paint suits a bathroom ceiling?", "A satin finish resists moisture."),
    ("I need to renew my passport before the trip.", "Check the processing times first."),
    ("Which train goes to the airport from the city centre?", "The express line does."),
]
PET_TALK = ["Does the pet shop have any new fish this week?",
            "We have to pick a pet name for the class hamster."]


def _chat(pet_talker: str) -> list[tuple[float, list[tuple[str, str]]]]:
    """Ana and Ben chat; Ana's puppy shares no word with the question, and the turns that
    do ("pet", "have") are ``pet_talker``'s."""
    other = "Ben" if pet_talker == "Ana" else "Ana"
    sessions = [(40 - 5 * i, [("Ana", a), ("Ben", b), ("Ana", "Thanks."), ("Ben", "Sure.")])
                for i, (a, b) in enumerate(FILLER)]
    sessions.insert(2, (33, [("Ana", PUPPY), ("Ben", "Lovely! Is she house-trained yet?"),
                             ("Ana", "Mostly, she still has accidents at night.")]))
    sessions.append((3, [(pet_talker, PET_TALK[0]), (other, "No idea, I never go there."),
                         (pet_talker, PET_TALK[1])]))
    return sessions


ON = {"meaning": True, "candidates": 3, "meaning_candidates": 3, "graph_hops": 0,
      "meaning_speaker_list": 5, "meaning_speaker_weight": 0.4, "meaning_speaker_gate": 0}


def _warm(path: Path, pet_talker: str) -> Path:
    """The chat indexed by the worker with the tier on: every turn's vector is cached."""
    mem = add_sessions(memory(path, retrieval=ON), _chat(pet_talker), now=NOW, index=False,
                       speakers=True)
    mem.work_once(now=NOW)
    mem.close()
    return path


def _hits(path: Path, **retrieval: object) -> list[str]:
    with memory(path, retrieval={**ON, **retrieval}) as mem:
        return [h.item.text for h in mem.search(QUESTION, scope="chat", k=5, now=NOW)]


@needs_onnx
def test_the_named_speakers_list_brings_their_turn_and_the_gate_holds_it_back(
        tmp_path: Path) -> None:
    # Ana's own turns hold the question's words: hers lead the quick candidates
    led = _warm(tmp_path / "ana.db", pet_talker="Ana")
    assert PUPPY not in _hits(led, meaning_speaker_list=0)  # the quick lists miss it
    assert PUPPY in _hits(led)
    assert PUPPY in _hits(led, meaning_speaker_gate=1)
    # Ben's turns hold them (an adversarial question reads like this): the gate keeps
    # the list out, without the gate it joins
    other = _warm(tmp_path / "ben.db", pet_talker="Ben")
    assert PUPPY not in _hits(other, meaning_speaker_gate=1)
    assert PUPPY in _hits(other, meaning_speaker_gate=0)


def test_the_list_ranks_only_the_named_speakers_cached_turns(tmp_path: Path) -> None:
    with add_sessions(memory(tmp_path / "h.db"), _chat("Ben"), now=NOW, speakers=True) as mem:
        tier = MeaningTier(HashingEmbedder(dim=64, char_trigrams=True))
        turns = [it for s in mem.store.list_sessions(scope="chat", limit=100)
                 for it in mem.store.session_items(s.id, kind="turn")]
        tier.vectors(mem.store, [t.text for t in turns])
        said = {t.id: t.extra["speaker"] for t in turns}
        for who in ("Ana", "Ben"):
            got = tier.search(mem.store, "pet shop", Filters(scope="chat"), 100, speaker=who)
            assert got and {said[i] for i, _ in got} == {who}
            assert len(got) == sum(s == who for s in said.values())
        assert tier.search(mem.store, "pet", Filters(scope="chat"), 100, speaker="Cy") == []


NAME = st.lists(st.text(alphabet="AaBbNnOo", min_size=1, max_size=6), min_size=1, max_size=2)
WORDS = st.lists(st.text(alphabet="abcdefgho?, ", min_size=1, max_size=8), max_size=6)


@given(name=NAME, before=WORDS, after=WORDS, possessive=st.booleans())
def test_the_query_without_the_name_holds_no_word_of_it(
        name: list[str], before: list[str], after: list[str], possessive: bool) -> None:
    full = " ".join(name)
    query = " ".join([*before, full + ("'s" if possessive else ""), *after])
    out = query_without_name(query, full)
    drop = {w.lower() for w in name}
    others = [w for w in re.findall(r"\w+", " ".join([*before, *after]))
              if w.lower() not in drop]
    if others:  # every other word stays, in order, and no word of the name
        assert [w for w in re.findall(r"\w+", out)] == others
    else:  # nothing else would be left: the query as it is
        assert out == query


def test_the_query_without_the_name_examples() -> None:
    assert query_without_name("What does Rosa do to relax?", "Rosa") \
        == "What does do to relax?"
    assert query_without_name("What is Rosa\u2019s son's name?", "Rosa") == "What is son's name?"
    assert query_without_name("Where did Mary Ann go?", "Mary Ann") == "Where did go?"
    assert query_without_name("Rosa?", "Rosa") == "Rosa?"  # nothing else to ask


@pytest.mark.parametrize(("key", "value"), [("MEANING_SPEAKER_LIST", -1),
                                            ("MEANING_SPEAKER_LIST", 1001),
                                            ("MEANING_SPEAKER_GATE", -1),
                                            ("MEANING_SPEAKER_WEIGHT", -0.5)])
def test_out_of_range_names_the_key(key: str, value: float) -> None:
    with pytest.raises(ConfigError, match="retrieval." + key.lower()):
        load_config(environ={"MEMLANE_RETRIEVAL_" + key: str(value)})
