"""Session 33: the product walked as a new user (docs/hardening.md, "Session 33: ux33")."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.cli import cli

#: every way a command opens --db (or copy's --from / --to): reading, writing, creating
_OPENERS: list[list[str]] = [
    ["search", "lisbon"], ["stats"], ["sessions", "list"], ["pack", "lisbon"],
    ["facts", "list"], ["export"], ["index"], ["gc"], ["keys", "list"],
    ["add", "--scope", "s", "hello"], ["keys", "create", "--scopes", "*"], ["migrate"],
]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _foreign(path: Path, tables: list[str]) -> None:
    """A SQLite database of another program: its own tables, a row in each."""
    con = sqlite3.connect(path)
    for name in tables:
        con.execute(f'CREATE TABLE "{name}" (x)')
        con.execute(f'INSERT INTO "{name}" VALUES (?)', ("mine",))
    con.commit()
    con.close()


_names = st.lists(
    st.text(st.characters(min_codepoint=48, max_codepoint=122, categories=["L", "N"]),
            min_size=1, max_size=12).filter(lambda n: n.lower() != "schema_migrations"
                                            and not n.lower().startswith("sqlite")),
    min_size=1, max_size=7, unique_by=str.lower)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables=_names, args=st.sampled_from(_OPENERS))
def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path_factory, tables, args):
    """``memlane search --db app.db`` (any command) wrote memlane's twenty-odd tables into
    another program's SQLite database and answered as if it were an empty memory."""
    folder = tmp_path_factory.mktemp("foreign")
    app = folder / "app.db"
    _foreign(app, tables)
    before = _digest(app)
    res = CliRunner().invoke(cli, ["--db", str(app), *args])
    assert res.exit_code == 1, res.output
    assert f"--db: {app} is a SQLite database of another program" in res.output, res.output
    assert "give another --db" in res.output
    assert _digest(app) == before
    with sqlite3.connect(app) as con:
        assert sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master")) == sorted(tables)


@pytest.mark.parametrize("option", ["--from", "--to"])
def test_copy_refuses_another_programs_database_on_either_side(tmp_path, option):
    mine = tmp_path / "mine.db"
    assert CliRunner().invoke(cli, ["--db", str(mine), "add", "--scope", "s", "hello"]).exit_code == 0
    app = tmp_path / "app.db"
    _foreign(app, ["notes"])
    before = _digest(app)
    sides = {"--from": str(app), "--to": str(tmp_path / "new.db")} if option == "--from" else \
        {"--from": str(mine), "--to": str(app)}
    res = CliRunner().invoke(cli, ["copy", *(x for kv in sides.items() for x in kv)])
    assert res.exit_code == 1, res.output
    assert f"{option}: {app} is a SQLite database of another program (its tables: notes)" in res.output
    assert _digest(app) == before and not (tmp_path / "new.db").exists()


@pytest.mark.parametrize("args", [a for a in _OPENERS if a[0] not in {"add", "keys", "migrate"}
                                  or a == ["keys", "list"]])
def test_an_empty_file_is_no_database_to_read(tmp_path, args):
    """A command that reads refuses an empty file as it refuses a missing one (the README:
    "Commands that read need the database to exist"); it made the file a database."""
    empty = tmp_path / "memlane.db"
    empty.touch()
    res = CliRunner().invoke(cli, ["--db", str(empty), *args])
    assert res.exit_code == 1, res.output
    assert f"database {empty} is an empty file (0 bytes), not a memlane database yet" in res.output
    assert "`memlane add` or `memlane import` creates one" in res.output
    assert empty.stat().st_size == 0


def test_an_empty_file_becomes_the_database_of_a_command_that_writes(tmp_path):
    empty = tmp_path / "memlane.db"
    empty.touch()
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", str(empty), "add", "--scope", "s", "hello"]).exit_code == 0
    assert runner.invoke(cli, ["--db", str(empty), "stats"]).exit_code == 0


def test_copy_from_an_empty_file_copies_nothing_and_leaves_it_empty(tmp_path):
    """``memlane copy --from notes.jsonl --to m.db`` (an empty file given by mistake) turned
    the source into a SQLite database and said ``copied 0 session(s)…``."""
    source = tmp_path / "notes.jsonl"
    source.touch()
    res = CliRunner().invoke(cli, ["copy", "--from", str(source), "--to", str(tmp_path / "m.db")])
    assert res.exit_code == 1, res.output
    assert f"database {source} is an empty file (0 bytes), not a memlane database yet (check --from)" \
        in res.output
    assert source.stat().st_size == 0 and not (tmp_path / "m.db").exists()


