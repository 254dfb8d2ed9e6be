"""A user keeps an agent's memory true over time: states a fact, corrects it, restates it,
erases a conversation. Whatever is erased, the current value of a single-valued fact is the
one the kept conversations stated last, alone, and every superseded fact links to a fact
that exists (session 21: erasing a middle session made the first value current beside the
last one; erasing the session that first said a value lost a later session's restatement).
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)


def _session(city: str) -> list[tuple[str, str]]:
    return [("user", f"I live in {city} now."), ("assistant", "Noted.")]


def _state(mem) -> tuple[list[str], dict[int, object]]:
    facts = mem.facts("u", include_superseded=True, now=NOW)
    by_id = {f.id: f for f in facts}
    for f in facts:
        if f.status == "superseded" and f.superseded_by is not None:
            assert f.superseded_by in by_id, f"fact {f.id} links to a fact that is gone"
    return [f.object for f in facts if f.status == "current"], by_id


def test_erasing_a_middle_session_leaves_one_current_value(tmp_path: Path) -> None:
    mem = memory(tmp_path / "m.db")
    try:
        add_sessions(mem, [(30, _session("Lisbon")), (20, _session("Berlin")),
                           (10, _session("Madrid"))], now=NOW, scope="u")
        assert _state(mem)[0] == ["Madrid"]
        berlin = sorted(s.id for s in mem.sessions("u"))[1]
        mem.forget_session(berlin)
        current, facts = _state(mem)
        assert current == ["Madrid"]  # was ["Lisbon", "Madrid"]
        lisbon = next(f for f in facts.values() if f.object == "Lisbon")
        assert lisbon.status == "superseded" and facts[lisbon.superseded_by].object == "Madrid"
        history = mem.fact_history("user", "lives_in", "u", now=NOW)
        assert [h["object"] for h in history if h["status"] == "current"] == ["Madrid"]
        # the history says when Lisbon was replaced, and by what
        events = next(h for h in history if h["object"] == "Lisbon")["events"]
        assert [(e["kind"], e["other_id"]) for e in events][-1] == ("superseded", lisbon.superseded_by)
    finally:
        mem.close()


def test_erasing_the_first_statement_keeps_a_kept_sessions_restatement(tmp_path: Path) -> None:
    mem = memory(tmp_path / "r.db")
    try:
        add_sessions(mem, [(30, _session("Lisbon")), (20, _session("Berlin")),
                           (10, _session("Berlin"))], now=NOW, scope="u")
        first_berlin = sorted(s.id for s in mem.sessions("u"))[1]
        mem.forget_session(first_berlin)
        mem.index(now=NOW)  # the kept session that said Berlin again is read again
        current, facts = _state(mem)
        assert current == ["Berlin"]  # was ["Lisbon"]: the later statement was lost
        berlin = next(f for f in facts.values() if f.status == "current")
        assert berlin.session_id != first_berlin and berlin.at.date() == (NOW - timedelta(days=10)).date()
    finally:
        mem.close()


@st.composite
def _history(draw: st.DrawFn) -> tuple[list[str], list[int]]:
    cities = draw(st.lists(st.sampled_from(["Porto", "Faro", "Braga"]), min_size=2, max_size=6))
    erased = draw(st.lists(st.integers(0, len(cities) - 1), unique=True, max_size=len(cities) - 1))
    return cities, erased


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_history())
def test_after_any_erasure_the_last_kept_statement_is_the_one_current_value(case) -> None:
    cities, erased = case
    with tempfile.TemporaryDirectory() as d:
        mem = memory(Path(d) / "p.db")
        try:
            n = len(cities)
            add_sessions(mem, [(10 * (n - i), _session(c)) for i, c in enumerate(cities)],
                         now=NOW, scope="u")
            ids = sorted(s.id for s in mem.sessions("u"))
            for i in erased:
                mem.forget_session(ids[i])
            current, _ = _state(mem)
            assert len(current) <= 1, current  # never two values at once, even before re-reading
            mem.index(now=NOW)
            kept = [c for i, c in enumerate(cities) if i not in erased]
            assert _state(mem)[0] == [kept[-1]], (cities, erased)
        finally:
            mem.close()


def test_a_value_in_another_script_is_a_new_value_not_a_restatement(tmp_path: Path) -> None:
    """"दिन" then "दान": two values (the vowel signs were spaces, so both were "द न" and the
    second only reinforced the first); "İstanbul" then "Istanbul" is one value."""
    mem = memory(tmp_path / "s.db")
    try:
        mem.add_fact("user", "favourite word", "दिन", scope="u", at=NOW - timedelta(days=2))
        out = mem.add_fact("user", "favourite word", "दान", scope="u", at=NOW - timedelta(days=1))
        assert out.action == "superseded"
        assert [f.object for f in mem.facts("u", now=NOW)] == ["दान"]
        mem.add_fact("user", "lives_in", "İstanbul", scope="u", at=NOW - timedelta(days=2))
        assert mem.add_fact("user", "lives_in", "Istanbul", scope="u", at=NOW).action == "reinforced"
    finally:
        mem.close()


def _letters_and_marks(word: str) -> bool:
    import unicodedata

    return all(unicodedata.category(c)[0] in "LM"
               for c in unicodedata.normalize("NFKC", word).casefold())


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(categories=["Lo", "Ll", "Lu", "Mn", "Mc"]), min_size=1, max_size=12)
       .filter(lambda w: w[0].isalpha() and _letters_and_marks(w)))
def test_a_word_normalizes_to_one_word(word: str) -> None:
    """A word of letters and combining marks (as NFKC reads it: "Ŀ" is "L·") stays one word."""
    from memlane.index.normalize import normalize_name, normalize_value

    assert " " not in normalize_name(word) and " " not in normalize_value(word), word


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=6).filter(str.strip), min_size=2, max_size=2, unique=True))
def test_two_predicates_that_normalize_alike_differ_only_in_case_space_or_form(pair: list[str]) -> None:
    """A predicate of symbols alone ("...", "🙂") was the key "" like every other, so one
    superseded or reinforced another; two predicates share a key only when the words they
    are made of do (case, spacing, articles, synonyms)."""
    import unicodedata

    from memlane.index.normalize import normalize_predicate

    def words(text: str) -> list[str]:
        return unicodedata.normalize("NFKC", text).casefold().split()

    a, b = pair
    assert normalize_predicate(a) != "" and normalize_predicate(b) != ""
    if not any(c.isalnum() for c in a + b):
        assert (normalize_predicate(a) == normalize_predicate(b)) == (words(a) == words(b))
