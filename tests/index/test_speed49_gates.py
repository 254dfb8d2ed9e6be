"""perf49's cheaper tests (issue #17, the speed). A quiet answer: an assistant's turn whose
joined, lower-cased text can cue nothing (``quiet`` in ``_Reader.read``) has no sentence that can,
so its short sentences are no longer tested one by one; no output changes
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

