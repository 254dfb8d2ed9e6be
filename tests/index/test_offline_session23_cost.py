"""Session 23's speed shortcuts give what the plain computation gives.

Each shortcut puts a cheap test in front of a pattern; these tests hold each test to the
pattern it guards: it passes every text the pattern matches, on the labelled conversations'
text, on text hypothesis generates from the pattern itself and on text built from the
fragments the pattern looks for. (``tools/summary_dump.py --check`` compares whole summaries
of thousands of sessions.)
"""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import FRESH, SETS, TRAIN, load_set
from memlane.index import ending

TEXTS = [text for name in SETS + TRAIN + FRESH for conv in load_set(name) for _, text in conv.turns]


def _low(text: str) -> str:
    return text.lower().replace("’", "'")


# -- ending._GATE: the words every match holds, found with ``in`` first ---------------------

GATE_FRAGMENTS = [
    *ending._GATE_WORDS, "quite", "lefty", "bereft", "lost", "soldier", "moved", "moved on", "relocated to",
    "i'm off", "we're off", "office", "any", "more", "anymore", "any  more", "no  longer", "gave", "given",
    "up", "off", "out", "away", "from", "in", "again", "grew", "outgrown", "'", "’", "i", "m", "s",
    " ", " ", ", ", ". ", "\n", "a", "z", "é",
]
GATE_TEXT = st.lists(st.sampled_from(GATE_FRAGMENTS) | st.text(max_size=5), max_size=16).map("".join)


def test_gate_words_cover_every_alternative_of_the_gate() -> None:
    # each top-level alternative of the pattern, written out plainly, holds one of the words
    alternatives = ending._GATE.pattern.split("|")
    assert len(alternatives) >= 40
    for alt in alternatives:
        plain = re.sub(r"\\b|\(\?:'m\|am\|is\|are\)|\(\?:", "", alt)
        for text in {plain.replace(" ?", " "), plain.replace(" ?", ""), plain.split("(")[0]}:
            if ending._GATE.search(text):
                assert any(w in text for w in ending._GATE_WORDS), alt


@settings(max_examples=500, deadline=None)
@given(st.from_regex(ending._GATE))
def test_gate_words_pass_every_text_the_gate_matches(text: str) -> None:
    assert ending._gated(text) and any(w in text for w in ending._GATE_WORDS)


@settings(max_examples=500, deadline=None)
@given(GATE_TEXT)
def test_gated_is_the_plain_search_on_generated_text(text: str) -> None:
    assert ending._gated(text) == (ending._GATE.search(text) is not None)
    assert ending._gated(_low(text)) == (ending._GATE.search(_low(text)) is not None)


def test_gated_is_the_plain_search_on_the_labelled_text() -> None:
    hits = 0
    for text in TEXTS:
        low = _low(text)
        assert ending._gated(low) == (ending._GATE.search(low) is not None), text
        hits += ending._gated(low)
    assert hits > 50
