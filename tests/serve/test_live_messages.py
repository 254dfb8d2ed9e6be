"""A message's change record (SQLite migration 0009, PostgreSQL 0012): stored with ids only,
read with its session's document, on SQLite and PostgreSQL. What it must keep: a snapshot
plus the changes after it equals a later snapshot (whatever wrote, deleted or rolled back
in between), one record per message (per session and batch for add_messages), and every
other change of a session still logged with its document."""

from __future__ import annotations

import itertools
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from memlane.config import load_config
from memlane.memory import Memory
from memlane.serve import live
from memlane.store.migrations import load_migrations
from memlane.testing import HashingEmbedder

T0 = 1_700_000_000.0
CONFIG: dict[str, Any] = {"ingest": {"min_session_messages": 2}}


def _memory(url: str | Path) -> Memory:
    return Memory(str(url), config=load_config(environ={}, overrides=CONFIG),
                  embedder=HashingEmbedder(dim=64))


def _empty(scope: str) -> dict[str, Any]:
    return {"scope": scope, "sessions": {}, "items": {}, "facts": {}, "last_pack": None}


def _catch_up(mem: Memory, scope: str, head: int, state: dict[str, Any], limit: int
              ) -> tuple[dict[str, Any], list[live.Change]]:
    """Poll page by page from ``head`` to the log's head, applying every patch; asserts
    that the stream then equals a fresh snapshot (taken before, so it cannot be newer)."""
    fresh_head, fresh = live.snapshot(mem.store, scope)
    seen: list[live.Change] = []
    while True:
        batch = live.poll(mem.store, scope, head, limit)
        assert batch.cursor >= head
        seen += batch.changes
        state = live.apply(state, batch.changes)
        if batch.cursor == head:
            break
        head = batch.cursor
    assert head == fresh_head
    assert state == fresh
    ids = [c.id for c in seen]
    assert ids == sorted(set(ids))
    return state, seen


