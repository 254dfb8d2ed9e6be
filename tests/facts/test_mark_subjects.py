"""Session 32: a forgotten fact stays forgotten across a re-keying of names.

``forget_fact`` keeps a fact's events without the value (its marks), keyed by the subject's
key, so that its session read again (a re-summary, a late message) does not bring it back.
Migration ``name_symbols`` (session 31) re-keyed subjects, nodes and relations' ends, and
the marks by their own key: "C++ team"'s mark kept ``c team`` (the key cannot be re-keyed:
it is also "C team"'s and "C# team"'s), the statement read again was keyed ``c++ team``,
and the forgotten fact came back. A mark now keeps the subject as written
(``written_subject``), which every re-keying keys it by (``rekey_names``); migration
``mark_subjects`` reads the older marks' subject back from their turns (else from the
scope's subjects and nodes).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.index.normalize import _fold_accents, normalize_name, subject_key
from memlane.memory import Memory
from memlane.store.migrations import load_migrations
from memlane.store.rekey import read_back_marks
from memlane.testing import memory
from memlane.testing.llm_server import ChatServer
from tests.facts.conftest import backend, kill_inside_migration, migration, rows
from tests.facts.test_value_symbols import _with_symbol

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)
SAID = NOW - timedelta(days=10)


def _old_key(subject: str) -> str:
    """A subject's key before session 31 (``normalize_name``: every symbol a space)."""
    key = _fold_accents(normalize_name(subject))
    return "user" if key in ("user", "the user", "i", "me") else key


def _llm_memory(url: str, srv: ChatServer) -> Memory:
    mem: Memory = memory(url, indexing={"backend": "llm", "service": "local", "retry_base_seconds": 0},
                         llm_services={"local": {"base_url": srv.base_url, "model": "test-model",
                                                 "timeout_seconds": 5, "max_retries": 0}})
    return mem


def _read(mem: Memory, srv: ChatServer, facts: list[tuple[str, str, str]]) -> None:
    """The model reads the session's first turn as stating ``facts``; index."""
    srv.script_json({"topic": "teams", "context": "The teams.", "facts": [
        {"subject": s, "predicate": p, "object": o, "turn": 1} for s, p, o in facts]})
    mem.index(now=NOW)


def _since(url: str, suffix: str) -> list[str]:
    """The migrations from ``suffix`` on, by full name."""
    names = [m.name for m in load_migrations(f"memlane.store.{backend(url)}")]
    return names[names.index(migration(url, suffix)):]


def _as_before(mem: Memory, url: str, since: str) -> None:
    """The database as a memlane without migrations ``since`` on left it: the marks keyed by
    the subject's key of before session 31 (``name_symbols``: as that code wrote them) or
    by that key re-keyed by itself (``mark_subjects``: as migration ``name_symbols`` left
    them), with no subject as written (no such column)."""
    s = mem.store
    with s.atomic():
        for eid, subject in s._run("SELECT id, written_subject FROM fact_events WHERE object = ''").fetchall():
            s._run("UPDATE fact_events SET subject = %s WHERE id = %s", (_old_key(subject), eid))
        s._run("ALTER TABLE fact_events DROP COLUMN written_subject")
        for name in _since(url, since):
            s._run("DELETE FROM schema_migrations WHERE name = %s", (name,))
    mem.close()


def _marks(url: str) -> list[tuple[Any, ...]]:
    return sorted(rows(url, "SELECT fact_id, kind, subject, written_subject FROM fact_events WHERE object = ''"))


