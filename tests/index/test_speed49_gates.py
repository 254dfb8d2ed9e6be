"""perf49's cheaper tests (issue #17, the speed). A quiet answer: an assistant's turn whose
joined, lower-cased text can cue nothing (``quiet`` in ``_Reader.read``) has no sentence that can,
so its short sentences are no longer tested one by one. ``worth_put_off``'s two words are looked
for in the previous turn's sentences joined once. No output changes
(``tools/summary_dump.py --check`` holds whole summaries to the same output)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import cues

PIECES = st.sampled_from([
    "i'll", "I'll", "ill", "will", "still", "know", "idea", "plan", "don't", "y know", "no ", "no idea",
    "open", "decide", "t know", "not sure", "unclear", "TBD", "remember to", "haven", "nobody ", "question ",
    "will call", "will usually text", "next step", "plan is to", "to be seen", "we'll", "they'll",
    " ", "  ", "\t", "\n", "\x1f", "\xa0", ".", ",", "!", "?", "'", "x", "a", "Σ", "ΟΔΟΣ", "İ", "K", "é", "i", "d",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(PIECES, max_size=8).map("".join), min_size=1, max_size=5))
def test_a_sentence_that_may_cue_makes_its_joined_turn_one_too(sentences: list[str]) -> None:
    """What ``quiet`` rests on: where one sentence passes :func:`cues._may_cue_assistant`, the
    turn's sentences joined by blanks pass it too (lower-cased whole or sentence by sentence)."""
    joined = " ".join(sentences).lower()
    for s in sentences:
        if cues._may_cue_assistant(s.lower()):
            assert cues._may_cue_assistant(joined)


def test_a_quiet_answer_and_a_cueing_one_read_as_before() -> None:
    """A quiet answer's short sentences place nothing; an answer with a commitment in a short
    sentence still gives its action item."""
    quiet = cues.read_cues([
        ("user", "user", ["Which lens should I pack for the coastal walk?"]),
        ("assistant", "assistant", ["Pack the wide one.", "It weighs less than the zoom and covers the cliffs well.",
                                    "Hope the weather holds."]),
    ])
    assert not quiet.action_items and not quiet.next_steps and not quiet.open_questions
    told = cues.read_cues([
        ("user", "user", ["Which lens should I pack for the coastal walk?"]),
        ("assistant", "assistant", ["Pack the wide one.", "I'll email you the tide table tonight."]),
    ])
    assert told.action_items


WORTH_PIECES = st.sampled_from(["worth", "worth ", " able", " able to", "able to ", " to ", "to", " ", "\t", "\n", "x", "."])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(WORTH_PIECES, max_size=6).map("".join), min_size=1, max_size=5))
def test_the_sentences_joined_hold_a_suggestion_word_where_one_of_them_does(sentences: list[str]) -> None:
    """``worth_put_off`` tests its two words in the turn's sentences joined by newlines: the same
    answer as testing each sentence (neither word holds the newline)."""
    said = "\n".join(sentences)
    for needle in ("worth ", " able to "):
        assert (needle in said) == any(needle in s for s in sentences)


def test_a_suggestion_put_off_is_still_left_open() -> None:
    """A suggestion the next speaker puts off stays an open question; one whose words are split
    across two sentences ("… worth" / "it.") is none."""
    put_off = cues.read_cues([
        ("Maya", "user", ["We should sort the shed this month."]),
        ("Tom", "user", ["Maybe.", "It might be worth asking the neighbours about a skip."]),
        ("Maya", "user", ["yeah, not today though."]),
    ])
    assert put_off.open_questions == ["Is it worth asking the neighbours about a skip?"]
    split = cues.read_cues([
        ("Maya", "user", ["We should sort the shed this month."]),
        ("Tom", "user", ["A skip is worth", "it."]),
        ("Maya", "user", ["yeah, not today though."]),
    ])
    assert not split.open_questions
