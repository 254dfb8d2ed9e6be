"""``memlane mcp`` refuses an empty --scope or --allow (session 23): ``--scope ""`` (an
unset variable in a client's entry, ``--scope "$PROJECT"``) served calls without a scope
over every scope, and ``--allow ""`` started a server that could reach no scope and said
so on every call. An empty ``$MEMLANE_SCOPE`` stays "no default scope", as unset."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlane.serve.cli import cli


@pytest.mark.parametrize("args, option", [
    (["--scope", ""], "--scope"), (["--scope", "  "], "--scope"),
    (["--allow", ""], "--allow"), (["--allow", "team-*", "--allow", " "], "--allow"),
])
def test_an_empty_scope_or_pattern_is_a_usage_error_naming_the_option(tmp_path: Path, args,
                                                                         option) -> None:
    db = tmp_path / "m.db"
    r = CliRunner().invoke(cli, ["mcp", "--db", str(db), "--no-worker", *args], input="")
    assert r.exit_code == 2, r.output
    assert f"Invalid value for '{option}'" in r.output and "Traceback" not in r.output
    assert not db.exists()  # refused before anything was opened


def test_an_empty_memlane_scope_variable_is_no_default_scope(tmp_path: Path) -> None:
    env = {**os.environ, "MEMLANE_SCOPE": "", "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    done = subprocess.run([sys.executable, "-m", "memlane.serve.cli", "mcp", "--db",
                           str(tmp_path / "m.db"), "--no-worker"], input=b"", env=env,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    assert "Invalid value" not in done.stderr.decode()
