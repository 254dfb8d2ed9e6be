"""Session 30: values that differ by a symbol.

Session 28 made a fact's value key (``normalize_value``) ``name_key``, which drops every
character that is not a letter, digit or mark: "likes 🍕" then "likes 🍣" (both the key
``""``), "favorite_language C++" then "C#", "freezer -5 °C" then "5 °C", blood type "A+" then
"A" each reinforced the first, and the second was lost. A symbol is now part of the key;
what only decorates a value (case, spaces, NFC/NFD, zero-width and format characters,
variation selectors, quotes, brackets, a final full stop) still is not. Migration
``value_symbols`` writes the stored keys again on both stores.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.index.normalize import VALUE_PUNCTUATION, name_key, normalize_value
from memlane.memory import Memory
from memlane.store.rekey import rekey_values
from memlane.testing import add_sessions
from tests.facts.conftest import backend, kill_inside_migration, migration, rows

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)


def _day(days_ago: float) -> datetime:
    return NOW - timedelta(days=days_ago)


def _old_key(value: str) -> str:
    """``normalize_value`` of session 28: ``name_key`` without a leading article."""
    return re.sub(r"^(the|a|an) ", "", name_key(value))


def _symbol(c: str) -> bool:
    """A character a value's key keeps: a symbol NFKC leaves as it is (a compatibility form,
    "℃" or "＋", is the character NFKC makes of it), or punctuation that is part of a value."""
    return (c in VALUE_PUNCTUATION or (unicodedata.category(c)[0] == "S" and c != "`")) \
        and unicodedata.normalize("NFKC", c) == c


_SYMBOLS = st.one_of(
    st.sampled_from(["+", "#", "%", "&", "@", "$", "€", "£", "¥", "°", "±", "×", "©", "®", "🍕", "🍣", "❤",
                     "👍", "🏽", "<", ">", "=", "^", "|", "~", "√", "∞", "′"]),
    st.characters(categories=["Sm", "Sc", "Sk", "So"]).filter(_symbol),
)
_WORDS = st.lists(st.sampled_from(["c", "A", "B", "AB", "5", "42", "x", "São", "Zürich", "kg", "I", "the",
                                   "jazz", "vegan", "ok", "٣", "Москва", "東京"]), min_size=0, max_size=3)


@st.composite
def _with_symbol(draw: Any) -> tuple[str, str, str]:
    """``(value, the value without one of its symbols, the value with another symbol
    there)``: the symbol at the start, the end or between words, with a space or none."""
    words = draw(_WORDS)
    at = draw(st.integers(0, len(words)))
    s, other = draw(_SYMBOLS), draw(_SYMBOLS)
    if unicodedata.normalize("NFKC", s).casefold() == unicodedata.normalize("NFKC", other).casefold():
        other = "#" if s != "#" else "+"
    apart = draw(st.booleans())

    def made(sym: str) -> str:
        if apart or not words:
            return " ".join([*words[:at], sym, *words[at:]]).strip()
        if at < len(words):  # before a word: "+5", "#1", "$5"
            return " ".join([*words[:at], sym + words[at], *words[at + 1:]])
        return " ".join([*words[:-1], words[-1] + sym])  # after one: "C++", "50%"

    return made(s), made(""), made(other)


@st.composite
def _signed(draw: Any) -> tuple[str, str, str]:
    """A number with a sign ("-5", "−5", "+5") beside the same number unsigned."""
    words = draw(st.lists(st.sampled_from(["freezer", "°C", "at", "km", "x"]), max_size=2))
    number = draw(st.sampled_from(["5", "12", "0.5", "3,5", "40"]))
    sign = draw(st.sampled_from(["-", "\u2212", "+"]))
    other = "+" if sign != "+" else "-"
    return (" ".join([*words, sign + number]), " ".join([*words, number]), " ".join([*words, other + number]))


_DECORATION = ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff", "\u200e", "\ufe0f", "\ufe0e"]


@st.composite
def _respelled(draw: Any, value: str) -> str:
    """``value`` as a person would call the same: another case, NFC/NFD/NFKC/NFKD, spaces
    doubled or around it, zero-width and format characters or a variation selector
    anywhere, quotes around it, a final full stop or "!"."""
    text = draw(st.sampled_from([str.lower, str.upper, lambda t: t]))(value)
    text = unicodedata.normalize(draw(st.sampled_from(["NFC", "NFD", "NFKC", "NFKD"])), text)
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.sampled_from(_DECORATION)) + text[i:]
    if draw(st.booleans()):
        text = text.replace(" ", draw(st.sampled_from(["  ", "\t", " \n "])))
    left, right = draw(st.sampled_from([("", ""), ('"', '"'), ("“", "”"), ("'", "'"), ("«", "»"), ("(", ")")]))
    return draw(st.sampled_from(["", " "])) + left + text + right + draw(st.sampled_from(["", ".", "!", " .", "  "]))


_PAIRS = [("🍕", "🍣"), ("C++", "C#"), ("-5 °C", "5 °C"), ("A+", "A"), ("$5", "5"), ("50%", "50"),
          ("❤️", "👍"), ("C", "C#")]


@settings(max_examples=400, deadline=None)
@given(case=st.one_of(_with_symbol(), _signed()), data=st.data())
@example(case=("🍕", "", "🍣"), data=None)
@example(case=("C++", "C", "C#"), data=None)
@example(case=("-5 °C", "5 °C", "+5 °C"), data=None)
@example(case=("A+", "A", "A-"), data=None)
def test_values_differing_by_a_symbol_have_keys_of_their_own(case: tuple[str, str, str], data: Any) -> None:
    """A value with a symbol (a sign, ``+``, ``#``, ``%``, a currency or unit sign, an emoji,
    any symbol) and the same value without it or with another symbol: three keys, each
    unchanged however the value is respelled; no value has the empty key."""
    value, without, other = case
    keys = {normalize_value(v) for v in (value, without, other)}
    assert len(keys) == 3, (case, [normalize_value(v) for v in case])
    for v in case:
        if v.strip():
            assert normalize_value(v) != "", v
    if data is not None:
        assert normalize_value(data.draw(_respelled(value))) == normalize_value(value), value


_PLAIN = ["São Paulo", "Lisbon", "jazz", "C++", "A+", "-5 °C", "🍕", "❤️", "the Musée d'Orsay", "R&B", "50%",
          "$5", "3.5 kg", "Москва", "東京タワー", "दिन", "ice cream", "👍🏽", "1,000"]


@settings(max_examples=300, deadline=None)
@given(value=st.sampled_from(_PLAIN), data=st.data())
@example(value="Lisbon", data=None)
def test_spellings_a_person_calls_one_value_share_its_key(value: str, data: Any) -> None:
    """Case, spaces, NFC/NFD, zero-width and format characters, a variation selector,
    quotes and a final full stop leave a value's key as it is, symbols or not."""
    key = normalize_value(value)
    assert key
    if data is None:  # a zero-width space inside a word
        assert normalize_value("Lis\u200bbon") == normalize_value("lisbon.") == key
        assert normalize_value("❤") == normalize_value("❤️") != ""
        return
    assert normalize_value(data.draw(_respelled(value))) == key


