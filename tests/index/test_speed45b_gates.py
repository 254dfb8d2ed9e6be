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
