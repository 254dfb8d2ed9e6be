"""Session 32's speed shortcuts give what the plain computation gives.

``cues._may_be_unsure`` stands before ``cues._UNSURE_ANSWER``: it must pass every text the
pattern matches, on the labelled conversations' text, on text hypothesis generates from the
pattern itself and on text built from the fragments the pattern looks for.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import FRESH, SETS, TRAIN, load_set
from memlane.index import cues

TEXTS = [text for name in SETS + TRAIN + FRESH for conv in load_set(name) for _, text in conv.turns]

UNSURE_FRAGMENTS = [
    "let me", "let's", "lets", "think", "about", "it", "that", "this", "to be", "sure", "please", "check",
    "with", "them", "the", "your", "him", "her", "i'd", "id", "you'd", "youd", "need", "have", "to", "see",
    "know", "ask", "can't", "cant", "can", "say", "saying", "that's", "thats", "that is", "one", "a question",
    "question", "for", "between", "you", "want", "first", "before", "deciding", "we decide", "i say",
    " ", " ", "  ", ", ", ". ", "\n", "t", "o", "n", "a", "é",
]
UNSURE_TEXT = st.lists(st.sampled_from(UNSURE_FRAGMENTS) | st.text(max_size=4), max_size=16).map("".join)


def test_may_be_unsure_passes_every_labelled_text_the_pattern_matches() -> None:
    matched = 0
    for text in TEXTS:
        low = text.lower()
        if cues._UNSURE_ANSWER.search(low):
            matched += 1
            assert cues._may_be_unsure(low), text
    assert matched >= 10  # the sets hold answers of the kind


@settings(max_examples=500, deadline=None)
@given(st.from_regex(cues._UNSURE_ANSWER))
def test_may_be_unsure_passes_every_text_the_pattern_matches(text: str) -> None:
    low = text.lower()
    if cues._UNSURE_ANSWER.search(low):
        assert cues._may_be_unsure(low)


@settings(max_examples=1000, deadline=None)
@given(UNSURE_TEXT)
def test_may_be_unsure_is_implied_by_the_pattern_on_generated_text(text: str) -> None:
    low = text.lower()
    assert cues._may_be_unsure(low) or cues._UNSURE_ANSWER.search(low) is None
