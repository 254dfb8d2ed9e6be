"""perf48's cheaper gates in ``_references`` and ``_entities`` (issue #17, the speed) pass every
text the patterns they spare would match, so no output changes (``tools/summary_dump.py --check``
holds whole summaries to the same output)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import offline

LABEL_PIECES = st.sampled_from(["**", "*", "#", "##", ":", ": ", ":\n", ":\t", ":\xa0", "1.", "2)", "-", "•", " ", "  ", "\n",
                                "\x1f", "Step", "Note", "Oslo Fjord", "x", ".", "!", "?", "é", "10:30", "http://a"])


@settings(max_examples=300, deadline=None)
@given(st.lists(LABEL_PIECES, max_size=10).map("".join))
def test_the_label_gate_passes_every_sentence_its_pattern_changes(sentence: str) -> None:
    """:data:`offline._LABEL` finds a label only where :func:`offline._may_label` passes."""
    if offline._LABEL.search(sentence) is not None:
        assert offline._may_label(sentence)


DATE_PIECES = st.sampled_from(["3", "14", "2025", "-", "03", "Jan", "Feb", "Sept", "May", "may", "of", "th", "st", " ", ", ",
                               "\xa0", "٣", "x"])


@settings(max_examples=300, deadline=None)
@given(st.lists(DATE_PIECES, max_size=10).map("".join))
def test_every_date_holds_a_short_month_or_a_dash(sentence: str) -> None:
    if offline._DATE.search(sentence) is not None:
        assert any(w in sentence for w in offline._DATE_WORDS)


BEFORE_PIECES = st.sampled_from(["work at", "works for", "joined", "in", "to", "moved to", "the", "my", "cat", "dog", "sister",
                                 "mum", " ", "  ", "\n", "x", "within", "catalogue", ","])


@settings(max_examples=300, deadline=None)
@given(st.lists(BEFORE_PIECES, max_size=8).map("".join))
def test_the_union_before_a_name_finds_what_any_of_the_four_finds(before: str) -> None:
    four = (offline._ORG_BEFORE, offline._PLACE_BEFORE, offline._PET_BEFORE, offline._KIN_BEFORE)
    assert (offline._KIND_BEFORE.search(before) is not None) == any(p.search(before) for p in four)


REF_PIECES = st.sampled_from(["by", "By", " ", "  ", "\n", "Emily", "St.", "Mandel", "Station", "Eleven", "the", "Piranesi",
                              "x", ".", "py", "com", "io", "notes", "/", "Table", "table", "S4", "Rule", "rule", "4.2", "9",
                              "available", "schedule", "Schedule", "3"])


@settings(max_examples=300, deadline=None)
@given(st.lists(REF_PIECES, max_size=10).map("".join))
def test_the_reference_gates_pass_every_text_their_patterns_match(text: str) -> None:
    if offline._REFS[offline._BY].search(text) is not None:
        assert offline._BY_NAME.search(text) is not None
    if offline._EXT_GUARD.search(text) is not None or offline._TLD_GUARD.search(text) is not None:
        assert offline._DOT_LOWER.search(text) is not None
    if offline._PART.search(text) is not None:
        assert any(w in text for w in offline._PART_WORDS)


def test_the_gated_kinds_are_still_found() -> None:
    assert offline._BY == len(offline._REFS) - 1
    refs = set(offline._references("We picked Station Eleven by Emily Mandel, see notes.md, and Rule 9 on example.com"))
    assert {"Station Eleven", "notes.md", "Rule 9", "example.com"} <= refs, refs
    names = {e.name: e.type for e in offline.OfflineIntelligence._entities("My sister moved to Tromsø on 14 Feb, Note: Kestrel.")}
    assert names.get("Tromsø") == "place" and "14 Feb" in names, names


SHAPE_PIECES = st.sampled_from(["1", "2", "12", "255", "1999", "v", ".", "..", "-", "--", "pg", "main", "a", "b", "E", "XK",
                                "INT", "TR", " ", "\n", "/", "@", "_", "é", "٣", "x9", "utf", "ws", "mid", ",", ":"])


@settings(max_examples=300, deadline=None)
@given(st.lists(SHAPE_PIECES, max_size=12).map("".join))
def test_the_shape_gates_pass_every_text_their_patterns_match(text: str) -> None:
    """Session 48 (perf48b): in plain ASCII text each of session 12's digit kinds holds its shape
    (:data:`offline._SHAPE`); other text is searched as before."""
    if not text.isascii():
        return
    shape = text.encode("ascii").translate(offline._SHAPE)
    if offline._SEMVER.search(text) is not None or offline._IPV4.search(text) is not None:
        assert any(s in shape for s in offline._DOTTED_SHAPES)
    if offline._SLUG.search(text) is not None:
        assert any(s in shape for s in offline._SLUG_SHAPES)
    if offline._NUMBERED_NAME.search(text) is not None:
        assert b"aa-D" in shape
    if offline._ERROR_CODE.search(text) is not None:
        assert b"ADDDD" in shape
    if offline._DIGIT_KEY.search(text) is not None:
        assert b"DD-AA" in shape


def test_the_shape_gated_kinds_are_still_found() -> None:
    text = "After the 2.14.1 bump, pg-main-02 at 10.0.3.7 threw E0597 again; worker-7 holds 1099-INT."
    refs = set(offline._references(text))
    assert {"2.14.1", "10.0.3.7", "pg-main-02", "E0597", "worker-7", "1099-INT"} <= refs, refs
    assert set(offline._references("Prices went from 3.5 to 4.25 - about 20 percent.")).isdisjoint({"3.5", "4.25"})


PHRASE_PIECES = st.sampled_from(["Order", "Form", "PR", "Card", "SO", "-", "2023", "7", "I", "KL", "X", " ", "#", "/", ".", "@",
                                 "src", "py", "com", "Acme", "ending", "in", "0042", "٣", "é", "No", "number"])


@settings(max_examples=300, deadline=None)
@given(st.lists(PHRASE_PIECES, max_size=8).map("".join))
def test_every_reference_a_phrase_can_be_holds_a_digit_or_its_mark(name: str) -> None:
    """Session 48 (perf48b): a name ``_REF_CHAR`` finds nothing in is read as a name, not searched
    with the reference patterns a capitalised phrase can match."""
    if any(p.search(name) for p in offline._NAME_REFS):
        assert offline._REF_CHAR.search(name) is not None


def test_a_phrase_naming_its_key_is_still_a_reference() -> None:
    assert offline._name_of("Invoice 4471-2290")[1] == "reference"
    assert offline._name_of("Quillfeather Lane")[1] == "name"
