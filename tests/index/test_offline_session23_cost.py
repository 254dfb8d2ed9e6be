"""Session 23's speed shortcuts give what the plain computation gives.

Each shortcut puts a cheap test in front of a pattern; these tests hold each test to the
pattern it guards: it passes every text the pattern matches, on the labelled conversations'
text, on text hypothesis generates from the pattern itself and on text built from the
fragments the pattern looks for. (``tools/summary_dump.py --check`` compares whole summaries
of thousands of sessions.)
"""

import re
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import FRESH, SETS, TRAIN, load_set
from memlane.index import cues, ending, offline

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


# -- cues._may_cue_assistant: "ill" only where it opens a word ------------------------------

def _old_may_cue_assistant(low: str) -> bool:
    """The test before session 23: any "ill" ("will", "still") passed."""
    return "ill" in low or cues._may_cue_assistant(low)


CUE_FRAGMENTS = [
    "i'll", "ill", "i'd", "will", "still", "skill", "fill", "_ill", "9ill", "éill", "we'll", "they'll", "they will",
    "the driver", "will call", "will usually call", "will usually ring", "will text", "will email", "will visit",
    "will phone", "will contact", "will ring", "remember to", "forget to", "next step", "plan is to", "i will",
    "still open", "not sure", "unclear", "i don't know whether", "we haven't decided", "no idea how", "nobody knows",
    "a question about whether", "to be seen", "tbd", "decide", "i don't really know whether", "i dont\nknow how",
    "we have no\tidea what", "got no  clue who", "no idea", "y know", "know", "plan", " ", " ", "  ", "\n", ", ", ". ",
    "\xa0", "\u2003", "no\x85idea who", "'", "-", "a", "x",
]
CUE_TEXT = st.lists(st.sampled_from(CUE_FRAGMENTS) | st.text(max_size=4), max_size=14).map("".join)


def _composed(may: Callable[[str], bool], low: str) -> bool:
    # what ``_Reader.read`` asks of an assistant's sentence: the cheap test, then the pattern
    return may(low) and cues._ANY_ASSISTANT.search(low) is not None


@settings(max_examples=600, deadline=None)
@given(st.from_regex(cues._ANY_ASSISTANT))
def test_assistant_cue_test_passes_every_text_the_pattern_matches(text: str) -> None:
    low = text.lower()
    assert _composed(cues._may_cue_assistant, low) == _composed(_old_may_cue_assistant, low)


@settings(max_examples=600, deadline=None)
@given(CUE_TEXT)
def test_assistant_cue_test_on_generated_text(text: str) -> None:
    low = text.lower()
    assert _composed(cues._may_cue_assistant, low) == _composed(_old_may_cue_assistant, low)
    assert cues._ill_opens_word(low) == (re.search(r"\bill", low) is not None)


def test_assistant_cue_test_on_the_labelled_sentences() -> None:
    sentences = [s.lower() for text in TEXTS for s in offline._sentences(text)]
    passed = 0
    for low in sentences:
        assert _composed(cues._may_cue_assistant, low) == _composed(_old_may_cue_assistant, low), low
        passed += _composed(cues._may_cue_assistant, low)
    assert passed > 100
    # whole answers, as the quiet-turn test reads them: fewer pass, none that holds a cue
    assert sum(map(cues._may_cue_assistant, [t.lower() for t in TEXTS])) < sum(
        map(_old_may_cue_assistant, [t.lower() for t in TEXTS]))


# -- offline: the long answers' old codes and numbered orders, after a byte translation -----

REF_FRAGMENTS = [
    "KL18410XYZ", "1ABCDEFGH", "9ABCDEFG", "12345678", "123456789", "ABCDEFGHI1", "Q1W2E3R4T5", "٣ABCDEFGH",
    "٣٤٥", "Order 40917", "order #12-34567", "Invoice no. 7731-4408", "booking number 558-2091147",
    "Confirmation\n12345", "in order to", "order 10-12", "order 2025-03-14", "12", "1", "-", "#", " ", " ",
    "\n", ".", "a", "Z", "é", "İ",
]
REF_TEXT = st.lists(st.sampled_from(REF_FRAGMENTS) | st.text(max_size=5), max_size=16).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.from_regex(offline._OLD_CODE_GUARD) | st.from_regex(offline._OLD_NUMBERED) | REF_TEXT)
def test_old_code_and_number_tests_are_the_plain_searches(text: str) -> None:
    assert offline._may_hold_old_code(text) == (offline._OLD_CODE_GUARD.search(text) is not None)
    assert offline._old_numbered(text) == offline._OLD_NUMBERED.findall(text)


def test_old_code_and_number_tests_on_the_labelled_text() -> None:
    codes = numbers = 0
    for text in [*TEXTS, *REF_FRAGMENTS]:
        assert offline._may_hold_old_code(text) == (offline._OLD_CODE_GUARD.search(text) is not None), text
        assert offline._old_numbered(text) == offline._OLD_NUMBERED.findall(text), text
        codes += offline._may_hold_old_code(text)
        numbers += bool(offline._old_numbered(text))
    assert codes > 5 and numbers > 5


# -- cues._OPEN: its words looked for in the lower-cased ASCII sentence first ---------------

