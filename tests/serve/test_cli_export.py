"""`memlane export | memlane import -`: every stored message comes out as an import line
and goes back in unchanged (there was no export: conversations could leave a database only
through `copy`, whole, into an empty one)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.errors import ConflictError, ValidationError
from memlane.serve.cli import cli
from memlane.testing import example_files, memory

ENV = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}


def _export(db: str, *args: str) -> list[dict]:
    result = CliRunner(env=ENV).invoke(cli, ["export", "--db", db, *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def _import(db: str, lines: list[dict]) -> str:
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in lines)
    result = CliRunner(env=ENV).invoke(cli, ["--db", db, "import", "-"], input=text)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_export_pipes_into_import_and_again_changes_nothing(tmp_path):
    one, two = str(tmp_path / "one.db"), str(tmp_path / "two.db")
    for f in example_files():
        CliRunner(env=ENV).invoke(cli, ["--db", one, "import", str(f)], catch_exceptions=False)
    lines = _export(one)
    assert len(lines) == 26 and lines[0]["at"].endswith("Z") and all("id" in row for row in lines)
    assert "imported 26 message(s)" in _import(two, lines)
    assert _export(two) == lines
    assert "imported 0 message(s), skipped 26" in _import(one, lines)  # ids: nothing twice
    only = _export(one, "--scope", "team-backend")
    assert {row["scope"] for row in only} == {"team-backend"} and len(only) == 10
    assert _export(one, "--scope", "nobody") == []
    as_one = CliRunner(env=ENV).invoke(cli, ["export", "--db", one, "--json"])
    assert json.loads(as_one.stdout) == lines  # one document: a list of the lines
    # ...which import reads back too (it was "line 1: column 1: not valid JSON")
    backup = tmp_path / "backup.json"
    backup.write_text(as_one.stdout)
    three = str(tmp_path / "three.db")
    again = CliRunner(env=ENV).invoke(cli, ["--db", three, "import", str(backup)])
    assert again.exit_code == 0 and "imported 26 message(s)" in again.stdout, again.output
    assert _export(three) == lines


def test_export_of_a_missing_database_or_a_bad_scope_is_an_error(tmp_path):
    runner = CliRunner(env=ENV)
    missing = runner.invoke(cli, ["export", "--db", str(tmp_path / "none.db")])
    assert missing.exit_code == 1 and "does not exist" in missing.stderr
    _import(str(tmp_path / "a.db"), [{"scope": "s", "role": "user", "text": "hi",
                                       "at": "2024-01-01T00:00:00Z"}])
    bad = runner.invoke(cli, ["export", "--db", str(tmp_path / "a.db"), "--scope", ""])
    assert bad.exit_code == 2 and "'--scope':" in bad.stderr


texts = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(str.strip)
messages = st.lists(st.tuples(
    st.sampled_from(["a", "b b", "ç-scope"]), st.sampled_from(["user", "assistant", "system", "tool"]),
    texts, st.integers(0, 10 ** 8), st.integers(0, 999_999), st.none() | st.sampled_from(["Ana", "Bo"]),
    st.none() | st.text("abc123", min_size=1, max_size=6), st.booleans(),
), max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=messages)
@example(rows=[("a", "user", "\ufeff", 0, 0, None, None, False),
               ("a", "user", "ok", 1, 0, None, None, False)])
@example(rows=[("a", "user", "one", 0, 0, None, None, False),
               ("a", "user", "two", 60, 0, None, None, True)])  # closed, a minute apart
def test_every_message_survives_export_and_import(tmp_path_factory, rows):
    """Any stored messages (any text, times to the microsecond, with and without ids and
    speakers, sessions closed by the gap or by close_session) are the same messages in the
    same sessions after export | import into an empty database (session 20: sessions a chat
    app closed within the gap of the next message came back as one)."""
    folder = tmp_path_factory.mktemp("export")
    one, two = str(folder / "one.db"), str(folder / "two.db")
    base = datetime(2020, 1, 1, tzinfo=UTC)
    with memory(folder / "one.db") as mem:
        for scope, role, text, seconds, micros, speaker, ext_id, close in rows:
            at = base + timedelta(seconds=seconds, microseconds=micros)
            if close:
                mem.close_session(scope)
            try:
                mem.add_message(scope, role, text, at, speaker=speaker, id=ext_id)
            except (ConflictError, ValidationError):  # an id already stored in the scope, or a text
                continue  # with nothing visible ("\ufeff"): not stored
        stored = mem.stats()["messages"]
    if not stored:
        return
    lines = _export(one)
    assert len(lines) == stored
    _import(two, lines)
    again = _export(two)
    as_list = CliRunner(env=ENV).invoke(cli, ["export", "--db", one, "--json"]).stdout
    three = CliRunner(env=ENV).invoke(cli, ["--db", str(folder / "three.db"), "import", "-"],
                                      input=as_list)
    assert three.exit_code == 0, three.output
    assert _export(str(folder / "three.db")) == again  # the --json list imports alike

    def key(row: dict) -> tuple:
        return tuple(sorted((k, v) for k, v in row.items() if k != "id" or not v.startswith("~")))

    assert sorted(map(key, again)) == sorted(map(key, lines))

    def sessions(db: str) -> list[list[tuple]]:
        with memory(db) as mem:
            return sorted([[(m.scope, m.role, m.text, m.at) for m in mem.messages(s.id)]
                           for s in mem.sessions(limit=1000)])

    assert sessions(two) == sessions(one)  # the same conversations, cut alike


def test_an_export_of_nothing_says_so_on_standard_error_only(cli_run):
    """Session 23: ``memlane export --scope chat-4`` (a mistyped scope) wrote an empty file
    and said nothing; standard output stays what import reads (nothing, or ``[]``)."""
    cli_run("add", "--scope", "chat-42", "--at", "2024-01-01T00:00:00Z", "hello")
    lines = cli_run("export", "--scope", "chat-4")
    assert lines.stdout == "" and "nothing exported: scope 'chat-4' holds no messages" in lines.stderr
    listed = cli_run("export", "--scope", "chat-4", "--json")
    assert json.loads(listed.stdout) == [] and "nothing exported" in listed.stderr
    full = cli_run("export", "--scope", "chat-42")
    assert full.stdout.count("\n") == 1 and "nothing exported" not in full.stderr
