"""Session 26: ``memlane bench ingest --db`` and ``bench serve --db`` printed the scratch
PostgreSQL URL as given, password and all ("filling and starting memlane serve on
postgresql://postgres:pw@…"), on standard error, where CI logs keep it. Every bench command
that takes ``--db`` now shows it masked, as every other command does."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from memlane.serve.cli import cli

pytest.importorskip("psycopg")

SECRET = "Bx7benchsecret"


@pytest.mark.parametrize("args", [
    ["bench", "ingest", "--items", "10", "--queries", "2", "--embedder", "static"],
    ["bench", "serve", "--seconds", "1", "--clients", "1", "--mix", "search"],
], ids=["ingest", "serve"])
def test_bench_commands_never_print_the_databases_password(pg_url, args):
    url = pg_url.replace("postgres@", f"postgres:{SECRET}@", 1)  # the test server trusts loopback
    out = CliRunner().invoke(cli, [*args, "--db", url])
    assert out.exit_code == 0, out.output
    shown = out.output + (out.stderr or "")
    assert SECRET not in shown, shown
    assert pg_url.split("@", 1)[1] in shown  # the database is still named
