"""perf45's cheaper forms of the offline summarizer's rules (issue #17, the speed) pass every
text the forms they spare would act on, so no output changes (``tools/summary_dump.py --check``
holds whole summaries to the same output)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import cues

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
