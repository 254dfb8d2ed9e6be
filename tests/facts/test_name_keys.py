"""Session 27: one person is one subject however the name is spelled.

"José" and "Jose", "Zoë" and "Zoe" were two fact subjects and two entities
(``normalize_name`` kept accents): facts about "Jose" never superseded those about "José", a
look-up by one spelling missed the other's facts, and the graph showed two nodes. Keys are
now ``name_key`` (accents of Latin letters folded), and migration ``name_keys`` re-keys an
existing database on both stores, merging what falls together.
"""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime, timedelta
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.errors import MigrationError
from memlane.index.facts import end_fact
from memlane.index.normalize import name_key, normalize_name, subject_key
from memlane.memory import Memory
from memlane.store.rekey import rekey_names
from tests.facts.conftest import backend, migration, rows

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)




def _dump(mem: Memory) -> dict[str, Any]:
    s = mem.store
    return {"facts": list(s.iter_facts()), "entities": list(s.iter_entities()),
            "relations": list(s.iter_relations()), "events": list(s.iter_fact_events()),
            "items": [(i["id"], i["status"], i["scope"]) for i in s.iter_items()]}


def _day(n: float) -> datetime:
    return NOW - timedelta(days=n)


def _old_database(url: str, open_memory: Callable[[str], Memory]) -> dict[str, int]:
    """A database as the code before session 27 left it: each spelling's facts a chain of
    its own (built by the real ``add_fact`` in a scope of its own, then moved to ``u``) keyed
    by ``normalize_name``, which keeps accents; entities and relations keyed the same way
    (the calls the pipeline made); the migration not applied. Returns some fact ids."""
    mem = open_memory(url)
    ids: dict[str, int] = {}
    for scope, subject, pred, obj, days in [
        ("t1", "José", "lives_in", "Lisbon", 50), ("t2", "Jose", "lives_in", "Madrid", 40),
        ("t1", "José", "lives_in", "Porto", 30), ("t2", "Jose", "lives_in", "Faro", 20),
        ("t1", "José", "likes", "jazz", 45), ("t1", "José", "likes", "fado", 44),
        ("t2", "Jose", "likes", "jazz", 10), ("t1", "Zoë", "works_at", "Acme", 9),
        ("t2", "Zoe", "works_at", "Globex", 15), ("t1", "José", "job", "nurse", 12),
        ("t3", "user", "lives_in", "Berlin", 60), ("t1", "José", "diet", "vegetarian", 40),
    ]:
        out = mem.add_fact(subject, pred, obj, scope=scope, at=_day(days))
        ids[f"{subject} {obj}"] = out.fact_id
    # José's Porto said again after Jose's Faro: the newest statement of the key
    mem.add_fact("José", "lives_in", "Porto", scope="t1", at=_day(5))
    mem.forget_fact(ids["José nurse"])  # its marks stay, keyed by the old key
    # "Jose is not vegetarian anymore": an ending under the other spelling, said after
    with mem.store.atomic():
        end_fact(mem.store, mem.config.facts, scope="t2", subject="Jose", predicate="diet", obj="vegetarian",
                 at=_day(8).timestamp(), session_id=None, message_id=None)
    s = mem.store
    with s.atomic():
        for table in ("facts", "items", "fact_events"):
            s._run(f"UPDATE {table} SET scope = 'u' WHERE scope IN ('t1', 't2', 't3')")
        for fid, subject in s._run("SELECT id, subject FROM facts").fetchall():
            s._run("UPDATE facts SET norm_subject = %s WHERE id = %s", (normalize_name(subject), fid))
        for name, ctx, kind, days in [("José", "met at the café", "person", 50), ("José", "again", "name", 40),
                                      ("Jose", "Jose works at the port", "name", 20), ("Zoe", "a friend", "person", 15),
                                      ("Zoë", "Zoë's new job", "thing", 9), ("Ana", "", "person", 30)]:
            s.upsert_entity("u", name, normalize_name(name), kind, ctx, _day(days).timestamp())
        s.insert_relation("u", normalize_name("José"), "friend_of", "ana", None, None, _day(50).timestamp())
        s.insert_relation("u", "ana", "knows", normalize_name("Jose"), None, None, _day(20).timestamp())
        s._run("DELETE FROM schema_migrations WHERE name = %s", (migration(url, "name_keys"),))
    mem.close()
    return ids