def test_mcp_refuses_another_programs_database(tmp_path):
    """The MCP server, started as a client starts it (a real process)."""
    app = tmp_path / "app.db"
    _foreign(app, ["contacts", "notes"])
    before = _digest(app)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.run([sys.executable, "-m", "memlane", "mcp", "--db", str(app)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert f"--db: {app} is a SQLite database of another program (its tables: contacts, notes)" \
        in proc.stderr
    assert proc.stdout == "" and _digest(app) == before


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keys=st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()), min_size=2, max_size=5))
def test_keys_list_keeps_its_columns_whatever_the_rights_and_use(tmp_path_factory, keys):
    """``keys list`` wrote ``read-only`` (9 characters) where ``read-write`` is 10 and
    ``used -`` where a used key's date is 16: a read-only or never used key's row moved
    ``created`` and the state out of line with the other rows'."""
    import time

    from memlane.testing import memory

    folder = tmp_path_factory.mktemp("keys")
    runner = CliRunner(env={"MEMLANE_DB": str(folder / "m.db")})
    for i, (read_only, _, _) in enumerate(keys):
        args = ["keys", "create", "--scopes", "*", "--name", f"k{i}"]
        assert runner.invoke(cli, [*args, *(["--read-only"] if read_only else [])]).exit_code == 0
    with memory(folder / "m.db") as mem:  # what the service writes when a key is used
        for row, (_, used, revoked) in zip(mem.store.api_keys(), keys, strict=True):
            with mem.store.atomic():
                if used:
                    mem.store.touch_api_key(row["id"], time.time())
                if revoked:
                    mem.store.revoke_api_key(row["id"], time.time())
    lines = runner.invoke(cli, ["keys", "list"]).stdout.splitlines()
    assert len(lines) == len(keys)
    for column in ("  created ", "  used "):
        assert len({line.index(column) for line in lines}) == 1, lines
    assert len({line.index("  active") if "  active" in line else line.index("  revoked ")
                for line in lines}) == 1, lines


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(counts=st.lists(st.integers(1, 12), min_size=2, max_size=4))
def test_sessions_list_keeps_its_columns_whatever_the_message_counts(tmp_path_factory, counts):
    """``sessions list`` printed ``4 msg  indexed`` and ``11 msg  indexed``: a session of ten
    messages or more moved its row's last column out of line with the others'."""
    from memlane.testing import memory

    folder = tmp_path_factory.mktemp("rows")
    with memory(folder / "m.db") as mem:
        for i, n in enumerate(counts):
            for j in range(n):
                mem.add_message(f"s{i}", "user", f"message {j}", at=f"2024-0{1 + i}-01T10:{j:02d}:00Z")
            mem.close_session(f"s{i}")
        mem.index()
    lines = CliRunner().invoke(cli, ["--db", str(folder / "m.db"), "sessions", "list"]).stdout.splitlines()
    assert len(lines) == len(counts), lines
    assert len({line.index(" msg") for line in lines}) == 1, lines
    assert len({line.index("indexed") for line in lines}) == 1, lines


@pytest.mark.parametrize("as_json", [False, True])
def test_index_of_a_scope_holding_nothing_says_so(tmp_path, as_json):
    """``memlane index --scope chat-24`` (meaning chat-42) said ``indexed 0 session(s)`` and
    nothing else, where search, pack and export say the scope holds nothing."""
    db = str(tmp_path / "m.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", db, "add", "--scope", "chat-42", "hello"]).exit_code == 0
    flag = ["--json"] if as_json else []
    res = runner.invoke(cli, ["--db", db, "index", "--scope", "chat-24", *flag])
    assert res.exit_code == 0, res.output
    assert res.stderr.strip() == "scope 'chat-24' holds nothing: no session of it to index"
    held = runner.invoke(cli, ["--db", db, "index", "--scope", "chat-42", *flag])
    assert held.exit_code == 0 and "holds nothing" not in held.stderr


def test_migrate_says_when_it_made_the_database(tmp_path):
    """``memlane migrate --db new.db`` made the file without a word, where every other
    command that makes one says so on standard error (a mistyped path left a stray
    database behind unnoticed)."""
    db = tmp_path / "new.db"
    runner = CliRunner()
    first = runner.invoke(cli, ["--db", str(db), "migrate"])
    assert first.exit_code == 0, first.output
    assert first.stderr.strip() == f"created database {db}"
    again = runner.invoke(cli, ["--db", str(db), "migrate"])
    assert again.exit_code == 0 and again.stderr == ""
    shown = runner.invoke(cli, ["--db", str(tmp_path / "other.db"), "migrate", "--show"])
    assert shown.exit_code == 0 and shown.stderr == "" and not (tmp_path / "other.db").exists()
