"""``memlane forget --scope`` and ``memlane sessions forget`` (docs/erasure.md): real
database files; the confirmation asked on a real pseudo-terminal."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest


@pytest.fixture
def run(cli_run):
    for scope in ("alice", "bob"):
        for text in ("I moved to Zorblaxville", "my sister lives there"):
            cli_run("add", f"{text} ({scope})", "--scope", scope, "--at", "2024-03-01T10:00:00Z")
        cli_run("sessions", "close", "--scope", scope)
    cli_run("index", "--now", "2024-06-01T00:00:00Z")
    return cli_run


def _sessions(run, scope: str) -> list[dict]:
    return json.loads(run("sessions", "list", "--scope", scope, "--json").stdout)


def test_forget_scope_needs_yes_without_a_terminal(run) -> None:
    r = run("forget", "--scope", "alice", code=1)
    assert "nothing erased: pass --yes" in r.output
    assert len(_sessions(run, "alice")) == 1
    out = run("forget", "--scope", "alice", "--yes").output
    assert out.startswith("erased scope 'alice': sessions 1, messages 2, items ")
    assert _sessions(run, "alice") == [] and len(_sessions(run, "bob")) == 1
    again = json.loads(run("forget", "--scope", "alice", "--yes", "--json").stdout)
    assert again == {"scope": "alice", "session_id": None, "erased": False,
                     "counts": {k: 0 for k in again["counts"]}}
    assert run("forget", "--scope", "alice", "--yes").output.strip() \
        == "scope 'alice' holds nothing: nothing erased"
    assert "'--scope': must be" in run("forget", "--scope", " ", "--yes", code=2).output


def test_sessions_forget(run) -> None:
    [s] = _sessions(run, "bob")
    r = run("sessions", "forget", str(s["id"]), code=1)
    assert "nothing erased" in r.output
    out = json.loads(run("sessions", "forget", str(s["id"]), "--yes", "--json").stdout)
    assert out["session_id"] == s["id"] and out["scope"] == "bob" and out["erased"]
    assert out["counts"]["sessions"] == 1 and out["counts"]["messages"] == 2
    assert _sessions(run, "bob") == []
    gone = run("sessions", "forget", str(s["id"]), "--yes", code=1).output
    assert f"session {s['id']} does not exist" in gone
    assert "'SESSION_ID': must be" in run("sessions", "forget", "--yes", "--", "-3", code=2).output
    run("sessions", "forget", "x", "--yes", code=2)
    res = json.loads(run("search", "Zorblaxville", "--json").stdout)
    assert {h["item"]["scope"] for h in res["hits"]} == {"alice"}


def _on_a_terminal(args: list[str], answer: str, cwd: Path) -> str:
    """Run the CLI with a pseudo-terminal as stdin/stdout, answer its prompt."""
    main, other = os.openpty()
    env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing",
           "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    proc = subprocess.Popen([sys.executable, "-m", "memlane.serve.cli", *args], stdin=other,
                            stdout=other, stderr=other, cwd=cwd, env=env)
    os.close(other)
    seen = b""
    deadline = time.monotonic() + 60
    while b"[y/N]" not in seen and time.monotonic() < deadline:
        if select.select([main], [], [], 1)[0]:
            seen += os.read(main, 4096)
    os.write(main, answer.encode() + b"\n")
    proc.wait(60)
    while select.select([main], [], [], 0.2)[0]:
        try:
            chunk = os.read(main, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(main)
    return seen.decode(errors="replace") + f"\nexit {proc.returncode}"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_the_prompt_on_a_terminal(run, tmp_path) -> None:
    args = ["--db", str(tmp_path / "cli.db"), "forget", "--scope", "alice"]
    out = _on_a_terminal(args, "n", tmp_path)
    assert "Erase everything memlane holds of scope 'alice'? This cannot be undone." in out
    assert "nothing erased" in out and out.endswith("exit 1")
    assert len(_sessions(run, "alice")) == 1
    out = _on_a_terminal(args, "y", tmp_path)
    assert "erased scope 'alice'" in out and out.endswith("exit 0")
    assert _sessions(run, "alice") == []
