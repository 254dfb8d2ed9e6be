"""Session 21's speed shortcuts give what the plain computation gives.

Each shortcut put a cheap test in front of a pattern or cached a pure function; these
tests hold each to the computation it replaced, on the labelled conversations' sentences
and on hypothesis-generated text built from the fragments the patterns look for.
(``tools/summary_dump.py --check`` compares whole summaries of thousands of sessions.)
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set
from memlane.index import cues, offline
from memlane.index.software import SOFTWARE
from memlane.index.software_words import SERVICES, SOFTWARE_WORDS, TOOLS

SENTENCES = [s for name in ("dev", "heldout", "heldout2", "heldout3", "heldout4")
             for conv in load_set(name) for _, text in conv.turns for s in offline._sentences(text)]

FRAGMENTS = [
    "iPhone 15", "iOS", "iPadOS 17", "eBay", "bioRxiv", "onClick", "useState", "macOS", "tvOS", "iTalki 3–4",
    "BILL-142", "Q-55810", "INV-2026-1187-R", "#1234", "#0E7C7B", "#team-ops", "app/models/", "src/x.py",
    "Dockerfile", "db/migrations/0042_idx.py", "feat/login", "https://example.com/a", "s3://bucket/key",
    "kettleandcrow.com", "hello@kettleandcrow.com", "poetry.lock", "card ending 4421", "Form I-129",
    "KL1841", "QX7LMP", "Order 40917", "PR #2284", "Thanks!", "OK, then.", "Agreed.", "I think we ship",
    "pandas", "httpx", "pytest-xdist", "structlog", "the Team plan", "Fujifilm X100VI", "Ryzen 7 7840U",
    "8830 4412 97", "7730-1182", "12-4567", "3-4", "2026", '"The Nightingale"', "‘Past Lives’", "“Dune”",
    "'Hamlet'", "I'm", "(\"Klara and the Sun\")", ": 'Intermezzo'.",
    " ", " ", ", ", ". ", "? ", "\n", "-", "/", ".", "@", "#", "a", "Z", "9", "é", "İ",
]
TEXT = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=6), max_size=14).map("".join)


def test_lower_lead_guard_passes_every_sentence_with_a_lower_lead_name() -> None:
    for s in [*SENTENCES, *FRAGMENTS]:
        if offline._LOWER_LEAD.findall(s):
            assert offline._LOWER_UPPER.search(s), s


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_lower_lead_guard_on_generated_text(text: str) -> None:
    assert not offline._LOWER_LEAD.findall(text) or offline._LOWER_UPPER.search(text)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_name_reference_character_test_changes_no_verdict(text: str) -> None:
    plain = any(p.search(text) for p in offline._NAME_REFS)
    assert plain == any((c is None or c in text) and p.search(text) for p, c in offline._NAME_REF_TOKENS)


def test_name_reference_character_test_on_the_labelled_phrases() -> None:
    phrases = {m.group(1) for s in SENTENCES for m in offline._CAPS.finditer(s)} | set(FRAGMENTS)
    assert len(phrases) > 500
    for p in phrases:
        assert any(r.search(p) for r in offline._NAME_REFS) == any(
            (c is None or c in p) and r.search(p) for r, c in offline._NAME_REF_TOKENS), p


def test_one_package_set_holds_both_lists() -> None:
    assert offline._SOFTWARE_ANY == SOFTWARE | SOFTWARE_WORDS | TOOLS | SERVICES  # the tools (40), services (41)
    for s in SENTENCES:
        runs = offline._LOWER_RUNS.findall(s)
        assert offline._SOFTWARE_ANY.isdisjoint(runs) == (
            SOFTWARE.isdisjoint(runs) and SOFTWARE_WORDS.isdisjoint(runs) and TOOLS.isdisjoint(runs)
            and SERVICES.isdisjoint(runs))


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_cached_clean_and_courtesy_are_the_plain_functions(text: str) -> None:
    for s in (text, text, "Thanks!", "OK, " + text):  # a second call is answered from the cache
        assert cues.clean(s) == cues.clean.__wrapped__(s)
        assert cues.is_courtesy(s) == cues.is_courtesy.__wrapped__(s)


def test_cached_clean_and_courtesy_on_the_labelled_sentences() -> None:
    for s in SENTENCES:
        assert cues.clean(s) == cues.clean.__wrapped__(s)
        assert cues.is_courtesy(s) is cues.is_courtesy.__wrapped__(s)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_number_and_quote_guards_on_generated_text(text: str) -> None:
    assert not list(offline._NUMBER.finditer(text)) or offline._NUMBER_GUARD.search(text)
    assert not offline._QUOTED.findall(text) or offline._QUOTE_CAPITAL.search(text)


def test_number_and_quote_guards_on_the_labelled_turns() -> None:
    texts = [text for name in ("dev", "heldout", "heldout2", "heldout3", "heldout4")
             for conv in load_set(name) for _, text in conv.turns]
    assert sum(bool(offline._QUOTED.findall(t)) for t in texts) >= 2
    for t in texts:
        assert not list(offline._NUMBER.finditer(t)) or offline._NUMBER_GUARD.search(t), t
        assert not offline._QUOTED.findall(t) or offline._QUOTE_CAPITAL.search(t), t


@settings(max_examples=400, deadline=None)
@given(TEXT | st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=80))
def test_lower_case_word_pattern_finds_the_words_of_the_word_pattern(text: str) -> None:
    low = text.lower()
    if low.isascii():
        assert offline._WORD_LOW.findall(low) == offline._WORD.findall(low)
    assert offline._words(text) == [w.lower() for w in offline._WORD.findall(text)]