def test_an_old_database_is_rekeyed_and_merged_on_both_stores(db_url: str,
                                                               open_memory: Callable[[str], Memory]) -> None:
    ids = _old_database(db_url, open_memory)
    store = backend(db_url)
    # the old code's state: two subjects, two nodes
    import sqlite3

    def by_hand(sql: str) -> list[Any]:
        return rows(db_url, sql)

    assert {r[0] for r in by_hand("SELECT norm_subject FROM facts")} == {"josé", "jose", "zoë", "zoe", "user"}
    assert len(by_hand("SELECT 1 FROM facts WHERE status = 'current' AND norm_predicate = 'lives_in'")) == 3

    # a crash inside the migration (a failing write after the facts were re-keyed) leaves
    # the old state, every row as it was
    if store == "sqlite":
        with sqlite3.connect(db_url) as con:
            con.execute("CREATE TRIGGER crash BEFORE UPDATE ON entities BEGIN SELECT RAISE(ABORT, 'crash'); END")
    else:
        import psycopg

        with psycopg.connect(db_url, autocommit=True) as con:
            con.execute("CREATE FUNCTION crash() RETURNS trigger LANGUAGE plpgsql AS"
                        " $$ BEGIN RAISE EXCEPTION 'crash'; END $$")
            con.execute("CREATE TRIGGER crash BEFORE UPDATE ON entities FOR EACH ROW EXECUTE FUNCTION crash()")
    before = {t: by_hand(f"SELECT * FROM {t} ORDER BY id") for t in ("facts", "entities", "relations",
                                                                   "fact_events", "items")}
    with pytest.raises(MigrationError, match="name_keys.*crash"):
        open_memory(db_url)
    assert {t: by_hand(f"SELECT * FROM {t} ORDER BY id") for t in before} == before
    if store == "sqlite":
        with sqlite3.connect(db_url) as con:
            con.execute("DROP TRIGGER crash")
    else:
        import psycopg

        with psycopg.connect(db_url, autocommit=True) as con:
            con.execute("DROP TRIGGER crash ON entities")
            con.execute("DROP FUNCTION crash()")

    mem = open_memory(db_url)
    try:
        # one subject, however spelled; the newest statement current (Porto, said again
        # after Faro), the rest history in time order, every superseded value linked to one
        for spelling in ("José", "Jose", "JOSE", "jose\u0301"):
            current = {(f.predicate, f.object) for f in mem.facts("u", spelling)}
            assert current == {("lives_in", "Porto"), ("likes", "jazz"), ("likes", "fado")}, spelling
        history = mem.fact_history("Jose", "lives_in", "u")
        assert [h["object"] for h in history] == ["Lisbon", "Madrid", "Porto", "Faro"]
        assert [h["status"] for h in history] == ["superseded", "superseded", "current", "superseded"]
        assert all(h["superseded_by"] in {x["id"] for x in history} for h in history if h["status"] != "current")
        faro = next(h for h in history if h["object"] == "Faro")
        assert faro["superseded_by"] == ids["José Porto"]
        assert [e["kind"] for e in faro["events"]] == ["added", "superseded"]
        assert faro["events"][-1]["at"] == _day(5)  # when Porto was said last
        diet = mem.fact_history("José", "diet", "u")  # ended by the other spelling's ending
        assert [(h["object"], h["status"]) for h in diet] == [("vegetarian", "superseded"), ("vegetarian", "ended")]
        assert diet[0]["superseded_by"] == diet[1]["id"]
        jazz = [h for h in mem.fact_history("José", "likes", "u") if h["object"] == "jazz"]
        assert [h["status"] for h in jazz] == ["superseded", "current"]  # one value of many, once
        # another predicate, another person: the newest of two spellings
        assert [(f.subject, f.object) for f in mem.facts("u", "Zoe")] == [("Zoë", "Acme")]
        # the user's facts are as they were
        assert [(f.id, f.object) for f in mem.facts("u", "user")] == [(ids["user Berlin"], "Berlin")]
        # the forgotten value's marks answer for either spelling
        assert mem.forgotten_facts("Jose", "job", "u")[-1]["kind"] == "forgotten"
        # one node: the first spelling, every mention, both relations
        for spelling in ("José", "Jose"):
            g = mem.graph(spelling, "u")
            assert [(n.name, n.mentions, n.type) for n in g["entity"]] == [("José", 3, "person")]
            assert g["entity"][0].first_seen == _day(50) and g["entity"][0].last_seen == _day(20)
            assert g["entity"][0].context == "Jose works at the port"
            assert {(a, r, b) for _, a, r, b in g["relations"]} == {("jose", "friend_of", "ana"),
                                                                    ("ana", "knows", "jose")}
        g = mem.graph("Zoe", "u")
        assert [(n.name, n.mentions, n.type) for n in g["entity"]] == [("Zoe", 2, "person")]
        assert [e.name for e in mem.store.scope_entities("u")].count("José") == 1
        # run again: nothing changes
        after = _dump(mem)
        with mem.store.atomic():
            rekey_names(mem.store.db)
        assert _dump(mem) == after
    finally:
        mem.close()


def test_name_key_folds_accents_and_keeps_what_must_stay_distinct() -> None:
    assert name_key("José") == name_key("JOSE") == name_key("Jose\u0301") == "jose"
    assert name_key("Zoë") == name_key("Zoe") == "zoe"
    assert name_key("Nguyễn") == "nguyen" and name_key("François") == "francois"
    assert name_key("Müller") != name_key("Mueller")  # a transliteration, not an accent
    assert name_key("दिन") != name_key("दान")  # a vowel sign is part of its letter
    assert name_key("Йосиф") != name_key("Иосиф")  # Й is a letter of its own
    assert name_key("東京") == "東京" and name_key("Ærø") == "ærø"
    assert subject_key("The User.") == subject_key(" me ") == "user"


