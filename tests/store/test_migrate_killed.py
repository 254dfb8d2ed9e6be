"""An older database holding facts, their events (marks of forgotten facts among them) and
entities, whose names and values need the re-keying migrations (`name_keys`, `value_keys`)
and whose events need `fact_event_message` (SQLite 0015-0017, PostgreSQL 0021-0023):
`memlane migrate` SIGKILLed at seeded random moments leaves the database at a whole prefix of
the migrations with every message kept, and the next run reaches the same database as one
uninterrupted run; two processes opening it at once migrate it once. Real processes, real
SQLite files and the PostgreSQL the tests start (docs/hardening.md, "Session 30: upgrades
walked")."""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from typing import Any

import pytest

from memlane.store.migrations import load_migrations
from tests.store.test_upgrades import CHILD, _apply_until, _connect, _migrate, _package

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

OLD = {"sqlite": "0014_reply_keys", "postgres": "0020_late_facts_lock"}
SUBJECTS = ["José", "Jose", "JOSÉ", "user", "Zoë", "Zoe"]
VALUES = ["São Paulo", "Sao Paulo", "the Acme Corp", "Acme Corp", "Zürich", "Zurich"]
PREDICATES = ["lives_in", "works_at", "likes"]


def _old_database(backend: str, url: str, sessions: int = 120) -> None:
    """Schema ``OLD[backend]`` with sessions, messages (some of one time), facts of names and
    values spelt several ways (current, superseded), their events, the marks of forgotten
    facts (the fact row gone) and entities of one name spelt several ways: the columns and
    rows the code of that level wrote."""
    _apply_until(backend, url, OLD[backend], filler=0)
    con, q = _connect(backend, url)
    rnd = random.Random(7)
    marks = ", ".join([q] * 10)
    ids = {"session": 10, "message": 100, "fact": 0, "event": 0}
    try:
        for s in range(sessions):
            scope = f"s{s % 6}"
            sid = ids["session"] = ids["session"] + 1
            base = 1_000_000.0 + s * 1000
            con.execute(f"INSERT INTO sessions (id, scope, status, started_at, ended_at,"
                        f" message_count, created_at) VALUES ({q}, {q}, 'summarized', {q}, {q},"
                        f" 4, 0)", (sid, scope, base, base + 3))
            msgs = []
            for i in range(4):
                at = base if i < 2 and s % 3 == 0 else base + i  # one time, a third of them
                mid = ids["message"] = ids["message"] + 1
                con.execute(f"INSERT INTO messages (id, session_id, scope, seq, role, text, at)"
                            f" VALUES ({q}, {q}, {q}, {q}, 'user', {q}, {q})",
                            (mid, sid, scope, i + 1, f"turn {i} of {s} {rnd.random()}", at))
                msgs.append((mid, at))
            for mid, at in msgs[::2]:
                subject, value = rnd.choice(SUBJECTS), rnd.choice(VALUES)
                pred = rnd.choice(PREDICATES)
                fid = ids["fact"] = ids["fact"] + 1
                forgotten = rnd.random() < 0.25
                if not forgotten:
                    con.execute(
                        f"INSERT INTO facts (id, scope, subject, predicate, object, norm_subject,"
                        f" norm_predicate, norm_object, session_id, message_id, at, last_accessed,"
                        f" created_at) VALUES ({marks}, {q}, {q}, 0)",
                        (fid, scope, subject, pred, value, subject.lower(), pred, value.lower(),
                         sid, mid, at, at))
                for kind in ("added", "forgotten") if forgotten else ("added",):
                    eid = ids["event"] = ids["event"] + 1
                    con.execute(
                        f"INSERT INTO fact_events (id, fact_id, kind, scope, subject, predicate,"
                        f" object, session_id, at) VALUES ({q}, {q}, {q}, {q}, {q}, {q}, {q}, {q},"
                        f" {q})", (eid, fid, kind, scope, subject.lower(), pred,
                                   "" if forgotten else value, sid, at + (5 if kind == "forgotten" else 0)))
            name = rnd.choice(SUBJECTS)
            con.execute(
                f"INSERT INTO entities (scope, name, norm_name, context, first_seen, last_seen)"
                f" VALUES ({q}, {q}, {q}, {q}, {q}, {q}) ON CONFLICT DO NOTHING",
                (scope, name, name.lower(), f"said in {s}", base, base))
        if backend == "postgres":  # the ids given above: the sequences go on from them
            for t in ("sessions", "messages", "facts", "fact_events"):
                con.execute(f"SELECT setval(pg_get_serial_sequence('{t}', 'id'),"
                            f" (SELECT max(id) FROM {t}))")
    finally:
        con.close()