def _forgotten_then_read_again(url: str, since: str | None, *, kill: bool = False) -> list[tuple[str, str]]:
    """A session whose first turn states "C++ team" size 5 and "C team" size 4; the first
    fact forgotten; the database made as before ``since`` (None: today's); opened (migrated;
    with ``kill``, first killed inside migration ``mark_subjects``); a late message joins the
    session, which the model reads again as stating both: the current facts, (subject,
    value)."""
    stated = [("C++ team", "size", "5"), ("C team", "size", "4")]
    with ChatServer() as srv:
        mem = _llm_memory(url, srv)
        for i, (role, text) in enumerate([("user", "The C++ team has 5 people, the C team 4."),
                                          ("assistant", "Noted."), ("user", "Thanks."), ("assistant", "Sure.")]):
            mem.add_message("u", role, text, SAID + timedelta(minutes=i))
        mem.close_session("u")
        _read(mem, srv, stated)
        assert sorted((f.subject, f.object) for f in mem.facts("u")) == [("C team", "4"), ("C++ team", "5")]
        mem.forget_fact(next(f.id for f in mem.facts("u") if f.subject == "C++ team"))
        if since is None:
            mem.close()
        else:
            _as_before(mem, url, since)
            assert rows(url, "SELECT DISTINCT subject FROM fact_events WHERE object = ''") == [("c team",)]
            if kill:
                before = [sorted(map(str, rows(url, f"SELECT * FROM {t}"))) for t in ("fact_events", "facts")]
                kill_inside_migration(url, "mark_subjects")
                assert [sorted(map(str, rows(url, f"SELECT * FROM {t}"))) for t in ("fact_events", "facts")] == before
                assert migration(url, "mark_subjects") not in [r[0] for r in rows(url, "SELECT name FROM schema_migrations")]
                if backend(url) == "sqlite":
                    assert rows(url, "PRAGMA integrity_check") == [("ok",)]
        mem = _llm_memory(url, srv)
        try:
            mem.add_message("u", "user", "And both hire.", SAID + timedelta(minutes=1, seconds=30))
            _read(mem, srv, stated)
            return sorted((f.subject, f.object) for f in mem.facts("u"))
        finally:
            mem.close()


def test_a_forgotten_fact_stays_forgotten_when_its_session_is_read_again_on_both_stores(db_url: str) -> None:
    """Today's marks: "C++ team" forgotten, its session read again: "C team" (read again,
    the same fact) is current, "C++ team" is not back; the marks keep the subject as
    written."""
    assert _forgotten_then_read_again(db_url, None) == [("C team", "4")]
    assert {r[2:] for r in _marks(db_url)} == {("c++ team", "C++ team")}


def test_an_older_mark_of_a_name_with_a_symbol_is_read_back_on_both_stores(db_url: str) -> None:
    """The marks a memlane of before session 31 left (keyed ``c team``), migrated by
    ``name_symbols`` then ``mark_subjects``: keyed ``c++ team`` (the turn's words "C++ team";
    not "C team", which the old key was as well: the turn stated its kept fact), and the
    session read again does not bring the fact back, nor forget "C team". Before:
    ``C++ team`` 5 was current again."""
    assert _forgotten_then_read_again(db_url, "name_symbols") == [("C team", "4")]
    assert {r[2:] for r in _marks(db_url)} == {("c++ team", "C++ team")}


def test_a_mark_left_by_the_last_migration_is_read_back_and_a_kill_leaves_it_as_before_on_both_stores(
        db_url: str) -> None:
    """A database migration ``name_symbols`` already re-keyed (the mark ``c team``, no
    subject as written): the process killed (SIGKILL) inside ``mark_subjects`` after its
    step, every row as before and the migration not recorded; the next open migrates it and
    the forgotten fact stays forgotten."""
    assert _forgotten_then_read_again(db_url, "mark_subjects", kill=True) == [("C team", "4")]
    assert ("c++ team", "C++ team") in {r[2:] for r in _marks(db_url)}


def test_the_read_back_is_idempotent_and_keeps_a_mark_nothing_names(tmp_path: Any,
                                                                     open_memory: Callable[[str], Memory]) -> None:
    """A mark of a fact told directly (no session) whose name no subject or node of its
    scope has any more stays under its key, with no subject as written; run again, the
    step changes nothing."""
    url = str(tmp_path / "m.db")
    mem = open_memory(url)
    mem.add_fact("Zq# team", "size", "5", scope="u", at=SAID)
    mem.add_fact("C++ team", "size", "5", scope="u", at=SAID)
    mem.add_fact("C++ team", "lead", "Ana", scope="u", at=SAID)
    for f in mem.facts("u"):
        if f.predicate == "size":
            mem.forget_fact(f.id)
    _as_before(mem, url, "mark_subjects")
    mem = open_memory(url)
    try:
        assert {r[2:] for r in _marks(url)} == {("zq team", None), ("c++ team", "C++ team")}
        before = _marks(url)
        with mem.store.atomic():
            read_back_marks(mem.store.db)
        assert _marks(url) == before
    finally:
        mem.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_with_symbol().filter(lambda c: c[1].strip() != "" and subject_key(c[0]) != "user"
                                  and _old_key(c[0]).strip() not in ("", "user")),
       other=st.booleans())
