"""perf45's cheaper forms of the offline summarizer's rules (issue #17, the speed) pass every
text the forms they spare would act on, so no output changes (``tools/summary_dump.py --check``
holds whole summaries to the same output)."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import cues, offline
from memlane.testing import offline_summary

NAMES = ["Ravi", "Zoë", "Łukasz", "Mum", "ravi", "RAVI", "I", "A"]
BLANKS = [" ", "  ", "\t", "\n", "\xa0", "\u2003"]
WORDS = ["'s", "’s", "is", "will", "doing", "make", "the flights", "and", "this", "his", ",", ";", ":", "."]
PIECES = st.sampled_from(NAMES + BLANKS + WORDS)
TEXTS = st.lists(PIECES, max_size=16).map("".join)


@settings(max_examples=3000, deadline=None)
@given(TEXTS)
def test_the_someone_doing_gate_passes_every_sentence_its_pattern_finds(s: str) -> None:
    """The gate (substring tests, then the name and its auxiliary) may pass a sentence the
    pattern does not find, never the other way round, whatever the blanks and the script."""
    if cues._SOMEONE_DOING.search(s) is not None:
        assert cues._may_say_someone_doing(s)


def test_the_someone_doing_gate_spares_a_sentence_with_no_name_before_its_auxiliary() -> None:
    for said in ("Ravi is doing the flights.", "So, Zoë's doing the credit notes.", "Food: Mum will\tmake the mithai."):
        assert cues._SOMEONE_DOING.search(said) is not None and cues._may_say_someone_doing(said)
    for spared in ("The plan is fine.", "the flights will be booked", "It depends on what ravi is doing."):
        assert cues._SOMEONE_DOING.search(spared) is None and not cues._may_say_someone_doing(spared)


HAND_ON_PIECES = st.sampled_from(["I'll", "i will", "will", "let me", "Let's", "lets", "we need to", "I have to", "i'd have to",
                                  "need to", "check", "CHECK", "with", "talk", "Talk", "to", "speak", "ask", "ASK", "before",
                                  "we", "i", "decide", "say yes", "agree", "promise", "sort", "commit", "don't", "do not",
                                  "want", "again", "think", "about", "that", "it", "Mum", "\u212a", " ", "  ", "\t", "\n", "."])


@settings(max_examples=3000, deadline=None)
@given(st.lists(HAND_ON_PIECES, max_size=12).map(" ".join))
def test_every_hand_on_holds_one_of_the_words_its_gate_reads(s: str) -> None:
    """``handed_on`` tests a reply with :func:`cues._finds` and :data:`cues._HANDED_ON_WORDS`:
    it answers as the pattern's own search on every text, the Kelvin sign's too."""
    assert cues._finds(cues._HANDED_ON, cues._HANDED_ON_WORDS, s) == (cues._HANDED_ON.search(s) is not None)


def test_a_reply_handing_the_question_on_still_keeps_it_open() -> None:
    for said in ("I'll ask her quietly. I'll check with Rosa.", "i don't want to decide that before the finds specialist has seen it",
                 "Let's talk again when the quote's in", "We need to speak to the landlord before we commit."):
        assert cues._finds(cues._HANDED_ON, cues._HANDED_ON_WORDS, said)
    assert not cues._finds(cues._HANDED_ON, cues._HANDED_ON_WORDS, "Colour would add about 40 an issue.")


@pytest.mark.parametrize("model", [None, "shipped"])
@pytest.mark.parametrize("between", [0, 1, 2])
def test_what_someone_wants_stays_open_only_when_the_talk_comes_within_three_turns(model: str | None, between: int) -> None:
    """``offered_open`` reads whether each turn talks it over once, then a window of three turns
    from the wish's: the user's talk two turns on keeps the wish open, four turns on it does not."""
    wait = ["assistant: That's possible, but selling could affect his benefits.", "user: The grant form is long."] * between
    summary, _ = offline_summary("user: Dad's moving in with us next month. Can we claim anything for adapting the house?",
                                 "assistant: You may be able to get a disabled facilities grant from the council.",
                                 "user: My sister wants to sell his flat instead, to pay for the works.", *wait,
                                 "assistant: Selling could also affect the grant.",
                                 "user: I need to talk to her properly before we decide anything.", model=model)
    kept = any("sell his flat" in q.lower() for q in summary.open_questions)
    assert kept == (between == 0), summary.open_questions


SHOP_PIECES = st.sampled_from(["at ", "At ", "cat ", "called ", "Called ", "call ", "rang ", "by ", "at Riley", "by Ann",
                               "xat Riley", "\nRiley", ". Ann", "!Ann", "Riley", "Rileys", "Ann", "Anna", "'s", "’s", "'s.", "’s want", " ", "\t",
                               "\n", ". ", "?", ",", " want", " are", " on", " the", " van", " was", "x"])


@settings(max_examples=4000, deadline=None)
@given(st.sampled_from(["Riley", "Ann"]), st.lists(SHOP_PIECES, max_size=14).map("".join))
def test_a_shop_is_found_where_the_patterns_built_for_its_name_find_it(name: str, text: str) -> None:
    """``offline._shop_said`` reads each place the name is said with patterns compiled once; it
    answers as the two searches built for the name over the whole text did."""
    word = re.escape(name)
    searched = bool(re.search(offline._SHOP_BEFORE + word + offline._SHOP_AFTER, text)
                    or re.search(offline._SHOP_OPENS + word + offline._SHOP_THEY, text))
    assert offline._shop_said(name, text) == searched


def test_a_shop_said_with_its_possessive_is_found() -> None:
    assert offline._shop_said("Riley", "The quote by Riley's was £780.")
    assert offline._shop_said("Riley", "Ok.\nRiley's want £1,295 for it")
    assert offline._shop_said("Riley", "We got it from Riley's")
    assert not offline._shop_said("Riley", "Riley's van was parked at Riley's house.")


NAME_PIECES = st.sampled_from(["Brompton", "Electric", "Kia", "Sportage", "-", " ", "_", "2", "e", "E", "Bromptons", "."])


@settings(max_examples=3000, deadline=None)
@given(st.lists(NAME_PIECES, max_size=8).map("".join), st.lists(NAME_PIECES, min_size=1, max_size=3).map("".join))
def test_a_name_is_held_as_whole_words_where_the_pattern_finds_it(full: str, short: str) -> None:
    """``offline._holds_name`` builds its pattern only when the short name is in the long one at
    all: it answers as the pattern does."""
    searched = re.search(rf"(?<![\w-]){re.escape(short)}(?![\w-])", full) is not None
    assert offline._holds_name(full, short) == searched


def test_a_name_held_in_a_longer_one() -> None:
    assert offline._holds_name("Brompton Electric", "Brompton")
    assert not offline._holds_name("Bromptons Electric", "Brompton")
    assert not offline._holds_name("Kia Sportage", "Brompton")


WORK_PIECES = st.sampled_from(["the Ozu film", "film", "novel", "Season", "series", "season", ",", ", ", " called ", " titled",
                               " named ", " ", "4", "12", " of ", "Tokyo Story", "The Vicar", "Slow Horses", "a", "show,"])


@settings(max_examples=3000, deadline=None)
@given(st.lists(WORK_PIECES, max_size=10).map("".join))
def test_every_work_named_after_its_kind_holds_one_of_the_gate_words(s: str) -> None:
    """``_references`` reads :data:`offline._KIND_WORK` only in a turn holding one of
    :data:`offline._KIND_WORK_WORDS`: every text the pattern finds holds one."""
    if offline._KIND_WORK.search(s) is not None:
        assert any(w in s for w in offline._KIND_WORK_WORDS)


def test_a_work_named_after_its_kind_is_still_a_reference() -> None:
    for said, work in (("We watched the Ozu film, Tokyo Story last night", "Tokyo Story"),
                       ("I'm on season 4 of Slow Horses", "Slow Horses"), ("a newsletter called Small Wet Things", "Small Wet Things")):
        assert work in set(offline._references(said)), said