# what a run killed may change and lose nothing by: the time a migration ran, and the ids a
# PostgreSQL sequence gave rows of a rolled-back transaction (never given again)
UNCOMPARED = {"schema_migrations": {"applied_at"}, "changes": {"id", "pos", "at"},
              "fact_events": {"id"}}


def _everything(backend: str, url: str) -> dict[str, list[str]]:
    """Every table's rows as sorted text (but the columns of ``UNCOMPARED``)."""
    con, _ = _connect(backend, url)
    try:
        if backend == "sqlite":
            tables = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE"
                " 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%'")]
        else:
            tables = [r[0] for r in con.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        out = {}
        for t in tables:
            cur = con.execute(f"SELECT * FROM {t}")
            keep = [i for i, d in enumerate(cur.description)
                    if d[0] not in UNCOMPARED.get(t, set())]
            out[t] = sorted(repr(tuple(r[i] for i in keep)) for r in cur.fetchall())
        return out
    finally:
        con.close()


def _applied(backend: str, url: str) -> list[str]:
    con, _ = _connect(backend, url)
    try:
        return [r[0] for r in con.execute("SELECT name FROM schema_migrations ORDER BY name")]
    finally:
        con.close()


def _messages(backend: str, url: str) -> list[tuple[Any, ...]]:
    con, _ = _connect(backend, url)
    try:
        return [tuple(r) for r in con.execute(
            "SELECT id, session_id, scope, seq, text, at FROM messages ORDER BY id")]
    finally:
        con.close()


def _copy(backend: str, url: str, name: str, request: pytest.FixtureRequest) -> str:
    if backend == "sqlite":
        target = os.path.join(os.path.dirname(url), f"{name}.db")
        shutil.copy(url, target)
        return target
    from memlane.testing.postgres import create_database

    server = request.getfixturevalue("postgres_server_url")
    return create_database(server, f"{url.rsplit('/', 1)[1]}_{name}",
                           template=url.rsplit("/", 1)[1])


def _url(backend: str, name: str, tmp_path: Any, request: pytest.FixtureRequest) -> str:
    if backend == "sqlite":
        return str(tmp_path / f"{name}.db")
    from memlane.testing.postgres import create_database

    return create_database(request.getfixturevalue("postgres_server_url"),
                           f"{name}_{os.getpid()}")


def _start() -> list[str]:
    return [sys.executable, "-c", CHILD]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_migration_killed_at_any_moment_loses_nothing_and_the_next_run_completes(
        backend: str, tmp_path: Any, request: pytest.FixtureRequest) -> None:
    """One run without a kill gives the reference, and how long a process takes to start
    and to migrate. Then, round by round on a fresh copy of the old database, runs are
    SIGKILLed at seeded random moments (once a drawn number of migrations is applied, after
    a drawn delay; at most three a round): after each kill the applied migrations are a
    prefix of the shipped ones and the messages are as they were (SQLite: the file passes
    ``integrity_check``); a run to the end then gives every table's rows of the reference."""
    old = _url(backend, "killed", tmp_path, request)
    _old_database(backend, old, sessions=300)
    names = [m.name for m in load_migrations(_package(backend))]
    messages = _messages(backend, old)
    start = len(_applied(backend, old))
    ref = _copy(backend, old, "ref", request)
    began = time.monotonic()
    _migrate(ref)
    took = time.monotonic() - began
    began = time.monotonic()
    _migrate(ref)  # nothing left to apply: a process's start and open
    opening = time.monotonic() - began
    migrating = max(took - opening, 0.05)
    want = _everything(backend, ref)
    assert _applied(backend, ref) == names
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    rnd = random.Random(30)
    for n in range(4):
        url = _copy(backend, old, f"r{n}", request)
        for _ in range(3):  # bounded: a run the kill came too late for ends the round
            now = len(_applied(backend, url))
            if now == len(names):
                break
            child = subprocess.Popen([*_start(), "--db", url, "migrate"], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            try:
                at = rnd.randrange(now, len(names))  # the migration the kill falls in
                for _ in range(6000):  # bounded (30 s)
                    if child.poll() is not None or len(_applied(backend, url)) >= at:
                        break
                    time.sleep(0.005)
                time.sleep(rnd.uniform(0.8, 1.2) * opening if at == now else 0)
                time.sleep(rnd.uniform(0, migrating / (len(names) - start)))
                child.send_signal(signal.SIGKILL)
                child.communicate(timeout=120)
            finally:
                if child.poll() is None:
                    child.kill()
                    child.communicate(timeout=60)
            if backend == "postgres":
                _orphans_gone(url)
            applied = _applied(backend, url)
            assert applied == names[:len(applied)]
            assert _messages(backend, url) == messages
            if backend == "sqlite":
                con = sqlite3.connect(url)
                assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                con.close()
        _migrate(url)
        assert _everything(backend, url) == want


def _orphans_gone(url: str) -> None:
    """Wait (bounded) until the killed client's server process has rolled back and left."""
    import psycopg

    for _ in range(1000):
        with psycopg.connect(url, autocommit=True) as watch:
            if not watch.execute("SELECT count(*) FROM pg_stat_activity WHERE datname ="
                                 " current_database() AND application_name = 'memlane'"
                                 ).fetchone()[0]:
                return
        time.sleep(0.01)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_two_processes_opening_an_old_database_at_once_migrate_it_once(
        backend: str, tmp_path: Any, request: pytest.FixtureRequest) -> None:
    """Two `memlane migrate` started together on one old database: both exit 0, each
    migration is recorded once and applied once (every table's rows are those of one run),
    and between them the two report every pending migration once."""
    url = _url(backend, "twice", tmp_path, request)
    _old_database(backend, url)
    names = [m.name for m in load_migrations(_package(backend))]
    pending = names[len(_applied(backend, url)):]
    ref = _copy(backend, url, "ref", request)
    _migrate(ref)
    want = _everything(backend, ref)
    began = time.monotonic()
    _migrate(ref)  # nothing left to apply: a process's start and open
    opening = time.monotonic() - began
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    holder, _ = _connect(backend, url)  # held until both wait for it (PostgreSQL: seen)
    try:
        if backend == "sqlite":
            holder.execute("BEGIN IMMEDIATE")
        else:
            from memlane.store.postgres.db import LOCK_MIGRATE

            holder.execute("SELECT pg_advisory_lock(%s, 0)", (LOCK_MIGRATE,))
        procs = [subprocess.Popen([*_start(), "--db", url, "migrate", "--json"], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in range(2)]
        if backend == "sqlite":
            time.sleep(2 * opening + 0.5)  # both past their start (SQLite shows no waiter)
            holder.execute("COMMIT")
        else:
            for _ in range(6000):  # bounded (5 minutes): until both wait for our lock
                waiting = holder.execute(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                    " AND classid = %s", (LOCK_MIGRATE,)).fetchone()[0]
                if waiting == len(procs) or any(p.poll() is not None for p in procs):
                    break
                time.sleep(0.05)
            holder.execute("SELECT pg_advisory_unlock(%s, 0)", (LOCK_MIGRATE,))
    finally:
        holder.close()
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [o[1].decode()[-2000:] for o in outs]
    import json

    reported = [name for out, _ in outs for name in json.loads(out)["applied_now"]]
    assert sorted(reported) == pending
    assert _applied(backend, url) == names
    assert _everything(backend, url) == want
