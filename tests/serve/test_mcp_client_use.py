"""``memlane mcp`` used as a coding assistant uses it (session 20, round 2): real server
processes on real SQLite files, the MCP SDK's own client where a client talks."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.serve.test_mcp import MEMLANE, SOURCE

ENV = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing", **SOURCE}
HELLO = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "pipe", "version": "1"}}}


def test_every_request_piped_in_is_answered_before_the_server_stops(tmp_path: Path):
    """A client that writes its requests and closes its end (``printf … | memlane mcp``)
    gets an answer to each, and each write is stored: the server stopped at end of input
    and dropped the answers still in the works (3 of 7 answered)."""
    db = tmp_path / "m.db"
    lines = [HELLO, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines += [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
               "params": {"name": "remember", "arguments": {"text": f"note {i}", "scope": "s"}}}
              for i in range(1, 9)]
    lines.append({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                  "params": {"name": "recall", "arguments": {"query": "note", "scope": "s"}}})
    done = subprocess.run([MEMLANE, "--db", str(db), "mcp"],  # the worker on, as by default
                          input="".join(json.dumps(x) + "\n" for x in lines), env=ENV,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    answers = {m["id"]: m for m in map(json.loads, done.stdout.splitlines())}
    assert sorted(answers) == list(range(10)), done.stdout
    assert all(not answers[i]["result"]["isError"] for i in range(1, 10))
    assert "hit(s) for 'note'" in answers[9]["result"]["content"][0]["text"]
    import sqlite3

    with sqlite3.connect(db) as con:
        texts = {t for (t,) in con.execute("select text from items")}
    assert texts == {f"note {i}" for i in range(1, 9)}
