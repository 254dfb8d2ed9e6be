"""The learned facts reader (session 49, fct49b): a sentence the shipped head is sure of
becomes ``<speaker> stated <sentence>`` beside the readers' facts; small talk never does; the
weights ship and load; ``stated`` facts accumulate in the store (conversations written for
these tests). The reader is opt-in (``summary.facts_model``, fct49c): these tests turn it on."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import FactsConfig
from memlane.index.facts import is_single_valued
from memlane.index.factmodel import SHIPPED, covered, shipped_facts, tokens
from memlane.index.offline import OfflineIntelligence
from memlane.testing import memory, turn_messages

GARDEN = (
    "user: Hi there!",
    "assistant: Hello! How can I help?",
    "user: I want to plan the vegetable beds for next spring.",
    "assistant: Happy to help. What did you grow this year?",
    "user: We harvested 20 kilos of potatoes this year.",
    "user: Sounds good, thanks!",
    "assistant: You are welcome.",
)
SMALL_TALK = ("Hi there!", "Thanks!", "Sounds good, thanks!", "OK.", "Perfect, thank you!",
              "Great.", "You are welcome.", "Agreed.", "Sure, fine by me.")
SAID = ("We harvested 20 kilos of potatoes this year.", "My sister Jo moved to Leeds in May.",
        "The boiler is twelve years old.", "I cycle 8 miles to work each day.",
        "Our landlord wants three months' notice.", "The choir rehearses on Tuesday evenings.")


def _stated(turns, model="shipped"):
    _, ex = OfflineIntelligence(model, facts_model=True).summarize("s", turn_messages(turns))
    return [f for f in ex.facts if f.predicate == "stated"]


def test_the_reader_writes_a_stated_fact_for_a_sentence_and_none_for_small_talk():
    stated = _stated(GARDEN)
    objects = {f.object for f in stated}
    assert "We harvested 20 kilos of potatoes this year" in objects
    assert all(f.subject == "user" and f.source == "stated" for f in stated)
    harvest = next(f for f in stated if f.object.startswith("We harvested"))
    assert harvest.seq == 5 and harvest.text == "We harvested 20 kilos of potatoes this year."
    for f in stated:
        assert f.text not in SMALL_TALK


def test_the_patterns_alone_write_no_stated_fact():
    assert _stated(GARDEN, None) == []


def test_a_sentence_a_reader_already_read_is_not_stated_again():
    turns = ("user: I am planning the allotment for next spring.",
             "user: My neighbour Gwen keeps bees on the next plot.")
    _, ex = OfflineIntelligence(facts_model=True).summarize("s", turn_messages(turns))
    gwen = [f for f in ex.facts if f.text.startswith("My neighbour Gwen")]
    assert any(f.predicate == "neighbor" for f in gwen)
    assert not any(f.predicate == "stated" for f in gwen)


def test_covered_is_dice_of_content_words():
    assert covered(tokens("runs forty minutes"), [tokens("it runs forty minutes")])
    assert not covered(tokens("the boiler is twelve years old"), [tokens("Gwen")])


def test_the_weights_ship_and_have_the_expected_shape():
    assert (resources.files("memlane.index") / SHIPPED).is_file()
    head = shipped_facts()
    assert shipped_facts() is head  # read once per process
    width = head.dim + len(head.vocab)
    assert head.dim == 256 and len(head.vocab) > 20
    assert head.arrays["mean"].shape == head.arrays["scale"].shape == head.arrays["w"].shape == (width,)
    assert head.arrays["b"].shape == (1,)
    assert 0.5 <= head.threshold < 1.0
    assert head.meta["trained_on"] > 1000


def test_stated_facts_do_not_supersede_each_other_in_the_store(tmp_path: Path):
    assert not is_single_valued("stated", FactsConfig())
    mem = memory(tmp_path / "m.db")
    try:
        first = mem.add_fact("user", "stated", "We harvested 20 kilos of potatoes this year", scope="s", at=1_700_000_000)
        second = mem.add_fact("user", "stated", "The shed roof leaks when it rains", scope="s", at=1_700_000_100)
        assert first.action == "added" and second.action == "added"
        current = {f.object for f in mem.facts("s") if f.predicate == "stated"}
        assert current == {"We harvested 20 kilos of potatoes this year", "The shed roof leaks when it rains"}
    finally:
        mem.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(("user", "assistant", "Mira", "Tomas")),
                          st.sampled_from(SMALL_TALK + SAID)), min_size=1, max_size=8))
def test_no_fact_is_ever_stated_for_small_talk(lines):
    stated = _stated(tuple(f"{who}: {text}" for who, text in lines))
    assert not any(f.text in SMALL_TALK for f in stated)