_LATIN = st.text(st.characters(codec="utf-8", categories=("Lu", "Ll", "Mn")), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(_LATIN | st.text(min_size=1, max_size=12))
def test_name_key_is_a_key(name: str) -> None:
    """Idempotent, blind to case and accents of Latin letters, never empty for a name
    with a letter or digit of any script."""
    key = name_key(name)
    assert name_key(key) == key
    assert name_key(name.upper()) == name_key(name.lower()) or not name.isascii()
    assert name_key(_strip(name)) == key
    if any(c.isalnum() for c in name):
        assert key


def _strip(name: str) -> str:
    """``name`` with the accents of its Latin letters taken off by hand (NFD, the marks after
    an ASCII letter dropped): a user typing without accents."""
    import unicodedata

    out: list[str] = []
    latin = False
    for c in unicodedata.normalize("NFD", name):
        if unicodedata.combining(c) and latin:
            continue
        if not unicodedata.combining(c):
            latin = c.isascii() and c.isalpha()
        out.append(c)
    return "".join(out)


_BASES = ["Jose", "Zoe", "Chloe", "Renee", "Bjorn", "Lukasz Nowak", "Nguyen Van An", "Ana Luisa", "Francois",
          "Sarka", "Anez", "Noel", "Ines Dahl"]
_MARKS = "\u0300\u0301\u0302\u0303\u0308\u030a\u030c\u0327\u0328\u0323"


@st.composite
def _names(draw: Any) -> str:
    """A name with accents put on some of its letters (any of ten marks, composed or not)."""
    base = draw(st.sampled_from(_BASES))
    out = []
    for c in base:
        out.append(c)
        if c.isalpha() and draw(st.booleans()):
            out.append(draw(st.sampled_from(_MARKS)))
    name = "".join(out)
    return unicodedata.normalize("NFC", name) if draw(st.booleans()) else name


_counter = iter(range(10**9))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=_names(),
       order=st.lists(st.tuples(st.booleans(), st.sampled_from(["Lisbon", "Porto", "Faro", "Braga"]),
                                st.integers(1, 90)), min_size=2, max_size=6, unique_by=lambda t: t[2]))
@example(name="José", order=[(True, "Lisbon", 30), (False, "Porto", 10)])
@example(name="Zoë", order=[(False, "Porto", 10), (True, "Lisbon", 30), (True, "Faro", 20)])
def test_both_spellings_are_one_subject_on_both_stores(pair: Any, name: str,
                                                       order: list[tuple[bool, str, int]]) -> None:
    """For any name and its accent-stripped spelling, facts stated under both in any order
    read as one subject whose current value is the newest; search for either spelling
    finds them; the entity graph has one node."""
    bare = _strip(name)
    scope = f"p{next(_counter)}"
    newest = min(order, key=lambda t: t[2])
    for mem in pair:
        for accented, city, days in order:
            who = name if accented else bare
            mem.add_fact(who, "lives_in", city, scope=scope, at=_day(days))
            # the entity as the pipeline upserts it (the name of a session's extraction)
            mem.store.upsert_entity(scope, who, name_key(who), "person", city, _day(days).timestamp())
        histories = []
        for spelling in (name, bare, name.upper()):
            current = mem.facts(scope, spelling)
            assert [(f.predicate, f.object) for f in current] == [("lives_in", newest[1])], (spelling, order)
            history = mem.fact_history(spelling, "lives_in", scope)
            assert [h["status"] for h in history].count("current") == 1
            assert [h["at"] for h in history] == sorted(h["at"] for h in history)
            histories.append([h["id"] for h in history])
            nodes = mem.graph(spelling, scope)["entity"]
            assert len(nodes) == 1 and nodes[0].mentions == len(order), nodes
            hits = mem.search(spelling, scope=scope, k=10)
            assert current[0].item_id in {h.item.id for h in hits}, (spelling, [h.item.text for h in hits])
        assert histories[0] == histories[1] == histories[2]


def test_sessions_naming_both_spellings_give_one_node_with_every_mention(
        db_url: str, open_memory: Callable[[str], Memory]) -> None:
    """Through the pipeline: a session naming "José", a later one "Jose" give one node (the
    first spelling) whose items are both sessions' (two nodes of one item each before)."""
    from memlane.testing import add_sessions

    mem = open_memory(db_url)
    try:
        add_sessions(mem, [(30, [("user", "I had lunch with José at Café Nero."), ("assistant", "Nice.")]),
                           (5, [("user", "Jose called me about the trip to Porto."), ("assistant", "Noted.")])],
                     now=NOW, scope="u")
        for spelling in ("Jose", "José", "JOSÉ"):
            g = mem.graph(spelling, "u")
            assert [(n.name, n.mentions) for n in g["entity"]] == [("José", 2)]
            assert sorted(e for i in g["items"] for e in i.entities) == ["Jose", "José"]
    finally:
        mem.close()