@example(case=("C++ team", "C team", "C# team"), other=True)
@example(case=("AT&T", "AT T", "AT#T"), other=False)
def test_every_older_mark_a_turn_names_is_read_back(tmp_path_factory: Any, open_memory: Callable[[str], Memory],
                                                   case: tuple[str, str, str], other: bool) -> None:
    """Any name with a symbol (and, with ``other``, the same name with another symbol in the
    same turn), stated in a turn of a session and forgotten, its mark keyed as before
    session 31: after migration ``mark_subjects`` a mark has the name's key today, and the
    statement of that turn read again is forgotten (``apply_fact`` says so). A name whose key
    before session 31 was the user's ("+I": every symbol a space, "i") is left out: its old mark
    cannot be told from the user's own, and is read back as the user's."""
    from memlane.config import FactsConfig
    from memlane.index.facts import apply_fact

    url = str(tmp_path_factory.mktemp("marks") / "m.db")
    name, _, third = case
    mem = open_memory(url)
    text = f"About {name}: it has 5 people." + (f" And {third} too." if other else "")
    for i, said in enumerate([text, "Noted.", "Another turn.", "Sure."]):
        mem.add_message("u", "user" if i % 2 == 0 else "assistant", said, SAID + timedelta(minutes=i))
    session = mem.close_session("u")
    assert session is not None
    turns = {m.seq: m for m in mem.messages(session.id)}
    fid = mem.add_fact(name, "size", "5", scope="u", at=SAID).fact_id
    with mem.store.atomic():  # as the pipeline writes a statement of the first turn
        mem.store._run("UPDATE facts SET session_id = %s, message_id = %s WHERE id = %s",
                       (session.id, turns[1].id, fid))
        mem.store._run("UPDATE fact_events SET session_id = %s, message_id = %s WHERE fact_id = %s",
                       (session.id, turns[1].id, fid))
    mem.forget_fact(fid)
    _as_before(mem, url, "name_symbols")
    mem = open_memory(url)
    try:
        def said(turn: int) -> str:
            with mem.store.atomic():
                return apply_fact(mem.store, FactsConfig(), scope="u", subject=name, predicate="size", obj="5",
                                  source="stated", at=turns[turn].at.timestamp(), session_id=session.id,
                                  message_id=turns[turn].id, make_item=lambda: None).action
        keys = {r[2] for r in _marks(url)}
        assert subject_key(name) in keys, (case, keys)
        assert said(1) == "forgotten", case
    finally:
        mem.close()


_names = iter(range(10**9))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_with_symbol().filter(lambda c: c[0].strip() != ""),
       stale=st.text(st.characters(exclude_characters="\x00"), min_size=1, max_size=12))
@example(case=("C++ team", "C team", "C# team"), stale="c team")
def test_a_re_keying_keys_a_mark_from_its_subject_as_written(pair: list[Memory], case: tuple[str, str, str],
                                                           stale: str) -> None:
    """Whatever key a rule of another time gave a mark (any text), a re-keying of names
    (``rekey_names``, which every name migration runs) keys it from the subject as written:
    ``subject_key`` of it, on both stores."""
    from memlane.store.rekey import rekey_names

    scope = f"k{next(_names)}"
    for mem in pair:
        fid = mem.add_fact(case[0], "size", "5", scope=scope, at=SAID).fact_id
        mem.forget_fact(fid)
        with mem.store.atomic():
            mem.store._run("UPDATE fact_events SET subject = %s WHERE fact_id = %s", (stale, fid))
            rekey_names(mem.store.db)
        got = mem.store._run("SELECT DISTINCT subject, written_subject FROM fact_events WHERE fact_id = %s",
                             (fid,)).fetchall()
        assert [tuple(r) for r in got] == [(subject_key(case[0]), case[0])], (case, stale)
        assert [e["fact_id"] for e in mem.forgotten_facts(case[0], "size", scope)][-1] == fid
