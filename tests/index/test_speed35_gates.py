"""Session 35's cheap tests before the offline summarizer's patterns (issue #17, the speed)
pass every text a pattern finds something in, so no output changes.

Each gate is a necessary condition of its pattern's match (or, for ``_has_digit``, the same
answer); hypothesis draws texts from an alphabet of what the patterns look at (digits, the
capitals, dashes, blanks, and non-ASCII digits and letters, where the gates fall back on the
patterns). ``tools/summary_dump.py --check`` holds whole summaries to the same output.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set
from memlane.index import offline

ALPHABET = st.sampled_from(list("0123456789ABCQXZabcxz -_.#/:,\n\t") + ["\u0663", "\uff11", "é", "İ", "\u00a0"])
TEXTS = st.text(ALPHABET, max_size=40)
LABELLED = [text for name in ("dev", "heldout", "heldout2") for conv in load_set(name)
            for _, text in conv.turns]


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_has_digit_is_the_pattern(text: str) -> None:
    assert offline._has_digit(text) == (offline._DIGIT.search(text) is not None)


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_a_number_is_never_passed_over(text: str) -> None:
    if offline._NUMBER_GUARD.search(text) is not None:
        assert offline._may_number(text)


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_a_code_is_never_passed_over(text: str) -> None:
    codes = [w for w in offline._WORD_CAPS.findall(text) if offline._REFS[offline._CODES].fullmatch(w)]
    if offline._WORD_CAPS.search(text) is not None or codes:
        assert offline._may_hold_code(text)


def test_the_gates_pass_what_the_labelled_turns_hold() -> None:
    passed = {"number": 0, "code": 0}
    for text in LABELLED:
        assert offline._has_digit(text) == (offline._DIGIT.search(text) is not None)
        if offline._NUMBER_GUARD.search(text):
            assert offline._may_number(text)
            passed["number"] += 1
        if offline._WORD_CAPS.search(text):
            assert offline._may_hold_code(text)
            passed["code"] += 1
    assert passed["number"] > 20 and passed["code"] > 5  # the sets hold both kinds


def test_the_gates_refuse_a_plain_turn() -> None:
    # what they are for: a turn without the characters is passed over
    plain = "We could meet on Tuesday after lunch, if that works for you."
    assert not offline._has_digit(plain)
    assert not offline._may_number(plain)
    assert not offline._may_hold_code(plain)
    assert offline._may_number("call 0161-555") and offline._may_hold_code("code KL1841 here")


PIECES = st.sampled_from(["httpx", "pytest-xdist", "pandas", "celery", "arrow", "3d", "-", "--", "x9",
                          "Django", "iPhone", "eBay", "é", "ß", "İ", "word", "the", ".", ",", "/", "(",
                          "@", "_", "0", "\u00a0", "\n", "K", "ok-"])
SENTENCES = st.lists(st.tuples(PIECES, st.sampled_from(["", " ", "  ", "-", ".", "/", "3"])),
                     max_size=12).map(lambda parts: "".join(a + b for a, b in parts))


@settings(max_examples=500, deadline=None)
@given(SENTENCES)
def test_the_software_gate_is_the_runs_lookup(sentence: str) -> None:
    runs = offline._LOWER_RUNS.findall(sentence)
    assert offline._may_name_software(sentence) == (not offline._SOFTWARE_ANY.isdisjoint(runs))


@settings(max_examples=500, deadline=None)
@given(SENTENCES)
def test_the_case_gate_is_the_pattern(sentence: str) -> None:
    assert offline._lower_upper(sentence) == (offline._LOWER_UPPER.search(sentence) is not None)


def test_the_entity_gates_on_the_labelled_sentences() -> None:
    named = 0
    for text in LABELLED:
        for sentence in offline._sentences(text):
            runs = offline._LOWER_RUNS.findall(sentence)
            assert offline._may_name_software(sentence) == (not offline._SOFTWARE_ANY.isdisjoint(runs))
            assert offline._lower_upper(sentence) == (offline._LOWER_UPPER.search(sentence) is not None)
            named += offline._may_name_software(sentence)
    assert named > 5


DAYS = st.lists(st.sampled_from(["Monday", "Tuesdays", "day", "Sunday", "January", "February", "March",
                                 "May", "June", "July", "August", "September", "October", "November",
                                 "December", "tomorrow", "tonight", "Tomorrow", "monday", "Octo", "ber",
                                 "Dec", "the", " ", ",", "x", "3", "Saturday's"]), max_size=8).map("".join)


@settings(max_examples=400, deadline=None)
@given(DAYS)
def test_a_named_day_is_never_passed_over(text: str) -> None:
    if offline._DAY_NAMED.search(text) is not None:
        assert any(w in text for w in offline._DAY_WORDS)


def test_every_day_and_month_passes_the_day_gate() -> None:
    names = ("Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April "
             "May June July August September October November December tomorrow tonight").split()
    for name in names:
        assert offline._DAY_NAMED.search(f"on {name}.") is not None
        assert any(w in name for w in offline._DAY_WORDS), name
