"""A database a newer memlane migrated, opened by this one: the CLI, `memlane serve` and
`memlane mcp` refuse it in one line naming both schema versions and what to do, exit 1, and
write nothing (docs/hardening.md, "Session 30: upgrades walked"). Real processes, a real
SQLite file and the PostgreSQL the tests start."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from memlane.store.migrations import load_migrations
from memlane.testing import memory
from tests.store.test_upgrades import CHILD, _connect, _package


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("command", [["sessions", "list"], ["search", "Lisbon"], ["migrate"],
                                     ["serve", "--port", "PORT", "--no-worker"], ["mcp"]],
                         ids=["sessions", "search", "migrate", "serve", "mcp"])
def test_a_database_of_a_newer_memlane_is_refused_naming_both_versions(
        db_url: str, command: list[str]) -> None:
    backend = "postgres" if db_url.startswith("postgresql") else "sqlite"
    ours = load_migrations(_package(backend))[-1].name
    theirs = f"{int(ours[:4]) + 1:04d}_from_a_newer_memlane"
    mem = memory(db_url)
    mem.add_message("alice", "user", "I live in Lisbon.", at="2024-05-01T00:00:00Z")
    mem.close()
    con, q = _connect(backend, db_url)
    con.execute(f"INSERT INTO schema_migrations VALUES ({q}, 'x', 0)", (theirs,))
    before = [tuple(r) for r in con.execute("SELECT * FROM messages ORDER BY id")]
    con.close()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
           "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    args = [str(_free_port()) if a == "PORT" else a for a in command]
    done = subprocess.run([sys.executable, "-c", CHILD, "--db", db_url, *args], env=env,
                          input=b"", capture_output=True, timeout=120, check=False)
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert (f"is at schema version {theirs}, newer than this memlane's {ours}" in err
            and "upgrade memlane. Nothing was written" in err), err
    assert "Traceback" not in err
    con, _ = _connect(backend, db_url)
    try:
        assert [tuple(r) for r in con.execute("SELECT * FROM messages ORDER BY id")] == before
        assert theirs in [r[0] for r in con.execute("SELECT name FROM schema_migrations")]
    finally:
        con.close()
