"""Session 31: names that differ by a symbol.

Session 30 gave a fact's value its symbols (``normalize_value``); a fact's subject, an
entity and a relation's ends kept session 27's ``name_key``, which drops every character
that is not a letter, digit or mark: the entities "C++", "C#" and "C" were one graph node,
"F#" and "F" one, the subject "C# team" took over "C++ team"'s facts. ``name_key`` is now
the value's key without the article rule (one function): a symbol is part of a name; what
only decorates it (case, spaces, NFC/NFD, zero-width and format characters, brackets,
quotes, a final full stop) is not, and neither is a space between a number and its unit
or currency sign ("5°C" and "5 °C", "$ 5" and "$5"), for names and values alike. Migration
``name_symbols`` writes the stored keys again on both stores.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.errors import NotFoundError
from memlane.index.normalize import _fold_accents, name_key, normalize_name, normalize_value, subject_key
from memlane.memory import Memory
from memlane.store.rekey import rekey_symbols
from memlane.testing import memory
from memlane.testing.llm_server import ChatServer
from tests.facts.conftest import backend, kill_inside_migration, migration, rows
from tests.facts.test_value_symbols import _respelled, _signed, _with_symbol

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)


def _day(days_ago: float) -> datetime:
    return NOW - timedelta(days=days_ago)


def _old_key(name: str) -> str:
    """``name_key`` before session 31: ``normalize_name`` (every symbol a space) with the
    accents of Latin letters folded."""
    return _fold_accents(normalize_name(name))


def _old_subject_key(subject: str) -> str:
    return "user" if normalize_name(subject) in ("user", "the user", "i", "me") else _old_key(subject)


# -- the key -------------------------------------------------------------------------------

@st.composite
def _decorated(draw: Any, name: str) -> str:
    """``name`` as a person writes the same name: :func:`_respelled` (case, NFC/NFD, spaces,
    zero-width characters, quotes, a final stop), and a word of it in brackets or quotes
    ("team (EU)" for "team EU") or followed by a comma."""
    words = name.split(" ")
    if len(words) > 1 and words[-1] and draw(st.booleans()):
        left, right = draw(st.sampled_from([("(", ")"), ("[", "]"), ('"', '"'), ("", ",")]))
        words[-1] = left + words[-1] + right
    return draw(_respelled(" ".join(words)))


@settings(max_examples=400, deadline=None)
@given(case=st.one_of(_with_symbol(), _signed()), data=st.data())
@example(case=("C++", "C", "C#"), data=None)
@example(case=("F#", "F", "F+"), data=None)
@example(case=("A+", "A", "A-"), data=None)
@example(case=("C++ team", "C team", "C# team"), data=None)
@example(case=("+I", "I", "#I"), data=None)
def test_names_differing_by_a_symbol_have_keys_of_their_own(case: tuple[str, str, str], data: Any) -> None:
    """A name with a symbol (``+``, ``#``, a sign, a currency or unit sign, an emoji, any
    symbol), the name without it and with another symbol: three keys (as subjects too),
    each kept however the name is written; no name with something visible has the empty
    key."""
    keys = [name_key(n) for n in case]
    assert len(set(keys)) == 3, (case, keys)
    assert len({subject_key(n) for n in case}) == 3, (case, [subject_key(n) for n in case])
    for n in case:
        if n.strip():
            assert name_key(n) != "", n
    if data is not None:
        assert name_key(data.draw(_decorated(case[0]))) == keys[0], case


_NAMES = ["team EU", "José Álvarez", "C++ team", "AT&T", "Jean-Luc", "O'Brien", "Москва", "東京", "दिन",
          "Ana", "R&B club", "F#", "5 °C room", "$5 plan"]


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(_NAMES), data=st.data())
@example(name="team EU", data=None)
def test_spellings_a_person_calls_one_name_share_its_key(name: str, data: Any) -> None:
    """Case, spaces, NFC/NFD, zero-width and format characters, brackets, quotes and a final
    stop leave a name's key as it is; so does a space between a number and its unit or
    currency sign, for names and values alike."""
    key = name_key(name)
    assert key
    if data is None:
        assert name_key("team (EU)") == name_key("Team EU.") == name_key("team\u200b EU") == key
        assert name_key("5°C") == name_key("5 °C") and normalize_value("5°C") == normalize_value("5 °C")
        assert name_key("$ 5") == name_key("$5") and normalize_value("50 %") == normalize_value("50%")
        assert normalize_value("-5 °C") != normalize_value("5°C") != normalize_value("5 C")
        return
    assert name_key(data.draw(_decorated(name))) == key


@settings(max_examples=200, deadline=None)
@given(number=st.sampled_from(["5", "-5", "12.5", "40", "٣"]),
       unit=st.one_of(st.sampled_from(["°C", "°F", "%", "‰", "€", "$", "£", "¥", "′", "°"]),
                      st.characters(categories=["Sc", "So"]).filter(
                          lambda c: unicodedata.normalize("NFKC", c) == c)),
       before=st.sampled_from(["", "freezer ", "at "]))
def test_a_space_between_a_number_and_its_unit_sign_decorates(number: str, unit: str, before: str) -> None:
    """"5°C" and "5 °C" (any number, any unit, currency or other symbol after it) are one
    key; so are "$5" and "$ 5" (a currency sign before it); both differ from the number
    alone."""
    for key in (name_key, normalize_value):
        assert key(f"{before}{number}{unit}") == key(f"{before}{number} {unit}"), (key, number, unit)
        assert key(f"{before}{number} {unit}") != key(f"{before}{number}")
        if unicodedata.category(unit[0]) == "Sc":
            assert key(f"{before}{unit}{number}") == key(f"{before}{unit} {number}")


# -- through Memory ------------------------------------------------------------------------

_counter = iter(range(10**9))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.one_of(_with_symbol(), _signed()).filter(lambda c: c[1].strip() != ""
                                                        and subject_key(c[1]) != "user"))
@example(case=("C++ team", "C team", "C# team"))
@example(case=("F#", "F", "F+"))
def test_subjects_differing_by_a_symbol_are_subjects_of_their_own_on_both_stores(
        pair: Any, case: tuple[str, str, str]) -> None:
    """Facts told about "C++ team", "C team" and "C# team" (any name, without its symbol, with
    another one) are three subjects, each its own current value; before, each later one
    superseded the one before (one subject ``c team``). "team (EU)" and "team EU" stay one."""
    scope = f"n{next(_counter)}"
    for mem in pair:
        for i, who in enumerate(case):
            mem.add_fact(who, "size", str(i + 5), scope=scope, at=_day(30 - i))
        for i, who in enumerate(case):
            assert [(name_key(f.subject), f.object) for f in mem.facts(scope, who)] == [
                (name_key(who), str(i + 5))], (who, case)
        assert mem.add_fact("team (EU)", "size", "3", scope=scope, at=_day(5)).action == "added"
        assert mem.add_fact("Team EU.", "size", "4", scope=scope, at=_day(4)).action == "superseded"


def _llm_memory(url: str, srv: ChatServer) -> Memory:
    mem: Memory = memory(url, indexing={"backend": "llm", "service": "local", "retry_base_seconds": 0},
                         llm_services={"local": {"base_url": srv.base_url, "model": "test-model",
                                                 "timeout_seconds": 5, "max_retries": 0}})
    return mem


def _said(mem: Memory, srv: ChatServer, days: float, text: str, entity: str) -> None:
    """A session the model reads as naming ``entity``, which the user uses."""
    for i, (role, said) in enumerate([("user", text), ("assistant", "Noted."), ("user", "Thanks."),
                                      ("assistant", "Sure.")]):  # a session long enough to summarise
        mem.add_message("u", role, said, _day(days) + timedelta(minutes=i))
    mem.close_session("u")
    srv.script_json({"topic": "languages", "context": text,
                     "entities": [{"name": entity, "type": "language"}],
                     "relations": [{"from": "user", "relation": "uses", "to": entity, "turn": 1}]})
    mem.index(now=NOW)


def test_entities_differing_by_a_symbol_are_nodes_of_their_own_on_both_stores(db_url: str) -> None:
    """The pipeline (the LLM backend, a local test server): sessions naming "C++", "C#", "C",
    "F#" and "F" give five graph nodes, each with its own mention and relation; before,
    "C#" and "C" were mentions of the node "C++" and "F" of "F#". "(C++)" finds "C++"."""
    with ChatServer() as srv:
        mem = _llm_memory(db_url, srv)
        try:
            for days, name in enumerate(["C++", "C#", "C", "F#", "F"]):
                _said(mem, srv, 30 - days, f"I use {name} at work.", name)
            for name in ["C++", "C#", "C", "F#", "F", "(C++)"]:
                g = mem.graph(name, "u")
                own = name.strip("()")
                assert [(n.name, n.mentions) for n in g["entity"]] == [(own, 1)], (name, g["entity"])
                assert g["relations"] == [("u", "user", "uses", name_key(own))], name
            with pytest.raises(NotFoundError):
                mem.graph("C--", "u")
        finally:
            mem.close()


# -- a database of before: the migration ---------------------------------------------------

def _old_database(url: str, open_memory: Callable[[str], Memory]) -> dict[str, Any]:
    """A database as the code before session 31 left it (built on this code, its keys then
    written as that code wrote them): facts of "C++ team" then "C# team" (one subject
    ``c team``: the later value superseded the first) and of "team (EU)"; one node "C++"
    (its key ``c``) that "C#" was a mention of, "F#" (``f``), "AT&T" (``at t``); relations
    ``user uses c``, ``user uses f``, ``user's sister works_at at t`` (a fact's too), and
    ``tom likes at t`` (of no fact), ``user favorite_language c`` (the fact's "C#"); a value "-5 °C" keyed ``-5 °c``. Migration
    ``name_symbols`` not applied. Returns what it reads: the current facts and each graph."""
    mem = open_memory(url)
    s = mem.store
    mem.add_fact("C++ team", "size", "5", scope="u", at=_day(30))
    mem.add_fact("C# team", "size", "7", scope="u", at=_day(20))
    mem.add_fact("team (EU)", "size", "3", scope="u", at=_day(19))
    mem.add_fact("user's sister", "works_at", "AT&T", scope="u", at=_day(18))
    mem.add_fact("user", "freezer", "-5 °C", scope="u", at=_day(17))
    mem.add_fact("user", "favorite_language", "C#", scope="u", at=_day(15))
    with s.atomic():
        # the old key merged "C# team" into "C++ team": the later value superseded the first
        old, new = (r[0] for r in s._run("SELECT id FROM facts WHERE norm_predicate = 'size'"
                                         " AND object IN ('5', '7') ORDER BY object").fetchall())
        s._run("UPDATE facts SET status = 'superseded', superseded_by = %s WHERE id = %s", (new, old))
        s._run("UPDATE items SET status = 'superseded' WHERE id = (SELECT item_id FROM facts WHERE id = %s)",
               (old,))
        for fid, subject, obj in s._run("SELECT id, subject, object FROM facts").fetchall():
            s._run("UPDATE facts SET norm_subject = %s, norm_object = %s WHERE id = %s",
                   (_old_subject_key(subject), normalize_value(obj).replace("°", " °"), fid))
        for i, (name, type_) in enumerate([("C++", "language"), ("C#", "language"), ("F#", "language"),
                                           ("AT&T", "organization")]):
            s.upsert_entity("u", name, _old_key(name), type_, f"I use {name}.", _day(16 - i).timestamp())
        for src, rel, dst in [("user", "uses", "C++"), ("user", "uses", "F#"), ("user's sister", "works_at", "AT&T"),
                              ("Tom", "likes", "AT&T"), ("user", "favorite_language", "C#")]:
            s.insert_relation("u", _old_key(src), rel, _old_key(dst), None, None, _day(10).timestamp())
        s._run("DELETE FROM schema_migrations WHERE name = %s", (migration(url, "name_symbols"),))
    read = {"facts": sorted((f.subject, f.predicate, f.object) for f in mem.facts("u")),
            **{n: _graph(mem, n, _old_key(n)) for n in ("C++", "F#", "AT&T")}}
    mem.close()
    assert sorted(r[0] for r in rows(url, "SELECT norm_name FROM entities")) == ["at t", "c", "f"]
    return read


def _graph(mem: Memory, name: str, key: str | None = None) -> tuple[list[tuple[str, int]],
                                                                   list[tuple[str, str, str, str]]]:
    """What ``graph(name)`` reads: its nodes and relations; with ``key``, what the code of
    before read, by the key of before (``graph`` is ``find_entities`` and ``relations_of``
    of the name's key)."""
    if key is not None:
        return ([(n.name, n.mentions) for n in mem.store.find_entities(key, "u")],
                sorted(mem.store.relations_of(key, "u")))
    g = mem.graph(name, "u")
    return [(n.name, n.mentions) for n in g["entity"]], sorted(g["relations"])


def _snapshot(url: str) -> list[list[str]]:
    return [sorted(map(str, rows(url, f"SELECT * FROM {t}")))
            for t in ("facts", "fact_events", "items", "entities", "relations")]


def _check_migrated(url: str, mem: Memory, read: dict[str, Any]) -> None:
    """Applied once: every key the new one; the same current facts; the nodes "C++", "F#",
    "AT&T" with their mentions and their relations, whose ends are the nodes' new keys (the
    merged node "C++" keeps the mention of "C#": it cannot be split); run again, nothing
    changes; then "C#" and "F" are nodes of their own, "C team" a subject of its own."""
    assert [r[0] for r in rows(url, "SELECT name FROM schema_migrations")].count(migration(url, "name_symbols")) == 1
    for subject, nsub, obj, nobj in rows(url, "SELECT subject, norm_subject, object, norm_object FROM facts"):
        assert (nsub, nobj) == (subject_key(subject), normalize_value(obj)), subject
    for name, norm in rows(url, "SELECT name, norm_name FROM entities"):
        assert norm == name_key(name), name
    assert sorted((f.subject, f.predicate, f.object) for f in mem.facts("u")) == read["facts"]
    assert [(h["object"], h["status"]) for h in mem.fact_history("C++ team", "size", "u")] == [("5", "superseded")]
    new = {"C++": [("u", "user", "uses", "c++")], "F#": [("u", "user", "uses", "f#")],
           "AT&T": [("u", "tom", "likes", "at&t"), ("u", "user s sister", "works_at", "at&t")]}
    for name in ("C++", "F#", "AT&T"):
        assert _graph(mem, name) == (read[name][0], new[name]), name
    # a relation of a fact's: its ends are the fact's ("C#"), not the node that had the key
    assert _graph(mem, "C#") == ([], [("u", "user", "favorite_language", "c#")])
    before = _snapshot(url)
    with mem.store.atomic():
        rekey_symbols(mem.store.db)
    assert _snapshot(url) == before  # run again, nothing changes
    mem.store.upsert_entity("u", "C#", name_key("C#"), "language", "I use C#.", _day(1).timestamp())
    mem.store.upsert_entity("u", "F", name_key("F"), "language", "I use F.", _day(1).timestamp())
    assert _graph(mem, "C#")[0] == [("C#", 1)] and _graph(mem, "F")[0] == [("F", 1)]
    assert _graph(mem, "C++")[0] == read["C++"][0]
    assert mem.add_fact("C team", "size", "9", scope="u", at=_day(1)).action == "added"
    assert mem.add_fact("user", "freezer", "-5°C", scope="u", at=_day(1)).action == "reinforced"


def test_an_old_database_is_rekeyed_once_on_both_stores(db_url: str,
                                                        open_memory: Callable[[str], Memory]) -> None:
    """A database with the keys of before opens, migrates once (``name_symbols``), reads the
    same graph and current facts, and keys names by their symbols from then on."""
    read = _old_database(db_url, open_memory)
    assert read["C++"] == ([("C++", 2)], [("u", "user", "favorite_language", "c"), ("u", "user", "uses", "c")])
    mem = open_memory(db_url)
    try:
        _check_migrated(db_url, mem, read)
    finally:
        mem.close()


def test_a_migration_killed_midway_leaves_the_database_as_before_on_both_stores(
        db_url: str, open_memory: Callable[[str], Memory]) -> None:
    """A process killed (SIGKILL) after the step re-keyed everything, before the migration
    committed: every row as it was, the migration not recorded (SQLite's integrity check
    ok); the next open migrates it once, as above."""
    read = _old_database(db_url, open_memory)
    before = _snapshot(db_url)
    kill_inside_migration(db_url, "name_symbols")
    assert _snapshot(db_url) == before
    assert migration(db_url, "name_symbols") not in [r[0] for r in rows(db_url, "SELECT name FROM schema_migrations")]
    if backend(db_url) == "sqlite":
        assert rows(db_url, "PRAGMA integrity_check") == [("ok",)]
    mem = open_memory(db_url)
    try:
        _check_migrated(db_url, mem, read)
    finally:
        mem.close()


def test_a_question_naming_an_entity_with_a_symbol_reaches_it_through_the_graph_on_both_stores(
        db_url: str, open_memory: Callable[[str], Memory]) -> None:
    """The offline pipeline reads "AT&T" as an entity (its key ``at&t`` now); the retrieval
    graph stage's query words split at ASCII punctuation ("AT", "T"), so a question naming
    "AT&T" reaches the session through the node only because the question's words holding
    a symbol are read too; "AT T" and "T" name no node."""
    from memlane.retrieve.graph import graph_candidates, named_entities, query_entities
    from memlane.retrieve.text import query_terms
    from memlane.testing import add_sessions

    assert query_entities(["at&t", "c++", "c", "c# team"], query_terms("How is AT&T doing with C++ and the C# team?"),
                          "How is AT&T doing with C++ and the C# team?") == ["at&t", "c# team", "c++"]
    mem = open_memory(db_url)
    try:
        add_sessions(mem, [(30, [("user", "My sister works at AT&T."), ("assistant", "Nice.")]),
                           (20, [("user", "The boiler broke again."), ("assistant", "Call the plumber.")])],
                     now=NOW, scope="u")
        assert [n.name for n in mem.store.find_entities("at&t", "u")] == ["AT&T"]
        for query, found in [("What does my sister do at AT&T?", True), ("Is AT T hiring?", False)]:
            zero, _one = graph_candidates(named_entities(mem.store, "u", query_terms(query), query=query))
            assert bool(zero) == found, query
    finally:
        mem.close()