def _raw(mem: Memory, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """A statement on the store's own connection (``%s`` placeholders on both backends),
    committed."""
    with mem.store.atomic():
        cur = mem.store.db.execute(mem.store.db.portable(sql), params)
        return cur.fetchall() if cur.description else []


def _records(mem: Memory) -> list[tuple[str, bool]]:
    """``(topic, stored with a document)`` of every row of the log, in write order (a
    snapshot first, so PostgreSQL's rows are sequenced)."""
    live.snapshot(mem.store, "chat")
    return [(t, d) for t, d in _raw(mem, "SELECT topic, doc IS NOT NULL FROM changes ORDER BY id")]


# -- what is stored --------------------------------------------------------------------------
def test_a_message_record_is_stored_without_a_document_and_read_with_one(db_url: str) -> None:
    mem = _memory(db_url)
    try:
        mem.add_message("chat", "user", "one", at=T0)
        mem.add_message("chat", "assistant", "two", at=T0 + 10)
        mem.add_messages([{"scope": "chat", "role": "user", "text": f"batch {i}", "at": T0 + 20 + i}
                          for i in range(5)])
        mem.add_message("chat", "user", "after a gap", at=T0 + 90_000)  # closes, opens
        # one record per message (PostgreSQL's add_messages: one per session and batch); a
        # message's has no document, every other change keeps its own
        batch = 1 if mem.store.backend == "postgres" else 5
        assert _records(mem) == [("session.opened", True), *[("message.added", False)] * (2 + batch),
                                 ("session.closed", True), ("session.opened", True),
                                 ("message.added", False)]
        changes = live.changes_since(mem.store, "chat", 0)
        first = mem.sessions("chat")[-1]
        assert [c.topic for c in changes][:4] == ["session.opened"] + ["message.added"] * 3
        # read as the session is now: its 7 messages, both participants
        doc = changes[1].patch[0]["value"]
        assert changes[1].patch[0]["path"] == f"/sessions/{first.id}"
        assert (doc["turn_count"], doc["participants"], doc["status"]) == (7, ["user", "assistant"],
                                                                           "closed")
        _catch_up(mem, "chat", 0, _empty("chat"), limit=2)
    finally:
        mem.close()


def test_pg_a_session_update_that_does_not_advance_the_mark_is_logged_by_the_trigger(
        pg_url: str) -> None:
    """The trigger skips only an update that advances ``logged_changes`` (whose writer wrote
    the record itself): the shared ``append_message`` primitive and any other update of a
    session are logged as before."""
    mem = _memory(pg_url)
    try:
        mem.add_message("chat", "user", "one", at=T0)
        sid = mem.sessions("chat")[0].id
        with mem.store.atomic():
            mem.store.append_message(sid, "chat", 2, "assistant", "two", T0 + 5, speaker=None,
                                     ext_id=None, agent=None, project=None, redactions=0)
        _raw(mem, "UPDATE sessions SET project = 'p' WHERE id = %s", (sid,))
        _raw(mem, "UPDATE sessions SET logged_changes = logged_changes + 1 WHERE id = %s", (sid,))
        assert _records(mem) == [("session.opened", True), ("message.added", False),
                                 ("message.added", False), ("session.updated", True)]
        _, changes = _catch_up(mem, "chat", 0, _empty("chat"), limit=1)
        assert changes[-1].patch[0]["value"]["project"] == "p"
        assert changes[1].patch[0]["value"]["turn_count"] == 2
    finally:
        mem.close()


def test_a_rolled_back_message_leaves_no_record(db_url: str) -> None:
    mem = _memory(db_url)
    try:
        mem.add_message("chat", "user", "one", at=T0)
        before = _records(mem)
        head, state = live.snapshot(mem.store, "chat")
        with pytest.raises(RuntimeError), mem.store.atomic():
            mem.add_message("chat", "user", "two", at=T0 + 1)
            mem.add_messages([{"scope": "chat", "role": "user", "text": "three", "at": T0 + 2}])
            raise RuntimeError("crash before commit")
        assert _records(mem) == before
        assert live.poll(mem.store, "chat", head).changes == []
        assert live.snapshot(mem.store, "chat") == (head, state)
    finally:
        mem.close()


# -- a session deleted after its messages ------------------------------------------------------
def test_records_of_a_deleted_session_are_skipped_and_the_stream_adds_up(db_url: str) -> None:
    """No store method deletes a session today, but the log must stay right if anything
    does: its message records have no document to read, so they are skipped (its
    ``session.deleted`` record follows), page by page, and the cursor still moves on."""
    mem = _memory(db_url)
    try:
        mem.add_message("chat", "user", "kept", at=T0)
        mem.add_message("other", "user", "elsewhere", at=T0)
        head, state = live.snapshot(mem.store, "chat")
        mem.add_message("chat", "user", "gone 1", at=T0 + 90_000)  # a second session
        mem.add_message("chat", "assistant", "gone 2", at=T0 + 90_010)
        gone = mem.sessions("chat", status="open")[0].id
        _raw(mem, "DELETE FROM sessions WHERE id = %s", (gone,))
        # a new session may take the deleted one's id (SQLite reuses the highest rowid):
        # the old scope's records must not read another scope's session
        mem.add_message("third", "user", "new session", at=T0 + 90_020)
        for limit in (1, 2, 3, 500):
            _, changes = _catch_up(mem, "chat", head, state, limit)
            topics = [c.topic for c in changes]
            assert "message.added" not in topics[topics.index("session.closed") + 1:]
            assert topics[-1] == "session.deleted"
        assert str(gone) not in live.snapshot(mem.store, "chat")[1]["sessions"]
        # the skipped records' ids are behind the cursor: the next poll is empty
        end = live.poll(mem.store, "chat", head, 500).cursor
        assert live.poll(mem.store, "chat", end).changes == []
    finally:
        mem.close()


# -- random interleavings ---------------------------------------------------------------------
class Messages(RuleBasedStateMachine):
    """add_message, add_messages, closing, indexing (summaries, facts), forgetting items and
    facts, deleting a session, in any order over two scopes; every earlier snapshot of scope
    A plus the changes since, read in pages of any size, equals a fresh snapshot."""

    new_db: Callable[[], str]

    @initialize()
    def start(self) -> None:
        self.mem = _memory(self.new_db())
        self.clock = T0
        self.marks = [live.snapshot(self.mem.store, "a")]

    def _tick(self, gap: bool) -> float:
        self.clock += 7200 if gap else 20
        return self.clock

    @rule(in_a=st.booleans(), gap=st.booleans(), role=st.sampled_from(["user", "assistant"]),
          speaker=st.sampled_from([None, "Ana"]))
    def add(self, in_a: bool, gap: bool, role: str, speaker: str | None) -> None:
        self.mem.add_message("a" if in_a else "b", role, f"I live in Lisbon {self.clock}",
                             at=self._tick(gap), speaker=speaker)

    @rule(rows=st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=6))
    def batch(self, rows: list[tuple[bool, bool]]) -> None:
        self.mem.add_messages([{"scope": "a" if a else "b", "role": "user",
                                "text": f"I work at Acme {n}", "at": self._tick(gap)}
                               for n, (a, gap) in enumerate(rows)])

    @rule(in_a=st.booleans())
    def close(self, in_a: bool) -> None:
        self.mem.close_session("a" if in_a else "b")

    @rule()
    def index(self) -> None:
        self.mem.index(now=self._tick(True) + 7200)

    @rule(pick=st.integers(0, 99))
    def forget(self, pick: int) -> None:
        items = sorted(int(i) for i in live.snapshot(self.mem.store, "a")[1]["items"])
        facts = self.mem.facts("a")
        if facts and pick % 2:
            self.mem.forget_fact(facts[pick % len(facts)].id)
        elif items:
            self.mem.forget_item(items[pick % len(items)])

    @rule(pick=st.integers(0, 99), in_a=st.booleans())
    def delete_session(self, pick: int, in_a: bool) -> None:
        sessions = self.mem.sessions("a" if in_a else "b")
        if sessions:
            _raw(self.mem, "DELETE FROM sessions WHERE id = %s",
                 (sessions[pick % len(sessions)].id,))

    @rule()
    def mark(self) -> None:
        self.marks = [*self.marks[-2:], live.snapshot(self.mem.store, "a")]

    @rule(limit=st.integers(1, 6))
    def check(self, limit: int) -> None:
        for head, state in self.marks:
            _catch_up(self.mem, "a", head, state, limit)

    def teardown(self) -> None:
        if hasattr(self, "mem"):
            try:
                self.check(4)
            finally:
                self.mem.close()


