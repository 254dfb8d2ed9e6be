"""Upgrades: a database of every older schema (the shipped migrations applied up to N, with
sessions, messages and items in it) migrates to head with nothing lost, on SQLite and
PostgreSQL; `memlane migrate` killed with SIGKILL inside a PostgreSQL migration's transaction
leaves the old version with every row as it was, and run again completes. Real processes, real
SQLite files and the PostgreSQL the tests start."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from typing import Any

import pytest

from memlane.store.migrations import load_migrations
from memlane.testing import memory

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

TEXTS = ["the café in Zürich", "plain ascii words about billing", "zero\u200bwidth notes",
         "ΣΊΣΥΦΟΣ rolls", "Lisbon is home now"]
FILLER = 2_000  # rows that 0014 writes again (their text is not ASCII)
CHILD = "from memlane.serve.cli import main; main()"


def _package(backend: str) -> str:
    return f"memlane.store.{backend}"


def _connect(backend: str, url: str) -> tuple[Any, str]:
    """An autocommit connection to the old database written by ``_apply_until``, and its
    parameter placeholder (rows a test adds by hand in an older schema)."""
    if backend == "sqlite":
        return sqlite3.connect(url, isolation_level=None), "?"
    import psycopg

    return psycopg.connect(url, autocommit=True), "%s"


def _apply_until(backend: str, url: str, last: str, filler: int = FILLER) -> None:
    """Apply the shipped migrations up to ``last`` (as an older memlane did), then store
    sessions, messages and items with the columns every version has."""
    migs = [m for m in load_migrations(_package(backend)) if m.name <= last]
    if backend == "sqlite":
        con = sqlite3.connect(url, isolation_level=None)
        con.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, sha256 TEXT NOT NULL,"
                    " applied_at REAL NOT NULL)")
        for m in migs:
            con.executescript("BEGIN;" + m.sql + f"\n;INSERT INTO schema_migrations VALUES "
                              f"('{m.name}', '{m.sha256}', 0); COMMIT;")
        run = con.execute
    else:
        import psycopg

        con = psycopg.connect(url, autocommit=True)
        con.execute("CREATE TABLE schema_migrations (name text PRIMARY KEY, sha256 text NOT NULL,"
                    " applied_at double precision NOT NULL)")
        for m in migs:
            with con.transaction():
                con.execute(m.sql)
                con.execute("INSERT INTO schema_migrations VALUES (%s, %s, 0)",
                            (m.name, m.sha256))

        def run(sql, params=()):  # type: ignore[no-untyped-def]
            return con.execute(sql.replace("?", "%s"), params)
    for s, scope in enumerate(["alice", "bob"]):
        run("INSERT INTO sessions (id, scope, status, started_at, ended_at, message_count,"
            " created_at) VALUES (?, ?, 'closed', 0, 10, ?, 0)", (s + 1, scope, len(TEXTS)))
        for i, text in enumerate(TEXTS):
            run("INSERT INTO messages (session_id, scope, seq, role, text, at) VALUES"
                " (?, ?, ?, 'user', ?, ?)", (s + 1, scope, i + 1, text, float(i)))
            run("INSERT INTO items (kind, text, at, scope, created_at, updated_at) VALUES"
                " ('note', ?, ?, ?, 0, 0)", (f"{text} {scope}", float(i), scope))
    rows = [(f"filler {n} é{n % 97} word{n % 1013}", float(n), "filler") for n in range(filler)]
    sql = ("INSERT INTO items (kind, text, at, scope, created_at, updated_at) VALUES"
           " ('note', ?, ?, ?, 0, 0)")
    if backend == "sqlite":
        con.executemany(sql, rows)
    else:
        with con.cursor() as cur:
            cur.executemany(sql.replace("?", "%s"), rows)
    con.close()


def _state(backend: str, url: str) -> tuple[list[str], list[tuple]]:
    """Applied migrations and the stored rows (messages and items) of ``url``."""
    if backend == "sqlite":
        con = sqlite3.connect(url)
    else:
        import psycopg

        con = psycopg.connect(url, autocommit=True)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM schema_migrations ORDER BY name")]
        rows = list(con.execute("SELECT 'm', id, scope, seq, text, at FROM messages UNION ALL"
                                " SELECT 'i', id, scope, 0, text, at FROM items ORDER BY 1, 2"))
        return names, [tuple(r) for r in rows]
    finally:
        con.close()


def _migrate(url: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", CHILD, "--db", url, "migrate"], env=env,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()


@pytest.mark.parametrize("last", ["0009_add_messages", "0013_summary_deferrals"])
def test_a_postgres_migration_killed_inside_its_transaction_leaves_the_old_version(
        last, postgres_server_url):
    """The child is stopped inside the first migration that writes ``items`` (0014 rewrites
    every item's lexical row): this test holds a SHARE lock on ``items``, so that migration
    waits after its first statements ran in its transaction. SIGKILL then, the lock released:
    the database is at ``last`` with every row as it was, and `memlane migrate` completes."""
    import psycopg

    from memlane.testing.postgres import create_database

    url = create_database(postgres_server_url, f"killed_{os.getpid()}_{last[:4]}")
    _apply_until("postgres", url, last)
    names = [m.name for m in load_migrations(_package("postgres"))]
    before_names, before_rows = _state("postgres", url)
    with psycopg.connect(url) as holder:
        holder.execute("LOCK TABLE items IN SHARE MODE")  # held until the block ends
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        child = subprocess.Popen([sys.executable, "-c", CHILD, "--db", url, "migrate"],
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            waiting = False
            for _ in range(3000):  # bounded: until the child waits for our lock
                with psycopg.connect(url, autocommit=True) as watch:
                    waiting = bool(watch.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                        " AND application_name = 'memlane' AND wait_event_type = 'Lock'"
                    ).fetchone()[0])
                if waiting or child.poll() is not None:
                    break
                time.sleep(0.01)
            assert waiting, child.communicate(timeout=60)
            child.send_signal(signal.SIGKILL)
            child.communicate(timeout=60)
        finally:
            if child.poll() is None:
                child.kill()
                child.communicate(timeout=60)
        holder.rollback()
    # the orphaned server process finishes its statement, then finds its client gone
    for _ in range(1000):
        with psycopg.connect(url, autocommit=True) as watch:
            if not watch.execute("SELECT count(*) FROM pg_stat_activity WHERE datname ="
                                 " current_database() AND application_name = 'memlane'"
                                 ).fetchone()[0]:
                break
        time.sleep(0.01)
    # the migrations before the one that waited are applied whole, that one not at all
    now_names, now_rows = _state("postgres", url)
    assert before_names == now_names[:len(before_names)] == names[:len(before_names)]
    assert now_names == names[:len(now_names)] and len(now_names) < len(names)
    assert now_rows == before_rows
    _migrate(url)
    assert _state("postgres", url) == (names, before_rows)
    m = memory(url)
    try:
        assert [i for i, _ in m.store.lexical_search(["cafe"], _filters("alice"), 5)] == [1]
        assert m.stats()["messages"] == 2 * len(TEXTS)
    finally:
        m.close()


def _filters(scope: str):  # type: ignore[no-untyped-def]
    from memlane.store import Filters

    return Filters(scope=scope)


_LEVELS = [(b, m.name) for b in ("sqlite", "postgres")
           for m in load_migrations(_package(b))[:-1]]


@pytest.mark.parametrize("backend, last", _LEVELS, ids=[f"{b}-{n[:4]}" for b, n in _LEVELS])
def test_a_database_of_every_older_schema_migrates_to_head_with_nothing_lost(
        backend, last, tmp_path, request):
    """Sessions, messages and items stored at schema ``last`` (the columns every version
    has) are all there, unchanged, after `memlane migrate`; the sessions are then indexed
    and summarized, and search finds their turns."""
    if backend == "sqlite":
        url = str(tmp_path / "old.db")
    else:
        from memlane.testing.postgres import create_database

        url = create_database(request.getfixturevalue("postgres_server_url"),
                              f"level_{os.getpid()}_{last[:4]}")
    _apply_until(backend, url, last, filler=0)
    names = [m.name for m in load_migrations(_package(backend))]
    _, rows = _state(backend, url)
    _migrate(url)
    assert _state(backend, url) == (names, rows)
    m = memory(url)
    try:
        report = m.index(now="2030-01-01T00:00:00Z")
        assert report.sessions_indexed == 2
        assert {s.status for s in m.sessions()} == {"summarized"}
        hits = m.search("Lisbon home", scope="bob")
        assert any("Lisbon" in h.item.text and h.item.kind == "turn" for h in hits)
        assert m.stats()["messages"] == 2 * len(TEXTS)
    finally:
        m.close()
