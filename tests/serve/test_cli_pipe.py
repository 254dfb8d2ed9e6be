"""Every command that prints, into a pipe its reader closed, exits quietly (session 21).

``memlane export | head`` exited 1 with no message once ``head`` had its lines: click
catches the broken pipe and exits 1, the status of an error, so a script with ``set -o
pipefail`` took a finished listing for a failure (and nothing said which). Unix tools
(``git log | head``, ``grep … | head``) end quietly with 141 (128 + SIGPIPE); memlane now
does too, for every command that writes to standard output, with nothing on stderr.

Each command runs as a real process whose standard output is a pipe with its read end
already closed, so its first write finds no reader (no timing involved).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import memlane
from memlane.testing import example_files

PIPE_EXIT = 141
SRC = str(Path(memlane.__file__).resolve().parents[1])
ENV = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing", "PYTHONWARNINGS": "ignore",
       "PYTHONPATH": os.pathsep.join([SRC, *filter(None, [os.environ.get("PYTHONPATH")])])}
ENV.pop("MEMLANE_DB", None)
ENV.pop("MEMLANE_CONFIG", None)


def _run(*args: str, closed: bool = True, stdin: str | None = None,
         cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``memlane ARGS`` with standard output a pipe whose reader is gone (``closed``)."""
    read, write = os.pipe()
    if closed:
        os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "memlane.serve.cli", *args], stdout=write,
                              stderr=subprocess.PIPE, input=stdin, text=True, env=ENV,
                              timeout=120, cwd=cwd)
    finally:
        os.close(write)
        if not closed:
            os.close(read)
    return done


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("pipe") / "pipe.db")
    for f in example_files():
        assert _run("--db", path, "import", str(f), closed=False).returncode == 0
    assert _run("--db", path, "index", "--now", "2024-06-01T00:00:00Z", closed=False).returncode == 0
    return path


PRINTING = [
    ["export"], ["export", "--json"], ["sessions", "list"], ["sessions", "list", "--json"],
    ["sessions", "show", "1"], ["search", "cat", "--scope", "alice-assistant"],
    ["search", "?!", "--scope", "alice-assistant"], ["--json", "search", "cat"],
    ["pack", "what about my cat?", "--scope", "alice-assistant"],
    ["pack", "cat", "--json", "--scope", "alice-assistant"], ["facts", "list"],
    ["facts", "list", "--json"], ["facts", "history", "user", "lives in"], ["stats"],
    ["stats", "--json"], ["items", "show", "1"], ["graph", "show", "Miso"], ["packs", "show", "1"],
    ["keys", "list"], ["migrate", "--show"], ["gc"], ["compact"],
    ["index", "--now", "2024-06-01T00:00:00Z"], ["--help"], ["sessions", "--help"],
    ["--version"],
]


@pytest.mark.parametrize("args", PRINTING, ids=" ".join)
def test_a_printing_command_into_a_closed_pipe_exits_quietly(db, args):
    if args == ["packs", "show", "1"]:
        _run("--db", db, "pack", "cat", "--scope", "alice-assistant", closed=False)
    done = _run("--db", db, *args)
    assert done.returncode == PIPE_EXIT, done.stderr
    assert done.stderr == "", done.stderr  # no "Exception ignored", no traceback, no error line


def test_a_writing_command_stores_everything_before_it_finds_the_pipe_closed(db, tmp_path):
    line = json.dumps({"scope": "piped", "role": "user", "text": "I live in Porto",
                       "at": "2024-05-01T10:00:00Z"})
    done = _run("--db", db, "import", "-", stdin=line + "\n")
    assert done.returncode == PIPE_EXIT and done.stderr == "", done.stderr
    added = _run("--db", db, "add", "--scope", "piped", "--role", "user", "and I work at Feedzai")
    assert added.returncode == PIPE_EXIT and added.stderr == "", added.stderr
    read, write = os.pipe()
    try:
        out = subprocess.run([sys.executable, "-m", "memlane.serve.cli", "--db", db, "export",
                              "--scope", "piped"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=ENV, timeout=120)
    finally:
        os.close(read)
        os.close(write)
    texts = [json.loads(x)["text"] for x in out.stdout.splitlines()]
    assert texts == ["I live in Porto", "and I work at Feedzai"]


def test_an_error_into_a_closed_pipe_is_still_an_error(db):
    done = _run("--db", db, "sessions", "show", "4242")
    assert done.returncode == 1 and "4242" in done.stderr
