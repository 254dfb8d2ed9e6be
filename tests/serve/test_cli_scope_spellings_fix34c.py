"""Every CLI command that takes ``--scope`` finds the scope in the spelling the database
holds it in, whichever spelling is typed (session 34, fix34c).

A database written before session 22 may hold a scope spelt otherwise than memlane spells
it now ("café" in NFD, ``team\\u200b``); a new one holds it in NFC, which a Mac's terminal
may type in NFD. ``add``, ``search`` and the rest of ``Memory`` look the scope up as stored
(``ingest.spellings``); ``memlane index --warm-meaning --scope`` passed it to the meaning
tier as typed and walked nothing, and ``memlane pack --scope team`` over ``team\u200b``
exited 2 (``Memory.pack`` gave the stored spelling to ``search``, which refused it). The walk below takes every command of the CLI that has a
``--scope`` option (found in the click app, so a new one is walked too, or fails here until
it is given its arguments) and runs it twice on copies of one database: with the scope as
stored and in the other spelling. Both runs must say the same and leave the same database.
"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.cli import cli
from memlane.testing import memory

# the arguments each command is run with beside ``--scope S`` (files are made by ``_files``)
ARGS: dict[str, list[str]] = {
    "add": ["the kettle is descaled", "--at", "2026-01-02T10:00:00Z"],
    "compact": [],
    "export": [],
    "facts history": ["alice", "lives_in"],
    "facts list": [],
    "forget": ["--yes"],
    "graph show": ["Lisbon"],
    "import": ["{lines}"],
    "index": ["--warm-meaning"],
    "pack": ["espresso machine"],
    "search": ["espresso machine"],
    "sessions close": [],
    "sessions list": [],
    "summarize": ["--last", "3"],
}
# commands with a scope option that names no stored scope: a key's scope patterns are
# matched in the one spelling (``keys.scope_matches``, tested in test_scope_spelling.py);
# ``mcp`` serves until its input ends and binds its tools' scope through ``Memory``
# (its own tests: tests/serve/test_mcp*.py)
NOT_WALKED = {"keys create": "--scopes", "mcp": "--scope"}


def _scoped_commands() -> dict[str, click.Command]:
    ctx = click.Context(cli)
    found: dict[str, click.Command] = {}

    def walk(group: click.Group, path: list[str]) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                walk(command, [*path, name])
            elif command is not None and any(
                    "scope" in opt for p in command.params for opt in p.opts):
                found[" ".join([*path, name])] = command

    walk(cli, [])
    return found


SCOPED = _scoped_commands()


def test_every_scoped_command_is_walked() -> None:
    """A new command with a scope option is walked (given its arguments in ARGS) or named in
    NOT_WALKED with its reason."""
    assert set(SCOPED) == set(ARGS) | set(NOT_WALKED)


def _make_database(db: Path, stored: str) -> None:
    """Messages, an indexed session, facts and an entity of one scope, written by memlane in
    the one spelling and then respelt ``stored`` in every table, as an older memlane
    wrote them (or as a new one writes them, when ``stored`` is the one spelling)."""
    canonical = unicodedata.normalize("NFC", stored).replace("\u200b", "")
    m = memory(db)
    try:
        for i, text in enumerate(["the espresso machine is broken", "the grinder hums loudly",
                                  "alice lives in Lisbon now"]):
            m.add_message(canonical, "user", text, at=1_700_000_000.0 + i)
        m.close_session(canonical)
        m.index()
        m.add_fact("alice", "lives_in", "Porto", scope=canonical, at=1_700_000_100.0)
        m.add_fact("alice", "lives_in", "Lisbon", scope=canonical, at=1_700_000_200.0)
        m.add_message(canonical, "user", "an open session's message", at=1_700_000_300.0)
    finally:
        m.close()
    if stored != canonical:
        con = sqlite3.connect(db)
        with con:  # the change feed's triggers log the respelling: not an old write, dropped
            (last,) = con.execute("SELECT coalesce(max(id), 0) FROM changes").fetchone()
            for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
                columns = {r[1] for r in con.execute(f'PRAGMA table_info("{table}")')}
                if "scope" in columns:
                    con.execute(f'UPDATE "{table}" SET scope = ? WHERE scope = ?',
                                (stored, canonical))
            con.execute("DELETE FROM changes WHERE id > ?", (last,))
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()


def _dump(db: Path) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every table's rows, in order, without the columns that hold the run's own time."""
    con = sqlite3.connect(db)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name NOT LIKE '%fts%' ORDER BY name")]
        out = []
        for t in tables:
            rows = [tuple(_timeless(v) for v in r) for r in con.execute(f'SELECT * FROM "{t}"')]
            out.append((t, sorted(rows, key=repr)))
        return out
    finally:
        con.close()


