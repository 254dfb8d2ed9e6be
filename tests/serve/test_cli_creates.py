"""README: "`add`, `import`, `worker`, `serve`, `mcp` and `keys create` create [the database]
and say so on stderr" — `memlane mcp` created it without a word."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

LINE = '{"scope": "s", "role": "user", "text": "hi", "at": "2024-01-01T00:00:00Z"}\n'


@pytest.mark.parametrize(("args", "stdin"), [
    (["add", "--scope", "s", "hi"], b""),
    (["import", "-"], LINE.encode()),
    (["keys", "create", "--scopes", "*"], b""),
    (["mcp", "--no-worker"], b""),  # standard input closed: the server ends at once
])
def test_each_command_that_creates_the_database_says_so_on_stderr(tmp_path, args, stdin):
    db = tmp_path / "new.db"
    env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    done = subprocess.run([sys.executable, "-m", "memlane.serve.cli", *args, "--db", str(db)],
                          input=stdin, env=env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"created database {db}".encode() in done.stderr
    assert b"created database" not in done.stdout  # mcp: stdout is the protocol's alone
    assert db.exists()
