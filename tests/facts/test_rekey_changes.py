"""Session 28, third round: a migration's merges are changes.

Migrations ``name_keys`` (session 27) and ``value_keys`` (session 28) merge facts that fall
together under the new keys: the older current values become superseded (and their items).
A live client follows a scope through the change log (``memlane.serve.live``, the
``/state/memory`` stream): after the upgrade, the changes after its position must bring its
view to what the memory now says. They do because the change log's triggers
(``0006_changes``) write a record for every write in the writing transaction, the
migration's step included; these tests keep it so (dropping the facts trigger for the
upgrade makes them fail), and check that a crash mid-migration leaves no record.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.errors import MigrationError
from memlane.index.facts import end_fact
from memlane.index.normalize import normalize_name
from memlane.memory import Memory
from memlane.serve import live
from tests.facts.conftest import migration

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)

Statement = tuple[str, str, str, float, bool]  # subject, predicate, value, days ago, an ending


def _day(days_ago: float) -> datetime:
    return NOW - timedelta(days=days_ago)



def _old_database(open_memory: Callable[[str], Memory], url: str, scope: str, statements: list[Statement],
                  rekey: str) -> tuple[int, dict[str, Any]]:
    """Each statement stored in a scope of its own (the old keys kept them apart), moved
    into ``scope`` and keyed as before (``rekey``: ``name_keys`` the subject with accents,
    ``value_keys`` the value with accents), the migration not applied. Returns a live
    client's position and view of ``scope`` (its snapshot)."""
    mem = open_memory(url)
    s = mem.store
    for i, (subject, pred, obj, days, ending) in enumerate(statements):
        if ending:
            with s.atomic():
                end_fact(s, mem.config.facts, scope=f"{scope}.{i}", subject=subject, predicate=pred, obj=obj,
                         at=_day(days).timestamp(), session_id=None, message_id=None)
        else:
            mem.add_fact(subject, pred, obj, scope=f"{scope}.{i}", at=_day(days))
    with s.atomic():
        for table in ("facts", "items", "fact_events"):
            s._run(f"UPDATE {table} SET scope = %s WHERE scope LIKE %s", (scope, f"{scope}.%"))
        for fid, subject, obj in s._run("SELECT id, subject, object FROM facts WHERE scope = %s",
                                        (scope,)).fetchall():
            if rekey == "name_keys":
                s._run("UPDATE facts SET norm_subject = %s WHERE id = %s", (normalize_name(subject), fid))
            elif obj:
                s._run("UPDATE facts SET norm_object = %s WHERE id = %s",
                       (re.sub(r"^(the|a|an) ", "", normalize_name(obj)), fid))
        s._run("DELETE FROM schema_migrations WHERE name = %s", (migration(url, rekey),))
    head, view = live.snapshot(s, scope)  # a client of the old memory
    mem.close()
    return head, view


def _follow(mem: Memory, scope: str, head: int, view: dict[str, Any]) -> dict[str, Any]:
    batch = live.poll(mem.store, scope, head, live.MAX_LIMIT)
    assert len(batch.changes) < live.MAX_LIMIT
    return live.apply(view, batch.changes)


def _current(view: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(f["subject"], f["predicate"], f["object"]) for f in view["facts"].values()
            if f["status"] == "current"}


def _check(mem: Memory, scope: str, view: dict[str, Any]) -> None:
    """The client's view is the memory's: its current facts are ``Memory.facts``, and the
    whole document is a fresh snapshot's."""
    assert _current(view) == {(f.subject, f.predicate, f.object) for f in mem.facts(scope)}
    assert view == live.snapshot(mem.store, scope)[1]


def _crash(url: str, table: str, *, drop: bool = False) -> None:
    if not url.startswith("postgres"):
        with sqlite3.connect(url) as con:
            con.execute("DROP TRIGGER crash" if drop else
                        f"CREATE TRIGGER crash BEFORE UPDATE ON {table} BEGIN SELECT RAISE(ABORT, 'crash'); END")
        return
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        if drop:
            con.execute(f"DROP TRIGGER crash ON {table}")
            con.execute("DROP FUNCTION crash()")
        else:
            con.execute("CREATE FUNCTION crash() RETURNS trigger LANGUAGE plpgsql AS"
                        " $$ BEGIN RAISE EXCEPTION 'crash'; END $$")
            con.execute(f"CREATE TRIGGER crash BEFORE UPDATE ON {table} FOR EACH ROW EXECUTE FUNCTION crash()")


