"""``memlane export`` moving a memory (session 28): the file keeps how each session ended,
and on a terminal the export says what it leaves behind (summaries, facts, entities, notes),
which a user moving a memory with ``export | import`` might think moved too."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.testing import memory
from tests.commands import succeeds

ENV = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}


def _export(db: Path, tty: bool) -> tuple[str, str]:
    """``memlane export`` (stdout, stderr), stderr on a pseudo-terminal when ``tty``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), **ENV}
    cmd = [sys.executable, "-m", "memlane", "--db", str(db), "export"]
    return succeeds(cmd, env, tty=tty)


def test_a_terminal_is_told_what_the_export_leaves_behind(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with memory(db) as mem:
        mem.add_message("chat", "user", "I moved to Lisbon", at="2024-03-04T09:12:00Z")
        out, err = _export(db, tty=True)
        assert "note:" not in err, err  # only messages: nothing is left behind
        mem.upsert("the user lives in Lisbon", kind="note", scope="chat")
    out, err = _export(db, tty=True)
    assert "note: only messages are exported" in err and "summaries" in err, err
    assert [json.loads(x)["text"] for x in out.splitlines()] == ["I moved to Lisbon"]
    out, err = _export(db, tty=False)  # a pipe or a file (cron mails what it reads there)
    assert err == "" and len(out.splitlines()) == 1, err


def test_export_pipes_how_sessions_ended_into_import(tmp_path: Path) -> None:
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    with memory(one) as mem:
        mem.add_message("chat", "user", "hello", at="2024-03-04T09:00:00Z")
        mem.close_session("chat")
        mem.add_message("chat", "user", "again", at="2024-03-04T09:05:00Z")
        mem.close_idle("2024-03-05T00:00:00Z")
    runner = CliRunner(env=ENV)
    lines = runner.invoke(cli, ["--db", str(one), "export"], catch_exceptions=False).stdout
    assert [json.loads(x)["closed"] for x in lines.splitlines()] == ["explicit", "idle"]
    for _ in range(2):  # the second time stores nothing new
        done = runner.invoke(cli, ["--db", str(two), "import", "-"], input=lines)
        assert done.exit_code == 0, done.output
    with memory(two) as mem:
        got = [(s.status, s.closed_reason, s.message_count) for s in mem.sessions("chat")]
    assert sorted(got) == [("closed", "explicit", 1), ("closed", "idle", 1)]
    again = runner.invoke(cli, ["--db", str(two), "export"], catch_exceptions=False).stdout
    assert again == lines
