"""Session 25: a new user's walk of the command line.

A database location refused, or a database that cannot be opened, is named as the user gave
it on every command, in the message and as ``--json``'s ``field``: ``memlane copy --to DIR``
said ``db: DIR is a folder`` (``field: null``) and ``copy --to missing/x.db`` told the user to
"pass another --db", an option ``copy`` refuses; ``--db DIR`` said ``db:`` too; ``migrate
--show`` on a folder listed every migration as pending, exit 0.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.cli import cli
from memlane.testing import memory

BAD = ["folder", "missing folder", "not a database", "empty", "query"]
ORIGINS = ["--db", "MEMLANE_DB", "memory.db", "--from", "--to"]
COMMANDS = [["stats"], ["add", "hello", "--scope", "s"], ["migrate"], ["migrate", "--show"],
            ["sessions", "list"], ["keys", "create", "--scopes", "*"]]


def _location(bad: str, folder: Path) -> str:
    (folder / "adir").mkdir(exist_ok=True)
    (folder / "junk.db").write_text("not a database at all")
    return {"folder": "adir", "missing folder": "nodir/x.db", "not a database": "junk.db",
            "empty": "", "query": "x.db?cache=shared"}[bad]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bad=st.sampled_from(BAD), origin=st.sampled_from(ORIGINS), command=st.sampled_from(COMMANDS))
def test_a_refused_database_location_is_named_as_the_user_gave_it(tmp_path: Path, bad: str,
                                                                     origin: str, command: list[str]) -> None:
    folder = tmp_path / f"{ORIGINS.index(origin)}-{BAD.index(bad)}-{COMMANDS.index(command)}"
    folder.mkdir(exist_ok=True)
    location = _location(bad, folder)
    (folder / "memlane.toml").write_text("")
    env = {"MEMLANE_CONFIG": str(folder / "memlane.toml"), "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    if origin in ("--from", "--to"):
        if bad == "empty" and origin == "--from":
            return  # --from '' --to x: the two differ; '' is refused as for --to
        good = str(folder / "source.db")
        with memory(good) as mem:
            mem.add_message("s", "user", "hello", at="2024-03-04T09:00:00Z")
        ends = {"--from": location, "--to": str(folder / "new.db")} if origin == "--from" else \
            {"--from": good, "--to": location}
        args = ["copy", "--from", ends["--from"], "--to", ends["--to"]]
    elif origin == "--db":
        args = ["--db", location, *command]
    elif origin == "MEMLANE_DB":
        env["MEMLANE_DB"] = location
        args = list(command)
    else:
        (folder / "memlane.toml").write_text(f'[memory]\ndb = "{location}"\n')
        args = list(command)
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        before = sorted(p.name for p in folder.iterdir())
        r = CliRunner().invoke(cli, [*args, "--json"], env=env)
        after = sorted(p.name for p in folder.iterdir())
    finally:
        os.chdir(cwd)
    assert r.exit_code == 1, (args, r.exit_code, r.output)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    error = json.loads(r.stdout)["error"]
    assert error["field"] == origin, (args, error)
    assert error["message"].startswith(f"{origin}: ") or "opening" in error["message"] \
        or "reading" in error["message"] or "does not exist" in error["message"], error
    if origin in ("--from", "--to"):  # copy refuses --db: it must not be told to pass one
        assert "--db" not in error["message"] and "$MEMLANE_DB" not in error["message"], error
    assert after == before, "a refused location made a file"


def test_migrate_show_on_a_folder_is_refused_not_every_migration_pending(tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    r = CliRunner().invoke(cli, ["--db", str(tmp_path / "adir"), "migrate", "--show"])
    assert r.exit_code == 1, r.output
    assert "is a folder, not a database file" in r.stderr and "pending" not in r.stdout


@pytest.mark.parametrize("target", ["adir", "nodir/x.db"])
def test_copy_to_a_bad_target_names_to_and_advises_to(tmp_path: Path, target: str) -> None:
    (tmp_path / "adir").mkdir()
    source = tmp_path / "source.db"
    with memory(source) as mem:
        mem.add_message("s", "user", "hello", at="2024-03-04T09:00:00Z")
    r = CliRunner().invoke(cli, ["copy", "--from", str(source), "--to", str(tmp_path / target)])
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith("Error: --to: "), r.stderr
    assert "--db" not in r.stderr, r.stderr


@pytest.mark.parametrize("args", [["import", "a\x00b"], ["bench", "locomo", "--data", "a\x00b"],
                                  ["bench", "summaries", "--labels", "a\x00b"]], ids=lambda a: a[0] + " " + a[1])
def test_a_file_name_holding_a_nul_is_a_usage_error_naming_it(tmp_path: Path, args: list[str]) -> None:
    """``os.stat`` raised ValueError inside click's path check: a traceback, and ``--json``
    printed nothing (found by ``test_fuzz_cli``'s one-document property)."""
    r = CliRunner().invoke(cli, ["--db", str(tmp_path / "m.db"), *args] if args[0] == "import" else args)
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert "is not a file name (embedded null byte)" in r.stderr, r.stderr


@pytest.mark.parametrize("name", ["line one\nline two", "bell\x07", "x" * 257, "\ud800"])
def test_a_key_name_that_is_no_label_is_refused_naming_name(tmp_path: Path, name: str) -> None:
    """A newline in ``--name`` was stored and broke ``memlane keys list``'s table; a name of
    any length was kept. A key's name is a label, checked as a speaker's is."""
    db = str(tmp_path / "m.db")
    r = CliRunner().invoke(cli, ["--db", db, "keys", "create", "--scopes", "a", "--name", name, "--json"])
    assert r.exit_code == 2, r.output
    assert json.loads(r.stdout)["error"]["field"] == "--name", r.stdout
    assert "ml_" not in r.stdout
    listed = CliRunner().invoke(cli, ["--db", db, "keys", "list", "--json"])
    assert json.loads(listed.stdout) == [], listed.output


NOTHING = [["graph", "show", "Nobody"], ["facts", "history", "nobody", "nothing"],
           ["packs", "show", "999"], ["items", "show", "999"], ["sessions", "show", "999"],
           ["facts", "list", "--scope", "nobody"], ["export", "--scope", "nobody"],
           ["search", "zzzqqq", "--scope", "nobody"], ["sessions", "list", "--scope", "nobody"],
           ["facts", "forget", "999"], ["facts", "history", "user", "lives_in", "--scope", "nobody"]]


def test_a_command_answers_nothing_with_the_same_exit_status_with_and_without_json(tmp_path: Path) -> None:
    """``memlane facts history nobody x`` exited 1 ("no facts for …") while ``--json`` printed
    ``[]`` and exited 0 (the service answers ``{"history": []}``, MCP "no facts for …"): a
    script's test of the status depended on the output format. An empty history is now an
    answer everywhere, said on standard error; an unknown id is an error everywhere."""
    db = str(tmp_path / "m.db")
    env = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}
    CliRunner().invoke(cli, ["--db", db, "add", "hello", "--scope", "s"], env=env)
    for args in NOTHING:
        text = CliRunner().invoke(cli, ["--db", db, *args], env=env)
        as_json = CliRunner().invoke(cli, ["--db", db, *args, "--json"], env=env)
        assert text.exit_code == as_json.exit_code, (args, text.output, as_json.output)
        assert text.exit_code in (0, 1), (args, text.output)
    said = CliRunner().invoke(cli, ["--db", db, "facts", "history", "nobody", "nothing"], env=env)
    assert said.stdout == "" and "no facts for 'nobody' 'nothing'" in said.stderr