def _change_rows(url: str) -> list[Any]:
    sql = "SELECT * FROM changes ORDER BY id"
    if not url.startswith("postgres"):
        with sqlite3.connect(url) as con:
            return con.execute(sql).fetchall()
    import psycopg

    with psycopg.connect(url) as con:
        return con.execute(sql).fetchall()


def test_a_client_following_the_log_sees_value_keys_merges_on_both_stores(db_url: str,
                                                                          open_memory: Callable[[str], Memory]) -> None:
    """Two spellings of a liked dish both current, "São Paulo" current and "Sao Paulo"
    ended later: after the upgrade the client holds one like (the newest) and no city; a
    crash inside the migration (at the items' update, after the facts') left no record."""
    head, view = _old_database(open_memory, db_url, "u", [
        ("user", "likes", "Crème brûlée", 30, False), ("user", "likes", "Creme brulee", 10, False),
        ("user", "likes", "jazz", 25, False), ("user", "lives_in", "São Paulo", 40, False),
        ("user", "lives_in", "Sao Paulo", 20, True)], "value_keys")
    assert _current(view) == {("user", "likes", "Crème brûlée"), ("user", "likes", "Creme brulee"),
                              ("user", "likes", "jazz"), ("user", "lives_in", "São Paulo")}
    logged = _change_rows(db_url)
    _crash(db_url, "items")
    with pytest.raises(MigrationError, match="value_keys.*crash"):
        open_memory(db_url)
    assert _change_rows(db_url) == logged
    _crash(db_url, "items", drop=True)

    mem = open_memory(db_url)  # the upgrade
    try:
        view = _follow(mem, "u", head, view)
        assert _current(view) == {("user", "likes", "Creme brulee"), ("user", "likes", "jazz")}
        _check(mem, "u", view)
    finally:
        mem.close()


def test_a_client_following_the_log_sees_name_keys_merges_on_both_stores(db_url: str,
                                                                          open_memory: Callable[[str], Memory]) -> None:
    head, view = _old_database(open_memory, db_url, "u", [
        ("José", "lives_in", "Lisbon", 50, False), ("Jose", "lives_in", "Faro", 20, False),
        ("Zoë", "likes", "jazz", 45, False), ("Zoe", "likes", "jazz", 10, False),
        ("Zoë", "diet", "vegetarian", 40, False), ("Zoe", "diet", "vegetarian", 8, True)], "name_keys")
    assert len(_current(view)) == 5
    mem = open_memory(db_url)  # the upgrade
    try:
        view = _follow(mem, "u", head, view)
        assert _current(view) == {("Jose", "lives_in", "Faro"), ("Zoe", "likes", "jazz")}
        _check(mem, "u", view)
    finally:
        mem.close()


def _spelling(draw: Any, text: str) -> str:
    if draw(st.booleans()):
        text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return unicodedata.normalize(draw(st.sampled_from(["NFC", "NFD"])), draw(st.sampled_from(
        [text, text.upper(), text.lower()])))


@st.composite
def _statements(draw: Any) -> list[Statement]:
    out = []
    for _ in range(draw(st.integers(2, 8))):
        subject = _spelling(draw, "José")
        value = _spelling(draw, draw(st.sampled_from(["São Paulo", "Crème brûlée"])))
        out.append((subject, draw(st.sampled_from(["likes", "lives_in"])), value,
                    draw(st.integers(1, 60)) + len(out) / 100, draw(st.integers(0, 3)) == 0))
    return out


_counter = iter(range(10**9))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(statements=_statements(), rekey=st.sampled_from(["name_keys", "value_keys"]))
@example(statements=[("user", "likes", "São Paulo", 30, False), ("user", "likes", "Sao Paulo", 10, False)],
         rekey="value_keys")
@example(statements=[("José", "likes", "jazz", 30, False), ("Jose", "likes", "jazz", 10, False)],
         rekey="name_keys")
def test_after_any_merge_the_followed_view_is_the_memory_on_both_stores(
        urls: list[str], open_memory: Callable[[str], Memory], statements: list[Statement], rekey: str) -> None:
    """Any spellings of a subject and values (accents, case, NFC/NFD), statements and
    endings in any time order, kept apart by the old keys: after the upgrade, the client's
    view followed from the log is a fresh snapshot and its current facts ``Memory.facts``."""
    scope = f"p{next(_counter)}"
    for url in urls:
        head, view = _old_database(open_memory, url, scope, statements, rekey)
        mem = open_memory(url)
        try:
            _check(mem, scope, _follow(mem, scope, head, view))
        finally:
            mem.close()
