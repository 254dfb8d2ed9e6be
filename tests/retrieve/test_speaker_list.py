"""The quick tier's list over the turns of the speaker a question names
(``retrieval.speaker_list``): their static vectors ranked by cosine to the question without
the name, gated as the meaning tier's list is (docs/retrieval.md, session 29)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st
import pytest

from memlane.config import load_config
from memlane.errors import ConfigError
from memlane.retrieve.candidates import Candidate
from memlane.retrieve.search import _speaker_leads
from memlane.testing import add_sessions, memory
from memlane.types import Item

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
QUESTION = "What pet does Ana have?"
FILLER = [
    ("The animal shelter downtown is holding a bake sale on Saturday.",
     "Bake sales are a fun way to raise money."),
    ("My sister lives in Porto and works at a bank.", "Porto is a lovely city."),
    ("What kind of paint suits a bathroom ceiling?", "A satin finish resists moisture."),
    ("I need to renew my passport before the trip.", "Check the processing times first."),
    ("Which train goes to the airport from the city centre?", "The express line does."),
]
PET_TALK = ["Does the pet shop have any new pet fish this week?",
            "We have to pick a pet name for the class pet hamster.",
            "Do they have pet food that cats have liked?",
            "I have a pet peeve: shops that have no pet section."]


def _chat(pet_talker: str) -> list[tuple[float, list[tuple[str, str]]]]:
    """Ana and Ben chat; the turns that hold the question's words are ``pet_talker``'s
    (Ben's: an adversarial question reads like this)."""
    other = "Ben" if pet_talker == "Ana" else "Ana"
    sessions = [(40 - 5 * i, [("Ana", a), ("Ben", b)]) for i, (a, b) in enumerate(FILLER)]
    sessions.insert(2, (33, [("Ana", "My pet turtle Shelly turned fifteen last spring."),
                             ("Ben", "Wow, that is a long time!")]))
    sessions.append((3, [(pet_talker, PET_TALK[0]), (other, "No idea, I never go there."),
                         (pet_talker, PET_TALK[1])]))
    sessions.append((2, [(pet_talker, PET_TALK[2]), (other, "Not sure."),
                         (pet_talker, PET_TALK[3])]))
    return sessions


ON = {"candidates": 8, "graph_hops": 0, "speaker_list": 5, "speaker_list_weight": 0.4,
      "speaker_list_gate": 0}


def _db(path: str | Path, pet_talker: str) -> str | Path:
    add_sessions(memory(path), _chat(pet_talker), now=NOW, speakers=True).close()
    return path


def _listed(path: str | Path, **retrieval: object) -> list[str | None]:
    """The speakers of the hits the list ranked (``speaker_rank`` in their scores)."""
    with memory(path, retrieval={**ON, **retrieval}) as mem:
        hits = mem.search(QUESTION, scope="chat", k=10, now=NOW, explain=True)
    return [(h.item.extra or {}).get("speaker") for h in hits if "speaker_rank" in h.scores]


def test_the_list_joins_with_the_named_speakers_turns_only(db_url: str) -> None:
    led = _db(db_url, pet_talker="Ana")
    assert _listed(led, speaker_list=0) == []  # off: no hit comes from it
    got = _listed(led)
    assert got and set(got) == {"Ana"}
    assert set(_listed(led, speaker_list_gate=5)) == {"Ana"}  # Ana leads: the gate lets it in


def test_the_gate_keeps_the_list_out_when_the_other_speaker_leads(db_url: str) -> None:
    other = _db(db_url, pet_talker="Ben")
    # the floor off: Ana's turns are all at most 0.1 from the question on the test embedder,
    # so min_similarity (session 31) would keep the list out with or without the gate
    assert _listed(other, speaker_list_gate=5, min_similarity=-1) == []
    assert set(_listed(other, speaker_list_gate=0, min_similarity=-1)) == {"Ana"}  # joins
    assert _listed(other, speaker_list_gate=0) == []  # the floor alone keeps the far ones out


def test_no_named_speaker_no_list(tmp_path: Path) -> None:
    led = _db(tmp_path / "ana.db", pet_talker="Ana")
    with memory(led, retrieval=ON) as mem:
        hits = mem.search("What pet does anyone have?", scope="chat", k=10, now=NOW, explain=True)
    assert hits and not any("speaker_rank" in h.scores for h in hits)


@pytest.mark.parametrize(("key", "value"), [("SPEAKER_LIST", -1), ("SPEAKER_LIST", 1001),
                                            ("SPEAKER_LIST_GATE", -1),
                                            ("SPEAKER_LIST_GATE", 101),
                                            ("SPEAKER_LIST_WEIGHT", -0.5),
                                            ("SPEAKER_LIST_LEAD", -0.1),
                                            ("SPEAKER_LIST_LEAD", 11),
                                            ("MEANING_SPEAKER_LEAD", -1)])
def test_out_of_range_names_the_key(key: str, value: float) -> None:
    with pytest.raises(ConfigError, match="retrieval." + key.lower()):
        load_config(environ={"MEMLANE_RETRIEVAL_" + key: str(value)})


FENCE = "I set up a little fence in the backyard for the dogs."
DOGS = [
    (30, [("Ana", "My dogs love the park on Sundays."), ("Ben", "Mine too, they run for hours.")]),
    (25, [("Ana", "The dogs chewed my new shoes again."), ("Ben", "Oh no, which ones?")]),
    (20, [("Ana", "I walk the dogs every morning before work."), ("Ben", "That is a good habit.")]),
    (15, [("Ben", FENCE), ("Ana", "Nice, my dogs would love a fence too.")]),
    (10, [("Ana", "My sister lives in Porto and works at a bank."), ("Ben", "Porto is a lovely city.")]),
    (5, [("Ana", "The dogs got a bath yesterday, they hated it."), ("Ben", "Ha, mine too.")]),
]
"""Both keep dogs, Ana talks of them more, Ben set up the fence: "What did Ana set up in
the backyard for the dogs?" names the wrong speaker (session 28's lost conv-44 question)."""


def test_the_lead_gate_tells_two_speakers_on_one_topic_apart(db_url: str) -> None:
    add_sessions(memory(db_url), DOGS, now=NOW, speakers=True).close()
    asked = "What did Ana set up in the backyard for the dogs?"

    def search(**retrieval: object) -> tuple[list[str], bool]:
        with memory(db_url, retrieval={**ON, "speaker_list_gate": 5, **retrieval}) as mem:
            hits = mem.search(asked, scope="chat", k=5, now=NOW, explain=True)
        return [h.item.text for h in hits], any("speaker_rank" in h.scores for h in hits)

    texts, listed = search()  # Ana said most of the dog turns: the count gate lets it in
    assert listed and FENCE not in texts  # and her near matches push Ben's answer out
    texts, listed = search(speaker_list_lead=1.0)  # Ben's best match leads: held back
    assert not listed and FENCE in texts
    assert search(speaker_list=0)[0] == texts


def test_the_lead_gate_lets_the_list_in_when_the_named_speakers_turn_leads(db_url: str) -> None:
    led = _db(db_url, pet_talker="Ana")
    assert set(_listed(led, speaker_list_gate=5, speaker_list_lead=1.0)) == {"Ana"}
    assert _listed(led, speaker_list_gate=5, speaker_list_lead=10.0) == []  # a lead it lacks


class _Gate:
    """What ``_speaker_leads`` reads of a search: its items and the focused speaker."""

    def __init__(self, items: dict[int, Item]) -> None:
        self.items, self.speaker = items, "Ana"


POOL = st.lists(st.tuples(st.sampled_from(["Ana", "Ben", "Cy", None]),
                          st.floats(0.0, 2.0, allow_nan=False),
                          st.sampled_from(["I saw it", "we did", "Did you?", "Wow, cool!"])),
                max_size=12)
TELLS = {"I saw it", "we did"}  # a first-person word: the turn tells of its speaker


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pool=POOL, depth=st.integers(0, 8), low=st.floats(0.0, 3.0), high=st.floats(0.0, 3.0))
def test_a_lead_only_takes_joins_away(pool: list[tuple[str | None, float, str]], depth: int,
                                      low: float, high: float) -> None:
    items = {i: Item(i, "turn", text, NOW, extra={"speaker": s} if s else {})
             for i, (s, _, text) in enumerate(pool)}
    cands = sorted((Candidate(id=i, rrf=0.0, relevance=r) for i, (_, r, _) in enumerate(pool)),
                   key=lambda c: -c.relevance)
    gate = _Gate(items)
    low, high = sorted((low, high))
    by_count = _speaker_leads(gate, cands, depth)  # type: ignore[arg-type]
    at_low = _speaker_leads(gate, cands, depth, low)  # type: ignore[arg-type]
    at_high = _speaker_leads(gate, cands, depth, high)  # type: ignore[arg-type]
    assert at_high <= at_low <= by_count  # a stricter lead never lets more in
    if high > 0 and at_high:  # what it lets in: the named speaker's best telling turn leads
        telling = [(s, r) for s, r, text in pool if s is not None and text in TELLS]
        best = {s: max(r for t, r in telling if t == s) for s, _ in telling}
        assert "Ana" in best and all(best["Ana"] >= high * r for s, r in best.items() if s != "Ana")
    if high > 0 and not any(s == "Ana" and text in TELLS for s, _, text in pool):
        assert not at_high  # questions and reactions alone never lead
