"""What ``memlane index`` shows on a terminal while it works (session 25): a bar for the
turns, then one for the summaries, the longer part of a backlog, which showed nothing (the
turns' bar sat at 100% while hundreds of sessions were summarized). Nothing of either in
``--json`` or when standard error is not a terminal. A real process on a pseudo-terminal."""

from __future__ import annotations

import json
import os
import sys
from datetime import timedelta
from pathlib import Path

from memlane.bench.summaries.run import load_set, messages_of
from memlane.testing import memory
from tests.commands import succeeds

SESSIONS = 40


def _fill(db: Path) -> None:
    convs = load_set("dev")
    with memory(db) as mem:
        mem.add_messages([{"scope": f"c{k}", "role": m.role, "text": m.text,
                           "speaker": m.speaker, "at": m.at - timedelta(days=3000 - k)}
                          for k in range(SESSIONS) for m in messages_of(convs[k % len(convs)])])
        for k in range(SESSIONS):
            mem.close_session(f"c{k}")


def _index(db: Path, *args: str, tty: bool) -> tuple[str, str]:
    """``memlane index`` (stdout, stderr), stderr on a pseudo-terminal when ``tty``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
           "MEMLANE_EMBEDDING_BACKEND": "hashing", "COLUMNS": "100"}
    cmd = [sys.executable, "-m", "memlane", "--db", str(db), *args, "index"]
    return succeeds(cmd, env, tty=tty)


def test_a_terminal_sees_the_summaries_progress(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _fill(db)
    out, err = _index(db, tty=True)
    assert "indexing sessions" in err
    assert "summarizing sessions" in err, err
    # the summaries' bar reaches every session waiting: its last state reads 100%
    assert "100%" in err.rsplit("summarizing sessions", 1)[1], err
    assert f"summarized {SESSIONS}," in out, out


def test_no_bar_in_json_or_when_piped(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _fill(db)
    out, err = _index(db, "--json", tty=True)
    assert "summarizing sessions" not in err and "indexing sessions" not in err, err
    assert json.loads(out)["sessions_indexed"] == SESSIONS
    _fill(tmp_path / "p.db")
    out, err = _index(tmp_path / "p.db", tty=False)
    assert "sessions" not in err, err
    assert "summarized" in out
