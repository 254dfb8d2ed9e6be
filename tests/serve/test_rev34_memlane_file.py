"""Session 34 (rev34): another program's SQLite database that keeps a ``schema_migrations``
table of its own (Rails, Ecto, golang-migrate: ``version``; or one shaped as memlane's,
naming other migrations) is refused before memlane opens it, as any other program's is
(docs/hardening.md, "Session 34: rev34"). Session 33's check took any table of that name
for memlane's: the command ended on "query failed: no such column: name", or migrated
the file."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.cli import cli

#: commands that read, write, create and migrate --db
_OPENERS: list[list[str]] = [
    ["search", "lisbon"], ["stats"], ["sessions", "list"], ["export"], ["gc"],
    ["add", "--scope", "s", "hello"], ["migrate"], ["migrate", "--show"],
]

#: the ``schema_migrations`` of other tools: its columns, a row of it
_LAYOUTS: list[tuple[str, tuple[object, ...]]] = [
    ("version varchar PRIMARY KEY", ("20240101120000",)),  # Rails
    ("version bigint PRIMARY KEY, dirty boolean", (3, 0)),  # golang-migrate
    ("version bigint PRIMARY KEY, inserted_at text", (20240101, "2024-01-01")),  # Ecto
    ("name text PRIMARY KEY, sha256 text, applied_at real", ("create_users", "ab", 1.0)),
]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=st.sampled_from(_LAYOUTS), args=st.sampled_from(_OPENERS),
       others=st.lists(st.sampled_from(["users", "orders", "ar_internal_metadata", "notes"]),
                       max_size=3, unique=True))
def test_another_programs_schema_migrations_is_not_memlanes(tmp_path_factory, layout, args, others):
    app = tmp_path_factory.mktemp("foreign") / "app.db"
    columns, row = layout
    with sqlite3.connect(app) as con:
        con.execute(f"CREATE TABLE schema_migrations ({columns})")
        con.execute(f"INSERT INTO schema_migrations VALUES ({', '.join('?' * len(row))})", row)
        for name in others:
            con.execute(f"CREATE TABLE {name} (x)")
    con.close()
    before = _digest(app)
    res = CliRunner().invoke(cli, ["--db", str(app), *args])
    assert res.exit_code == 1, res.output
    assert f"--db: {app} is a SQLite database of another program" in res.output, res.output
    assert "no such column" not in res.output
    assert _digest(app) == before


def test_a_memlane_file_whose_first_migration_did_not_commit_is_still_memlanes(tmp_path):
    """An empty ``schema_migrations`` of memlane's columns, alone: the file of a memlane that
    was killed before its first migration committed; opening it migrates it."""
    db = tmp_path / "m.db"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, sha256 TEXT NOT NULL,"
                    " applied_at REAL NOT NULL)")
    con.close()
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", str(db), "add", "--scope", "s", "hello"]).exit_code == 0
    res = runner.invoke(cli, ["--db", str(db), "sessions", "list"])
    assert res.exit_code == 0 and "1 msg" in res.output, res.output


def test_a_memlane_database_with_a_table_of_the_users_own_opens(tmp_path):
    db = tmp_path / "m.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", str(db), "add", "--scope", "s", "hello"]).exit_code == 0
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE my_notes (x)")
    con.close()
    res = runner.invoke(cli, ["--db", str(db), "sessions", "list"])
    assert res.exit_code == 0 and "1 msg" in res.output, res.output
