"""A fact's predicate in a script without Latin letters is its own key: the Latin slug made
'город', 'עיר' and '最喜欢的城市' all '', so each such fact of a subject superseded the last
whatever it was about, and the inspector showed it without a predicate (its History link a
400). Found storing a Hebrew fact through the inspector's right-to-left test."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.normalize import normalize_predicate
from memlane.testing import memory
from memlane.testing.http import serving

SCRIPTS = [(0x0430, 0x044F), (0x05D0, 0x05EA), (0x0621, 0x063A), (0x4E00, 0x4E50),
           (0x03B1, 0x03C9), (0x0905, 0x0939)]
WORD = st.sampled_from(SCRIPTS).flatmap(
    lambda r: st.text(st.characters(min_codepoint=r[0], max_codepoint=r[1]), min_size=1,
                      max_size=8))
PREDICATE = st.lists(WORD, min_size=1, max_size=3)


@settings(max_examples=200, deadline=None)
@given(PREDICATE, PREDICATE)
def test_a_predicate_without_latin_letters_keeps_them(a: list[str], b: list[str]) -> None:
    """Cyrillic, Hebrew, Arabic, CJK, Greek or Devanagari words: a key of their own, the
    same words the same key, other words another key."""
    key_a, key_b = normalize_predicate(" ".join(a)), normalize_predicate(" ".join(b))
    folded_a, folded_b = [w.casefold() for w in a], [w.casefold() for w in b]
    assert key_a == "_".join(folded_a)
    assert (key_a == key_b) == (folded_a == folded_b)


def test_latin_predicates_keep_their_stored_keys() -> None:
    assert normalize_predicate("Lives In") == "lives_in"
    assert normalize_predicate("my favourite city") == "favorite_city"
    assert normalize_predicate("ville préférée") == "ville_pr_f_r_e"


def test_facts_of_two_scripts_neither_replaces_the_other(tmp_path: Path) -> None:
    import httpx

    from memlane.serve.http import create_app

    mem = memory(tmp_path / "m.db")
    try:
        mem.add_fact("user", "город", "Москва", scope="s", at="2024-01-01T00:00:00Z")
        mem.add_fact("user", "עיר", "תל אביב", scope="s", at="2024-01-02T00:00:00Z")
        mem.add_fact("user", "最喜欢的城市", "上海", scope="s", at="2024-01-03T00:00:00Z")
        current = {(f.predicate, f.object) for f in mem.facts("s")}
        assert current == {("город", "Москва"), ("עיר", "תל אביב"), ("最喜欢的城市", "上海")}
        with serving(create_app(mem, worker=False)) as url:
            page = httpx.get(url + "/ui/facts?scope=s", timeout=30)
            link = re.search(r'href="(/ui/facts/history\?[^"]*predicate=%D7[^"]*)"', page.text)
            assert link, "no History link of the Hebrew fact"
            history = httpx.get(url + link.group(1).replace("&amp;", "&"), timeout=30)
            assert history.status_code == 200 and "תל אביב" in history.text
    finally:
        mem.close()


# -- session 21: no predicate of any text is empty -------------------------------------------

ANY_TEXT = st.text(min_size=1, max_size=12)
SYMBOLS = st.text(st.characters(categories=("Po", "Pd", "Ps", "Pe", "So", "Sm", "Sc", "Sk", "Mn",
                                            "Cf", "Zs")), min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.one_of(ANY_TEXT, SYMBOLS))
def test_no_predicate_normalizes_to_nothing(text: str) -> None:
    """Punctuation, symbols, emoji, lone marks, zero-width characters: every predicate has a
    key ('❤️', '???', '★★', '—' were '', so each such fact of a subject superseded the last)."""
    if text.strip():
        assert normalize_predicate(text) != ""


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(ANY_TEXT, SYMBOLS, st.sampled_from(
    ["❤️", "???", "★★", "—", "..", "%", "\u200b", "पिता", "ท่าน", "favorite 食べ物", "_"])),
    min_size=1, max_size=6))
def test_no_stored_fact_has_an_empty_predicate(tmp_path_factory, predicates: list[str]) -> None:
    """Every predicate add_fact takes is stored with a key and a name, on a real SQLite file."""
    import sqlite3

    from memlane.errors import ValidationError

    path = tmp_path_factory.mktemp("facts") / "m.db"
    with memory(path) as mem:
        stored = 0
        for i, predicate in enumerate(predicates):
            try:
                mem.add_fact("user", predicate, f"value {i}", scope="s")
            except ValidationError:
                continue  # refused, naming the field: nothing stored
            stored += 1
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT predicate, norm_predicate FROM facts").fetchall()
    assert stored == 0 or rows
    assert all(p and n for p, n in rows), rows


def test_marks_are_part_of_their_letters_and_symbols_are_a_key() -> None:
    """Devanagari vowel signs, Thai tones: marks were separators, so पिता (father) and पीता
    (drinks) were one key, प_त. A letter of another script beside Latin ones keeps its
    letters ('favorite 食べ物' and 'favorite 映画' were both 'favorite')."""
    assert normalize_predicate("पिता") == "पिता" != normalize_predicate("पीता")
    assert normalize_predicate("ท่าน") == "ท่าน"
    assert normalize_predicate("favorite 食べ物") != normalize_predicate("favorite 映画")
    assert normalize_predicate("my город") == "город"
    assert normalize_predicate("❤️") == "❤️" and normalize_predicate("???") == "???"


def test_symbol_predicates_of_one_subject_do_not_replace_each_other(tmp_path: Path) -> None:
    with memory(tmp_path / "m.db") as mem:
        mem.add_fact("user", "❤️", "pizza", scope="s", at="2024-01-01T00:00:00Z")
        mem.add_fact("user", "👎", "olives", scope="s", at="2024-01-02T00:00:00Z")
        mem.add_fact("user", "पिता", "Raj", scope="s", at="2024-01-03T00:00:00Z")
        mem.add_fact("user", "पीता", "chai", scope="s", at="2024-01-04T00:00:00Z")
        current = {(f.predicate, f.object) for f in mem.facts("s")}
    assert current == {("❤️", "pizza"), ("👎", "olives"), ("पिता", "Raj"), ("पीता", "chai")}
