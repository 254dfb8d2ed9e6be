"""Session 24: the shipped sentence model reads how a sentence pairs with the turns of other
speakers around it (``sentmodel.pair_features``): a short "yes / ok" or a take-up after it
("ordering one today", "ok that i can live with"), an objection, a choice asked before it.
Every conversation is written for these tests."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries import dense
from memlane.bench.summaries.score import is_small_talk, strip_owner
from memlane.index import sentmodel
from memlane.index.cues import _Turn
from memlane.index.offline import OfflineIntelligence
from memlane.testing import turn_messages

VHF = ["Fiona: the handheld VHF on the committee boat died halfway through saturday's racing.",
       "Pete: the spare one is older than me and the battery lasts an hour",
       "Fiona: buy a new handheld out of the regatta pot."]
STORM = ["Tomasz: the haze machine sets off the fire alarm at the Corn Exchange, they won't isolate it.",
         "Ravi: then the storm has to work without haze",
         "Tomasz: i programme the storm as one cue stack."]


def _summary(turns, model="shipped"):
    return OfflineIntelligence(model).summarize("s", turn_messages(turns))[0]


def _without_pairs():
    """The shipped weights read without the pair features (their columns left at zero)."""
    m = sentmodel.shipped()
    return sentmodel.DenseSentenceModel(m.vocab, m.arrays, dict(m.meta, pair=False))


def _turns(*lines):
    return [_Turn(who, "user", [text]) for who, _, text in (line.partition(": ") for line in lines)]


def test_the_shipped_weights_read_the_pair_features():
    assert dense.PAIR and sentmodel.shipped().meta["pair"] is True
    assert any(name.startswith(("pn:", "pp:")) for name in sentmodel.shipped().vocab)


@pytest.mark.parametrize("turns, reply, decision", [
    (VHF, "Pete: ordering one today", "Buy a new handheld out of the regatta pot."),
    (STORM, "Ravi: ok that i can live with", "I programme the storm as one cue stack."),
])
def test_a_statement_taken_up_by_the_next_speaker_is_a_decision(turns, reply, decision):
    assert decision in _summary([*turns, reply]).decisions
    # the same weights without the pair features leave it out, as the patterns do
    assert decision not in _summary([*turns, reply], _without_pairs()).decisions
    assert decision not in _summary([*turns, reply], None).decisions


@pytest.mark.parametrize("reply", ["Pete: but the pot is for the trophies",
                                   "Pete: no, the club pays for radios",
                                   "Pete: what about borrowing Tarrant's"])
def test_a_statement_the_next_speaker_objects_to_is_no_decision(reply):
    assert _summary([*VHF, reply]).decisions == ()


def test_pair_features_name_the_reply_and_the_question_before():
    turns = _turns("Omar: pastel bunting or the autumn leaves?", "Hana: autumn leaves, the bunting is faded.",
                   "Omar: yep, ordering the leaves tonight")
    names = sentmodel.pair_features(turns, 1, turns[1].sentences[0], "u")
    assert {"pn:short_ok:u", "pn:doit:u", "pp:choice_q:u", "pp:q_overlap:u"} <= set(names)
    turns = _turns("Omar: the bunting is faded.", "Hana: get autumn leaves instead.", "Omar: but the leaves cost more")
    names = sentmodel.pair_features(turns, 1, turns[1].sentences[0], "u")
    assert names == ["pn:objects:u"]
    assert sentmodel.pair_features(_turns("Hana: get autumn leaves instead."), 0, "get autumn leaves instead.", "u") == []


_SAID = st.sampled_from([
    "buy a new handheld out of the regatta pot.", "ordering one today", "ok that i can live with",
    "yep", "fine, bruno stays.", "but the pot is for the trophies", "what about borrowing tarrant's?",
    "sam's kit or the studio's gretsch?", "mine, i know how it sounds", "i'll ring them this afternoon",
    "no haze then. we'll do it with light", "good, i'll let the venue know today", "thanks!", "ok",
    "repatch by hand, firmware stays.", "do that.", "hmm, not sure", "go with the 22 kick"])


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(st.tuples(st.sampled_from(["Fiona", "Pete", "user", "assistant"]), _SAID),
                      min_size=1, max_size=7))
def test_any_exchange_of_pair_words_gives_no_small_talk_and_no_sentence_in_two_fields(lines):
    summary = _summary([f"{who}: {text}" for who, text in lines])
    fields = ("decisions", "rationale", "open_questions", "next_steps", "action_items")
    items = [(name, strip_owner(x).strip().lower()) for name in fields for x in getattr(summary, name)]
    assert not any(is_small_talk(x) for _, x in items), summary
    seen: dict[str, str] = {}
    for name, text in items:
        assert seen.setdefault(text, name) == name, summary


def test_a_description_taken_up_by_a_bare_good_is_no_decision():
    """With the pair features the model reads "The kit fund is £310." — "Good." as settled;
    a sentence saying what something is stays no decision (``_Reader.decidable``, as
    ``conclude()`` reads ``_DESCRIBES``), and its amount stays a fact."""
    turns = ["Dana: The kit fund is £310.", "Lee: Good.", "Dana: Right.", "Lee: Bye."]
    summary, extraction = OfflineIntelligence("shipped").summarize("s", turn_messages(turns))
    assert summary.decisions == ()
    assert ("kit fund", "amount", "is £310") in [(f.subject, f.predicate, f.object) for f in extraction.facts]