# times of the run itself (a lease's, a job's, a pack's "created" in milliseconds): the
# database's own are of 2023
_RUN_MS = re.compile(r"\b(17[5-9]|1[89]\d)\d{10}\b")


def _timeless(v: Any) -> Any:
    if isinstance(v, float) and v > 1_750_000_000.0:
        return "T"
    return _RUN_MS.sub("T", v) if isinstance(v, str) else v


# seconds taken, times of the run, and export's ids of messages stored without one (made of
# the scope as stored, so that an export of the same database says the same again)
_FIGURES = re.compile(r"\d+\.\d+s\b|\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?"
                      r"|~[0-9a-f]{24}")


def _run(db: Path, command: str, scope: str, tmp: Path) -> tuple[int, str]:
    args = [a.format(lines=str(tmp / "lines.jsonl")) for a in ARGS[command]]
    if command == "import":
        (tmp / "lines.jsonl").write_text(
            '{"role": "user", "text": "imported without a scope", "at": "2026-01-03T10:00:00Z"}\n',
            encoding="utf-8")
    result = CliRunner().invoke(cli, ["--db", str(db), *command.split(), *args, "--scope", scope],
                                catch_exceptions=False)
    # a table's columns are as wide as its widest scope, which NFD spells longer
    return result.exit_code, " ".join(_FIGURES.sub("<t>", result.output).split())


WORDS = st.sampled_from(["café", "Zoë", "naïve-team", "crème brûlée", "résumé 2"])
# (stored, typed): an old database's NFD or zero-width spelling typed in the one spelling,
# and a new database's NFC typed in NFD
SPELLINGS = WORDS.flatmap(lambda w: st.sampled_from([
    (unicodedata.normalize("NFD", w), w),
    (w + "\u200b", w),
    (w, unicodedata.normalize("NFD", w)),
]))


@pytest.fixture
def hashing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MEMLANE_EMBEDDING_BACKEND", "hashing")
    yield


@pytest.mark.parametrize("command", sorted(ARGS))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spelling=SPELLINGS)
def test_a_scoped_command_finds_the_scope_as_stored(
        command: str, spelling: tuple[str, str], tmp_path_factory: pytest.TempPathFactory,
        hashing: None) -> None:
    """The command typed ``typed`` over a database holding ``stored`` says and does what it
    says and does typed in the one spelling over a database holding the one spelling (an
    old spelling such as ``café\u200b`` cannot be typed: it is refused)."""
    stored, typed = spelling
    canonical = unicodedata.normalize("NFC", typed)
    tmp = tmp_path_factory.mktemp("spell")
    runs = {}
    for name, held, given_as in (("one", canonical, canonical), ("other", stored, typed)):
        db = tmp / f"{name}.db"
        _make_database(db, held)
        code, said = _run(db, command, given_as, tmp)
        runs[name] = (code, _respelt(said, held, canonical), _respelt(_dump(db), held, canonical))
    code, said, rows = runs["one"]
    assert code == 0, said
    assert "holds nothing" not in said and "no session" not in said, said
    assert runs["other"][:2] == (code, said), f"{command} --scope {typed!r} over {stored!r}"
    assert runs["other"][2] == rows, f"{command} --scope {typed!r} left another database"


def _respelt(value: Any, held: str, canonical: str) -> Any:
    """``value`` with the stored spelling written in the one spelling (as text and as the
    escapes of a repr or of JSON)."""
    if isinstance(value, str):
        for old in {held, repr(held)[1:-1], json.dumps(held)[1:-1]}:
            value = value.replace(old, canonical)
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(_respelt(v, held, canonical) for v in value)
    return value


def test_pack_over_an_old_spelling_holding_a_format_character(db_url: str) -> None:
    """``Memory.pack`` looked ``team`` up as stored (``team\\u200b``) and gave that to
    ``search``, which checked it again and refused it: ``memlane pack --scope team`` over a
    database written before session 22 exited 2 naming U+200B. A scope typed with the
    format character is still refused, even one the database holds."""
    from memlane.errors import ValidationError
    from memlane.store import open_store

    store = open_store(db_url)
    try:
        store.add_message("team\u200b", "user", "the deploy key rotates monthly", 1_700_000_000.0,
                          gap=3600.0, speaker=None, ext_id=None, agent=None, project=None,
                          redactions=0)
    finally:
        store.close()
    m = memory(db_url)
    try:
        m.close_session("team")
        m.index()
        p = m.pack("deploy key", scope="team")
        assert "the deploy key rotates monthly" in p.text
        assert "the deploy key rotates monthly" in m.format_context("team", "deploy key").text
        for typed in ("team\u200b", "bob\u200b"):  # a caller's own is refused, held or not
            with pytest.raises(ValidationError) as e:
                m.pack("deploy key", scope=typed)
            assert e.value.field == "scope"
    finally:
        m.close()