_counter = iter(range(10**9))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.one_of(_with_symbol(), _signed()).filter(lambda c: c[1].strip() != ""))
@example(case=("🍣", "🍕", "🍕"))
@example(case=("C#", "C++", "C++"))
@example(case=("5 °C", "-5 °C", "-5 °C"))
@example(case=("A", "A+", "A+"))
def test_a_value_differing_by_a_symbol_is_a_value_of_its_own_on_both_stores(pair: Any,
                                                                          case: tuple[str, str, str]) -> None:
    """Two values differing by a symbol, stated one after the other with ``add_fact``: of a
    multi-valued predicate (``likes``) both are current; of a single-valued one the second
    replaces the first. Before, the second reinforced the first and was lost."""
    second, first, _ = case
    scope = f"s{next(_counter)}"
    for mem in pair:
        for pred in ("likes", "favorite_language"):
            out = [mem.add_fact("user", pred, v, scope=scope, at=_day(d)) for v, d in ((first, 20), (second, 10))]
            assert out[1].action != "reinforced", (pred, first, second)
        current = sorted((f.predicate, f.object) for f in mem.facts(scope, "user"))
        assert current == sorted([("likes", first), ("likes", second), ("favorite_language", second)]), case


def _statements(days: float, text: str) -> tuple[float, list[tuple[str, str]]]:
    return days, [("user", text), ("assistant", "Noted.")]


def test_statements_of_values_differing_by_a_symbol_keep_both_on_both_stores(
        db_url: str, open_memory: Callable[[str], Memory]) -> None:
    """The offline pipeline: "My favorite language is C++." then "... is C#.", "I like C++."
    then "I like C#.", a freezer set to -5 °C then to 5 °C: each later statement is a value of
    its own (before, each was a restatement of the first, and lost)."""
    mem = open_memory(db_url)
    try:
        add_sessions(mem, [_statements(30, "My favorite language is C++."),
                           _statements(29, "My favorite language is C#."),
                           _statements(28, "I like C++."), _statements(27, "I like C#."),
                           _statements(26, "My freezer is set to -5 °C."),
                           _statements(25, "My freezer is set to 5 °C.")], now=NOW, scope="u")
        current = sorted((f.predicate, f.object) for f in mem.facts("u", "user", now=NOW))
        assert current == [("favorite_language", "C#"), ("freezer", "set to 5 °C"), ("likes", "C#"),
                           ("likes", "C++")]
        history = mem.fact_history("user", "favorite_language", "u", now=NOW)
        assert [(h["object"], h["status"]) for h in history] == [("C++", "superseded"), ("C#", "current")]
    finally:
        mem.close()


# -- a database of before: the migration ---------------------------------------------------

_OLD = [("likes", "🍕", 40), ("likes", "jazz", 39), ("favorite_language", "C++", 38), ("blood_type", "A+", 37),
        ("freezer", "-5 °C", 36), ("lives_in", "Zürich", 35), ("budget", "$5", 34)]





