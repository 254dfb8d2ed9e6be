"""``clip``'s plain-ASCII shortcut (session 32, the cost) cuts where the grapheme walk cuts."""

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.clip import MARK, clip


def _walked(text: str, width: int, words: bool) -> str:
    """The cut as ``clip`` made it before session 32: graphemes walked up to the room."""
    if len(text) <= width:
        return text
    room, end = width - len(MARK), 0
    for g in regex.finditer(r"\X", text):
        if g.end() > room:
            break
        end = g.end()
    head = text[:end]
    return (head.rsplit(" ", 1)[0] if words else head) + MARK


@given(parts=st.lists(st.sampled_from(["a", "Z", " ", "\r", "\n", "\r\n", ".", "\t", "\x00",
                                       "\u0301", "\u200d", "é", "👍🏽", "🇵🇹"]), max_size=40),
       width=st.integers(0, 30), words=st.booleans())
@settings(max_examples=400, deadline=None)
def test_the_ascii_shortcut_cuts_where_the_grapheme_walk_does(parts, width, words):
    text = "".join(parts)
    assert clip(text, width, words=words) == _walked(text, width, words)
