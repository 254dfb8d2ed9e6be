"""A missing object's error names what addressed it, on the CLI and the service (session 21).

``memlane --json sessions show 9999`` and ``GET /v1/sessions/9999`` said "session 9999
does not exist" with ``field`` null, where a bad ``--limit`` or ``limit`` is named in
``field``: a script could not tell which of its inputs was wrong. The CLI now names the
argument (``session_id``, ``fact_id``, ``item_id``, ``pack_id``, ``key_id``, ``entity``), a
REST route its path parameter (``id``, ``entity``) and ``/actions`` the input
(``input.id``, ``input.entity``).
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
    path = str(tmp_path_factory.mktemp("nf") / "nf.db")
    runner = CliRunner(env=ENV)
    for f in example_files():
        assert runner.invoke(cli, ["--db", path, "import", str(f)]).exit_code == 0
    return path


@pytest.mark.parametrize(("args", "field"), [
    (["sessions", "show", "9999"], "session_id"), (["sessions", "forget", "9999"], "session_id"),
    (["facts", "forget", "9999"], "fact_id"), (["items", "show", "9999"], "item_id"),
    (["packs", "show", "9999"], "pack_id"), (["keys", "revoke", "9999"], "key_id"),
    (["graph", "show", "Nobody"], "entity"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_the_cli_names_the_argument_of_a_missing_object(db, args, field):
    done = CliRunner(env=ENV).invoke(cli, ["--db", db, "--json", *args])
    assert done.exit_code == 1, done.output
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "not_found" and error["field"] == field, error
