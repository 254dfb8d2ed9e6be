"""Session 30's leftovers of the README walk: a whole-number option with a lower end only
says "at least N" (introspected: every such option and argument of every command); a created
database is named by its absolute path."""

from __future__ import annotations

import contextlib
from typing import Any
import os
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from memlane.ingest.validate import INT64_MAX
from memlane.serve.cli import cli
from memlane.serve.cli_common import Int
from memlane.testing import cli_commands

ENV = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}
LOW_ONLY = [(path, command, param) for path, command in cli_commands() for param in command.params
            if isinstance(param.type, Int) and param.type.max == INT64_MAX
            and param.type.min is not None and param.type.min > -INT64_MAX - 1]


@pytest.mark.parametrize(("path", "command", "param"), LOW_ONLY,
                         ids=[" ".join((*p, q.name or "")) for p, _, q in LOW_ONLY])
def test_an_option_with_a_lower_end_only_says_at_least_when_refused(tmp_path, path, command, param):
    """``search q --offset -1`` said ``must be an integer from 0 to 9223372036854775807``
    where ``--help`` says ``[at least 0]``: each such value below its end, and past 64 bits."""
    assert len(LOW_ONLY) >= 10, LOW_ONLY
    low = param.type.min
    runner = CliRunner(env={**ENV, "MEMLANE_DB": str(tmp_path / "m.db")})
    for value in (str(low - 1), str(INT64_MAX + 1), "zz"):
        given = [param.opts[0], value] if isinstance(param, click.Option) else [value]
        with contextlib.chdir(tmp_path):
            result = runner.invoke(cli, [*path, *given])
        assert result.exit_code == 2, (value, result.output)
        past = " that 64 bits hold" if value == str(INT64_MAX + 1) else ""  # (session 32)
        assert f"must be an integer of at least {low}{past}, got" in result.stderr, (value, result.output)
        assert str(INT64_MAX) not in result.stderr, (value, result.output)


@pytest.mark.parametrize(("args", "stdin"), [
    (["add", "--scope", "s", "hi"], b""),
    (["import", "-"], b'{"scope": "s", "role": "user", "text": "hi", "at": "2024-01-01T00:00:00Z"}\n'),
    (["keys", "create", "--scopes", "*"], b""),
    (["mcp", "--no-worker"], b""),  # standard input closed: the server ends at once
], ids=["add", "import", "keys create", "mcp"])
def test_a_created_database_is_named_by_its_absolute_path(tmp_path, args, stdin):
    """``memlane mcp --db relative.db`` said ``created database relative.db``: an MCP
    client's log does not say which folder its server was started in (nor a script's)."""
    env = {**os.environ, **ENV}
    done = subprocess.run([sys.executable, "-m", "memlane.serve.cli", *args, "--db", "relative.db"],
                          input=stdin, env=env, cwd=tmp_path, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"created database {tmp_path.resolve() / 'relative.db'}\n".encode() in done.stderr, done.stderr
    assert (tmp_path / "relative.db").exists()


def test_recall_in_a_scope_of_one_item_shows_no_bm25_figure_that_reads_as_no_match(tmp_path):
    """``recall`` said ``words bm25 0.00 (#1)`` for the only item of a scope: SQLite's BM25
    of a word every row holds is about 1e-6 (its idf floor), a true raw score that, shown
    with two decimals, read as no match. A score under 0.005 is now not shown (session 31:
    shown as ``<0.01``, as every surface shows such a figure: ``explain.figure``)."""
    from tests.serve.test_mcp import call, server, talk

    async def body(c: Any) -> None:
        await call(c, "remember", {"text": "I ran the Lisbon half marathon", "scope": "one"})
        out = await call(c, "recall", {"query": "marathon", "scope": "one", "explain": True})
        assert "marathon" in out and "words bm25 <0.01 (#1)" in out, out
        assert "bm25 0.00" not in out, out

    talk(server(tmp_path, str(tmp_path / "m.db")), body)
