"""The options session 27 gave the quieter commands, as a user runs them: `memlane index
--scope` (Memory.index(scope=) had it; the command indexed every scope), `memlane compact
--now` (Memory.compact(now=) had it) and the line a `compact --topic` that folds nothing
prints on standard error (it folded nothing without a word)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.testing import example_files

ENV = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}


def _run(*args: str) -> object:
    return CliRunner(env=ENV).invoke(cli, list(args), catch_exceptions=False)


def _db(tmp_path) -> str:
    db = str(tmp_path / "m.db")
    for f in example_files():
        assert _run("--db", db, "import", str(f)).exit_code == 0
    return db


def test_index_scope_indexes_that_scope_alone(tmp_path) -> None:
    db = _db(tmp_path)
    r = _run("--db", db, "index", "--scope", "team-backend", "--now", "2025-01-01T00:00:00Z",
             "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["sessions_indexed"] == 2
    listed = json.loads(_run("--db", db, "sessions", "list", "--json").stdout)
    indexed = {(s["scope"], s["indexed"]) for s in listed}
    assert indexed == {("team-backend", True), ("alice-assistant", False)}
    bad = _run("--db", db, "index", "--scope", " ")
    assert bad.exit_code == 2 and "'--scope'" in bad.output


def test_compact_now_and_a_topic_that_folds_nothing(tmp_path) -> None:
    db = _db(tmp_path)
    assert _run("--db", db, "index", "--now", "2025-01-01T00:00:00Z").exit_code == 0
    # as of a time before the conversations, no week has ended: no roll-up
    early = _run("--db", db, "compact", "--now", "2024-01-01T00:00:00Z", "--json")
    assert json.loads(early.stdout)["weekly_rollups"] == 0
    r = _run("--db", db, "compact", "--topic", "no such topic")
    assert r.exit_code == 0
    assert "topic 'no such topic': no active summary holds it" in r.stderr
    j = _run("--db", db, "compact", "--topic", "東京", "--json")
    assert j.exit_code == 0 and "no active summary holds it" in json.loads(j.stdout)["notice"]
    bad = _run("--db", db, "compact", "--now", "soon")
    assert bad.exit_code == 2 and "'--now'" in bad.output
