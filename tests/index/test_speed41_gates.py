"""Session 41's cheap tests before the offline summarizer's patterns (issue #17, the speed)
pass every text a pattern finds something in, so no output changes.

Each gate is a necessary condition of its pattern's match; hypothesis draws texts from pieces
the patterns look at. ``tools/summary_dump.py --check`` holds whole summaries to the same output.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import cues, offline

WORK_PIECES = st.sampled_from(["article", "Article", "DOCS", "wiki", "RFC-021", "AB-7", ",", ", ", ",  ",
                               ",\n", ",\u00a0", "'", '"', "‘", "“", "’", "”", "Gene lists", "Re-pairing",
                               "NC500 draft 3", " ", ".", "?", "the", "x"])
WORK_TEXTS = st.lists(WORK_PIECES, max_size=14).map("".join)


@settings(max_examples=600, deadline=None)
@given(WORK_TEXTS)
def test_a_named_work_is_never_passed_over(text: str) -> None:
    if offline._NAMED_WORK.search(text) is not None:
        assert offline._NAMED_WORK_GUARD.search(text) is not None


def test_a_named_work_is_still_read_and_a_plain_turn_is_passed_over() -> None:
    said = "I'll write a help article, 'Re-pairing your Stride after 3.2.0', tonight."
    assert "Re-pairing your Stride after 3.2.0" in set(offline._references(said))
    # what the gate is for: apostrophes and commas, but no quote opening after a comma
    plain = "I'm not sure, but it's fine if you'd rather wait."
    assert offline._NAMED_WORK_GUARD.search(plain) is None
    assert offline._NAMED_WORK_GUARD.search("the wiki,\n“Gene lists and Excel”") is not None


TALK_PIECES = st.sampled_from(["I", "i", "we'll", "We will", "I'll", "ill", " ", "  ", "\n", "need", "HAVE",
                               "must", "'ll need", "to", "talk", "TALK", "Talk", "before we decide", "DECIDE",
                               "let me", "ask", "aſk", "talK", "tal\u212a", "my", "our", "x", ".", "é"])
TALK_TEXTS = st.lists(TALK_PIECES, max_size=12).map("".join)


@settings(max_examples=600, deadline=None)
@given(TALK_TEXTS)
def test_talking_first_is_the_pattern(text: str) -> None:
    assert cues._talks_first(text) == (cues._TALK_FIRST.search(text) is not None)


def test_talking_first_is_read_and_a_plain_sentence_is_passed_over() -> None:
    assert cues._talks_first("I need to talk to Gareth properly before we decide anything.")
    assert cues._talks_first("Let me ask my wife which she prefers.")
    assert cues._talks_first("I'll NEED TO TALK it over")
    assert not cues._talks_first("We could meet on Tuesday after lunch.")
    assert not cues._talks_first("I need to think about it.")


CODE_PIECES = st.sampled_from(["4f1c9e2", "3f9a", "c1", "ab", "12", "0x", "#", "-", "/", ".", "Recipe", "Check",
                               "cook", "Time", "on", "Resume", "(", " ", "é", "\u0663", "ﬀ", "A", "g", "9"])
CODE_TEXTS = st.lists(CODE_PIECES, max_size=12).map("".join)


@settings(max_examples=600, deadline=None)
@given(CODE_TEXTS)
def test_a_hash_and_a_member_are_never_passed_over(text: str) -> None:
    if offline._HEX_ID.search(text) is not None:
        assert offline._may_hold_hex(text)
    if offline._MEMBER.search(text) is not None:
        assert offline._MEMBER_GUARD.search(text) is not None


def test_a_hash_and_a_member_are_still_read_and_a_plain_turn_is_passed_over() -> None:
    said = "Revert 4f1c9e2 first, then check Recipe.cookTime is set."
    assert {"4f1c9e2", "Recipe.cookTime"} <= set(offline._references(said))
    plain = "We could meet on Tuesday after lunch. Bring the cafe receipts."
    assert not offline._may_hold_hex(plain)
    assert offline._MEMBER_GUARD.search(plain) is None


PERSON_PIECES = st.sampled_from(["i", "I", "my", "MY", "My", "i'm", "I'M", "im", "mine", "hi", "myth", "_", "_i",
                                 "2", " ", ",", "'", "-", "\n", "ı", "İ", "é", "x", "(", "Ai"])
PERSON_TEXTS = st.lists(PERSON_PIECES, max_size=10).map("".join)


@settings(max_examples=800, deadline=None)
@given(PERSON_TEXTS)
def test_the_first_person_test_is_the_pattern(text: str) -> None:
    assert offline._first_person(text) == (offline._FIRST_PERSON_CUE.search(text) is not None)


def test_the_first_person_is_found_in_a_sentence() -> None:
    assert offline._first_person("Honestly, I think so.")
    assert offline._first_person("(my sister's) flat")
    assert offline._first_person("OK I'M in")
    assert not offline._first_person("Mind the gap; hi there, Mya_i.")
