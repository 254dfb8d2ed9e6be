"""How many times ``memlane add TEXT --id ID`` looks its message up by id, with and without
``--at``, new and retried (session 34; docs/hardening.md, "Session 34: fix34").

    PYTHONPATH=src python tools/retry_lookups.py

Runs the CLI in this process on a fresh SQLite file and counts, with SQLite's own trace,
the statements ``SELECT … FROM messages WHERE scope = ? AND ext_id = ?`` each call sends
(the CLI's own ``stored_before``, and those inside ``add_message``). One line per call.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from click.testing import CliRunner

from memlane.serve.cli import cli


def main() -> None:
    seen = [0]
    connect = sqlite3.connect

    def traced(*args, **kwargs):  # type: ignore[no-untyped-def]
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(lambda sql: seen.__setitem__(0, seen[0] + (
            "ext_id = " in sql and sql.lstrip().upper().startswith("SELECT"))))
        return conn

    sqlite3.connect = traced  # type: ignore[assignment]
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "m.db")
        for name, extra in (("--at", ["--at", "2026-01-01T00:00:00Z"]), ("no --at", [])):
            for attempt in ("new", "retry"):
                seen[0] = 0
                got = runner.invoke(cli, ["--db", db, "add", "hello", "--scope", "s", "--id",
                                          f"m-{name}", *extra])
                assert got.exit_code == 0, got.output
                print(f"{name:8} {attempt:6} lookups by id: {seen[0]}")


if __name__ == "__main__":
    main()
