"""``--text`` and ``--json`` mean one thing on every pack command (session 21).

``memlane pack --text`` printed the paste-ready context, but ``memlane packs show ID``, the
replay of the same pack, had no ``--text`` ("No such option"); and ``pack --text --json``
printed JSON, dropping ``--text`` without a word. Both commands now take ``--text``, and
the two together are a usage error naming ``--text`` (in the JSON error's ``field`` too).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.testing import example_files

ENV = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("formats") / "f.db")
    runner = CliRunner(env=ENV)
    for f in example_files():
        assert runner.invoke(cli, ["--db", path, "import", str(f)]).exit_code == 0
    assert runner.invoke(cli, ["--db", path, "index", "--now", "2024-06-01T00:00:00Z"]).exit_code == 0
    return path


def test_packs_show_text_prints_the_journaled_context_alone(db):
    runner = CliRunner(env=ENV)
    built = runner.invoke(cli, ["--db", db, "pack", "what about my cat?", "--scope",
                                "alice-assistant", "--now", "2024-06-01T00:00:00Z", "--json"])
    pack = json.loads(built.stdout)
    shown = runner.invoke(cli, ["--db", db, "packs", "show", str(pack["id"]), "--text"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == pack["text"] + "\n" and "candidates kept" not in shown.stdout


@pytest.mark.parametrize("args", [["pack", "cat", "--text", "--json"], ["--json", "pack", "cat", "--text"],
                                  ["packs", "show", "1", "--json", "--text"]], ids=" ".join)
def test_text_and_json_together_are_a_usage_error_naming_text(db, args):
    done = CliRunner(env=ENV).invoke(cli, ["--db", db, *args])
    assert done.exit_code == 2, done.output
    assert json.loads(done.stdout)["error"]["field"] == "--text"
    assert "not both" in done.stderr