def _new_db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Callable[[], str]:
    if backend == "sqlite":
        files = (tmp_path / f"m{n}.db" for n in itertools.count())
        return lambda: str(next(files))
    from memlane.testing.postgres import create_database

    server = request.getfixturevalue("postgres_server_url")
    names = (f"livemsg_{os.getpid()}_{n}" for n in itertools.count())
    return lambda: create_database(server, next(names), replace=True)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_random_interleavings_snapshot_plus_changes_equal_a_later_snapshot(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    Messages.new_db = staticmethod(_new_db(backend, tmp_path, request))
    run_state_machine_as_test(Messages, settings=settings(
        max_examples=15 if backend == "sqlite" else 5, stateful_step_count=30, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]))


# -- an existing database ------------------------------------------------------------------------
def _old_sqlite(path: Path) -> None:
    """A SQLite file at schema 8 (before this change), with a session and two messages'
    records written by the old trigger (documents included)."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, sha256 TEXT NOT NULL,"
                " applied_at REAL NOT NULL)")
    for m in load_migrations("memlane.store.sqlite"):
        if m.name > "0008_facts_message":
            break
        con.executescript(m.sql)
        con.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)", (m.name, m.sha256, time.time()))
    _old_rows(con.execute, "?")
    con.close()


def _old_postgres(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE schema_migrations (name text PRIMARY KEY, sha256 text NOT NULL,"
                     " applied_at double precision NOT NULL)")
        for m in load_migrations("memlane.store.postgres"):
            if m.name > "0011_facts_message":
                break
            with conn.transaction():
                conn.execute(m.sql)
                conn.execute("INSERT INTO schema_migrations VALUES (%s, %s, %s)",
                             (m.name, m.sha256, time.time()))
        _old_rows(conn.execute, "%s")


def _old_rows(execute: Callable[..., Any], p: str) -> None:
    execute("INSERT INTO sessions (scope, status, started_at, ended_at, created_at)"
            f" VALUES ('chat', 'open', {p}, {p}, {p})", (T0, T0, T0))
    for n in (1, 2):
        execute("INSERT INTO messages (session_id, scope, seq, role, text, at) SELECT id,"
                f" 'chat', {p}, 'user', {p}, {p} FROM sessions WHERE scope = 'chat'",
                (n, f"old {n}", T0 + n))
        execute(f"UPDATE sessions SET message_count = {p}, ended_at = {p},"
                " participants = '[\"user\"]' WHERE scope = 'chat'", (n, T0 + n))


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_an_existing_database_migrates_and_its_stream_adds_up(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if backend == "sqlite":
        url: str = str(tmp_path / "old.db")
        _old_sqlite(Path(url))
    else:
        url = request.getfixturevalue("pg_url")
        _old_postgres(url)
    mem = _memory(url)  # migrates
    try:
        head, state = live.snapshot(mem.store, "chat")
        mem.add_message("chat", "assistant", "new 3", at=T0 + 3)
        mem.add_messages([{"scope": "chat", "role": "user", "text": "new 4", "at": T0 + 4}])
        # the old rows keep their documents; the new message records have none
        assert _records(mem) == [("session.opened", True), ("message.added", True),
                                 ("message.added", True), ("message.added", False),
                                 ("message.added", False)]
        _, changes = _catch_up(mem, "chat", 0, _empty("chat"), limit=2)
        # an old record is read as it was written: the session after its first message
        assert changes[1].patch[0]["value"]["turn_count"] == 1
        assert changes[-1].patch[0]["value"]["turn_count"] == 4
        _catch_up(mem, "chat", head, state, limit=1)
    finally:
        mem.close()