OPEN_FRAGMENTS = [
    *cues._OPEN_WORDS, "Open question", "STILL OPEN", "We still need to DECIDE", "TBD", "Unclear", "Not Sure",
    "I don't really know whether", "We honestly dont know if", "Nobody answered", "remains to be seen",
    "we haven't figured out", "I haven't yet decided", "no\nidea how", "got no  clue who", "have no plan for when",
    "Nobody knows how", "the question of whether", "a open question about if", "K", "\u212a", "ſ", "İ", "é",
    " ", " ", "\n", "\t", ", ", ". ", "?", "'", "a", "x",
]
OPEN_TEXT = st.lists(st.sampled_from(OPEN_FRAGMENTS) | st.text(max_size=4), max_size=14).map("".join)


@settings(max_examples=600, deadline=None)
@given(st.from_regex(cues._OPEN) | OPEN_TEXT)
def test_open_test_is_the_plain_search(text: str) -> None:
    assert cues._says_open(text) == (cues._OPEN.search(text) is not None)


def test_open_test_on_the_labelled_sentences() -> None:
    hits = 0
    for s in [s for text in TEXTS for s in offline._sentences(text)]:
        assert cues._says_open(s) == (cues._OPEN.search(s) is not None), s
        hits += cues._says_open(s)
    assert hits > 50


# -- cues._NON_ANSWER and cues._CANT_SAY, by the same test (cues._finds) --------------------

GUARDED = [(cues._NON_ANSWER, cues._NON_ANSWER_WORDS), (cues._CANT_SAY, cues._CANT_SAY_WORDS),
           (cues._OPEN, cues._OPEN_WORDS)]
HEDGE_FRAGMENTS = [
    *cues._NON_ANSWER_WORDS, *cues._CANT_SAY_WORDS, "Not sure", "I DON'T KNOW", "No idea", "Good question",
    "Let's see", "leave it for now", "Let's park it", "To be decided", "Nobody knows", "Hard to say", "depends on",
    "cross that bridge", "sleep on it", "my guess", "don't quote me", "I can't know", "Who knows", "no word yet",
    "haven't heard", "We'll see", "we'll find out", "No, not yet", "I can't guarantee", "I cant promise",
    "I can't tell you\nwhether", "It depends on whether", "whether it pays depends on", "\u212a", "ſ", "é",
    " ", " ", "\n", ", ", ". ", "'", "a", "x",
]
HEDGE_TEXT = st.lists(st.sampled_from(HEDGE_FRAGMENTS) | st.text(max_size=4), max_size=12).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.from_regex(cues._NON_ANSWER) | st.from_regex(cues._CANT_SAY) | HEDGE_TEXT)
def test_guarded_searches_are_the_plain_searches(text: str) -> None:
    for pattern, words in GUARDED:
        assert cues._finds(pattern, words, text) == (pattern.search(text) is not None), pattern.pattern[:40]


def test_guarded_searches_on_the_labelled_sentences() -> None:
    sentences = [s for text in TEXTS for s in offline._sentences(text)]
    for pattern, words in GUARDED:
        hits = 0
        for s in sentences:
            assert cues._finds(pattern, words, s) == (pattern.search(s) is not None), s
            hits += cues._finds(pattern, words, s)
        assert hits > 10, pattern.pattern[:40]


# -- offline._DOTFILE and cues._NAME_ASK: what every match holds, looked for first ----------

DOT_FRAGMENTS = [
    ".npmrc", ".pgpass", ".gitattributes", ".envrc", ".raw", ".csv", ".Npmrc", ". the", "a.b", "Sure.", " ", "\t",
    "\x1c", "\x0b", '"', "'", "`", "(", ")", ",", "\n", "file", " format", "é", "a", "Z", "_", "-", "9",
]
DOT_TEXT = st.lists(st.sampled_from(DOT_FRAGMENTS) | st.text(max_size=4), max_size=12).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.from_regex(offline._DOTFILE) | DOT_TEXT)
def test_dotfile_test_passes_every_text_the_pattern_matches(text: str) -> None:
    assert not offline._DOTFILE.findall(text) or offline._may_hold_dotfile(text)


def _may_ask_by_name(s: str) -> bool:
    # the test in front of _NAME_ASK in _Reader.read
    return "," in s or " will" in s or s[:1] == "@"


NAME_FRAGMENTS = ["Priya will", "Tom,", "And Tom,", "so Maya,", "@sam", "will", "Will", "willow", ",", " ", "a", "B"]


@settings(max_examples=500, deadline=None)
@given(st.from_regex(cues._NAME_ASK) | st.lists(st.sampled_from(NAME_FRAGMENTS) | st.text(max_size=3),
                                                  max_size=8).map("".join))
def test_name_ask_test_passes_every_text_the_pattern_matches(text: str) -> None:
    assert cues._NAME_ASK.search(text) is None or _may_ask_by_name(text)


def test_dotfile_and_name_ask_tests_on_the_labelled_text() -> None:
    for text in [*TEXTS, *DOT_FRAGMENTS]:
        assert not offline._DOTFILE.findall(text) or offline._may_hold_dotfile(text), text
        for s in offline._sentences(text):
            assert cues._NAME_ASK.search(s) is None or _may_ask_by_name(s), s