def _old_database(url: str, open_memory: Callable[[str], Memory]) -> list[tuple[str, str]]:
    """The facts of ``_OLD`` stored in scope ``u`` with session 28's keys (every symbol
    dropped: "🍕" ``""``, "C++" ``c``), migration ``value_symbols`` not applied; returns the
    current facts."""
    mem = open_memory(url)
    s = mem.store
    for pred, obj, days in _OLD:
        mem.add_fact("user", pred, obj, scope="u", at=_day(days))
    with s.atomic():
        for fid, obj in s._run("SELECT id, object FROM facts").fetchall():
            s._run("UPDATE facts SET norm_object = %s WHERE id = %s", (_old_key(obj), fid))
        s._run("DELETE FROM schema_migrations WHERE name = %s", (migration(url, "value_symbols"),))
    current = sorted((f.predicate, f.object) for f in mem.facts("u", "user"))
    mem.close()
    assert sorted(r[0] for r in rows(url, "SELECT norm_object FROM facts")) == sorted(
        _old_key(o) for _, o, _ in _OLD)
    return current


def _snapshot(url: str) -> list[list[str]]:
    return [sorted(map(str, rows(url, f"SELECT * FROM {t}"))) for t in ("facts", "fact_events", "items")]


def _check_migrated(url: str, mem: Memory, current: list[tuple[str, str]]) -> None:
    """Applied once, every key the new one, the same current facts; then a value that
    differs from a stored one by a symbol is a value of its own, a restatement still one."""
    assert [r[0] for r in rows(url, "SELECT name FROM schema_migrations")].count(migration(url, "value_symbols")) == 1
    for obj, norm in rows(url, "SELECT object, norm_object FROM facts"):
        assert norm == normalize_value(obj), obj
    assert sorted((f.predicate, f.object) for f in mem.facts("u", "user")) == current
    before = _snapshot(url)
    with mem.store.atomic():
        rekey_values(mem.store.db)
    assert _snapshot(url) == before  # run again, nothing changes
    said = {(p, o): mem.add_fact("user", p, o, scope="u", at=_day(1)).action for p, o in [
        ("likes", "🍣"), ("favorite_language", "C"), ("blood_type", "A"), ("freezer", "5 °C"), ("budget", "5"),
        ("likes", "JAZZ."), ("lives_in", "Zurich")]}
    assert said == {("likes", "🍣"): "added", ("favorite_language", "C"): "superseded",
                    ("blood_type", "A"): "superseded", ("freezer", "5 °C"): "superseded",
                    ("budget", "5"): "superseded", ("likes", "JAZZ."): "reinforced",
                    ("lives_in", "Zurich"): "reinforced"}


def test_an_old_database_is_rekeyed_once_on_both_stores(db_url: str,
                                                        open_memory: Callable[[str], Memory]) -> None:
    """A database with session 28's keys opens, migrates once (``value_symbols``), reads the
    same current facts, and keys them by their symbols."""
    current = _old_database(db_url, open_memory)
    mem = open_memory(db_url)
    try:
        _check_migrated(db_url, mem, current)
    finally:
        mem.close()


def test_a_migration_killed_midway_leaves_the_database_as_before_on_both_stores(
        db_url: str, open_memory: Callable[[str], Memory]) -> None:
    """A process killed (SIGKILL) after the step re-keyed every fact, before the migration
    committed: the database is as it was (old keys, the migration not applied); the next
    open migrates it once, as above. (The child runs the real step and then waits inside the
    migration's transaction to be killed.)"""
    current = _old_database(db_url, open_memory)
    before = _snapshot(db_url)
    kill_inside_migration(db_url, "value_symbols")
    assert _snapshot(db_url) == before
    assert migration(db_url, "value_symbols") not in [r[0] for r in rows(db_url, "SELECT name FROM schema_migrations")]
    if backend(db_url) == "sqlite":
        assert rows(db_url, "PRAGMA integrity_check") == [("ok",)]
    mem = open_memory(db_url)
    try:
        _check_migrated(db_url, mem, current)
    finally:
        mem.close()


def test_an_ending_of_a_value_of_symbols_ends_that_value_alone_on_both_stores(pair: Any) -> None:
    """"I no longer like 🍕" (an ending naming "🍕") ends the liked 🍕, not the liked 🍣 and
    jazz: its key was ``""``, an ending's "any value", so it ended every like."""
    from memlane.index.facts import end_fact

    scope = f"e{next(_counter)}"
    for mem in pair:
        for obj, days in (("🍕", 30), ("🍣", 29), ("jazz", 28)):
            mem.add_fact("user", "likes", obj, scope=scope, at=_day(days))
        with mem.store.atomic():
            out = end_fact(mem.store, mem.config.facts, scope=scope, subject="user", predicate="likes",
                           obj="🍕", at=_day(10).timestamp(), session_id=None, message_id=None)
        assert len(out.replaced) == 1
        assert sorted(f.object for f in mem.facts(scope, "user")) == ["jazz", "🍣"]
