"""spd57's cheaper forms of patterns (issue #17, the speed): a look-ahead on the first letters of the
words after ``\\b`` (or the first capital before the look-behind) lets ``re`` pass over most
positions at once; each finds the same matches as the form without it, the base's
(``tools/summary_dump.py --check`` holds whole summaries to the same output)."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import cues, offline

PIECES = st.sampled_from([
    "pip", "PIP", "import", "Python", "repo", "venv", "x.py", "a.PY", "requirements.txt", "dependencies",
    "no", "not", "Never", "doesn't", "'cause", "cos", "since", "cheaper", "longer", "last year", "Last  week",
    "£5", "$ 3", "10%", "3 hours", "40k", "2.5 GB", "order", "Order", "invoice", "Booking", "confirmation",
    "number", "no.", "#", "7731-4408", "12-34567", "12345", "HOL-2291-NDA", "v3", "ABC-12", "v12.1",
    "tap", "Tapping", "click", "clicked", "press", "untick", "open", "opening", "on", "'", "“",
    "Clause", "clause", "Article", "12A", "Table", "B4", "Section", "rule", "Rule", "3.2", "Guideline",
    "para", "paragraph", "i'll", "I'll", "will", "let me", "let's", "we need to", "I'd need to", "check with",
    "talk to", "speak to", "ask", "before", "we", "decide", "say yes", "don't", "do not", "want to", "talk again",
    "think about it", "should", "must", "need to", "has to", "can't wait to", "never", "I can't see", "your",
    "I'm not certain", "I don't have", "details", "about", "would decide", "that", "case by case",
    "what decides", "the only", "way to", "tell", "it's", "That is", "up to you",
    " ", "  ", "\n", ",", ".", "-", "_", "/", "x", "é", "ı", "İ", "ſ", "\u212a", "0", "7",
])

REWRITTEN = [
    (offline._SOFTWARE_TALK, "(?=[dinprv])", ""),
    (offline._OLD_NUMBERED, "(?=[OoIiBbCc])", ""),
    (offline._KEY_VERSION, r"[A-Z](?<!\w.)", r"\b[A-Z]"),
    (offline._CONTROL_VERB_BEFORE, "(?=[copstu])", ""),
    (offline._PART, "(?=[AaCcFfGgRrSsTt])", ""),
    (cues._REASON_SAID, "(?=[abcdefhilnoqsw'])", ""),
    (cues._HANDED_ON, "(?=[bdilw])", ""),
    (cues._SHOULD, "(?=[hmns])", ""),
    (cues._CANT_SETTLE, "(?=[ictw])", ""),
]
"""Each pattern, its look-ahead and what the form without it (the base's, or one matching as it
does: ``\\b(?:a|b)`` for ``\\ba|\\bb``) writes in its place."""

PLAIN = [(new, re.compile(new.pattern.replace(ahead, plain, 1), new.flags)) for new, ahead, plain in REWRITTEN]


def _found(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], tuple[str | None, ...]]]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


def test_each_look_ahead_is_in_its_pattern() -> None:
    for (new, ahead, _), (_, plain) in zip(REWRITTEN, PLAIN, strict=True):
        assert ahead in new.pattern and plain.pattern != new.pattern


@settings(max_examples=3000, deadline=None)
@given(st.lists(PIECES, max_size=12).map(" ".join), st.lists(PIECES, max_size=12).map("".join))
def test_the_look_aheads_find_what_the_plain_forms_find(spaced: str, glued: str) -> None:
    """The same spans and groups, whatever the case, the marks around the words and the script
    (the dotless ı, the long ſ and the Kelvin sign, which a case-blind pattern reads as i, s and k)."""
    for new, plain in PLAIN:
        for text in (spaced, glued, spaced.lower(), glued.upper()):
            assert _found(new, text) == _found(plain, text), (new.pattern[:40], text)


def test_the_rewritten_patterns_still_find_their_examples() -> None:
    assert offline._SOFTWARE_TALK.search("the pip install failed") and not offline._SOFTWARE_TALK.search("a pipe burst")
    assert cues._REASON_SAID.search("It only sends email") and cues._REASON_SAID.search("Last year a third left")
    assert offline._OLD_NUMBERED.findall("my order 7731-4408 came") == ["order 7731-4408"]
    assert offline._KEY_VERSION.findall("see HOL-2291-NDA v3 now") == ["HOL-2291-NDA v3"]
    assert not offline._KEY_VERSION.search("xHOL-2291 v3")
    assert offline._CONTROL_VERB_BEFORE.search("after tapping ") and not offline._CONTROL_VERB_BEFORE.search("untapping ")
    assert offline._PART.findall("see Clause 12A, para 3 and Section 4.2") == ["Clause 12A, para 3", "Section 4.2"]
    assert cues._HANDED_ON.search("I'll check with Rosa first") and cues._HANDED_ON.search("before we decide")
    assert cues._SHOULD.search("we need to go") and cues._SHOULD.search("Never again")
    assert cues._CANT_SETTLE.search("that's up to you") and not cues._CANT_SETTLE.search("it's upto you")
