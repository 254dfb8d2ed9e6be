"""Standard input and files as a demanding user feeds them: `echo text | memlane add
--scope s -` stored the text "-" (a message past the command line's limit had no way in),
and a UTF-16 or gzip file was refused without saying what it was."""

from __future__ import annotations

import pytest

import gzip
import json
import os
import subprocess
import sys

LINE = {"scope": "s", "role": "user", "text": "café", "at": "2024-01-01T00:00:00Z"}


def test_add_dash_reads_the_text_from_standard_input(run, monkeypatch):
    monkeypatch.setenv("MEMLANE_INGEST_MAX_MESSAGE_CHARS", "200000")
    long = "word " * 30_000  # 150,000 bytes: past what one argument of a command line takes
    out = json.loads(run("add", "--scope", "s", "--json", "-", input=long.strip() + "\n").stdout)
    assert out["text"] == long.strip()  # the trailing newline echo adds is not the message's
    out = json.loads(run("add", "--scope", "s", "--json", "-", input="two\nlines\r\n").stdout)
    assert out["text"] == "two\nlines"
    assert "'TEXT': must not be empty" in run("add", "--scope", "s", "-", input="", code=2).stderr


def test_add_dash_with_bytes_that_are_not_utf8_names_text(tmp_path):
    env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    done = subprocess.run([sys.executable, "-m", "memlane.serve.cli", "--db", str(tmp_path / "a.db"),
                           "add", "--scope", "s", "-"], input=b"caf\xe9", env=env, capture_output=True)
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert b"'TEXT': standard input is not valid UTF-8 (byte 0xe9 at offset 3)" in done.stderr


def test_a_utf16_or_gzip_file_is_named_for_what_it_is(run, tmp_path):
    utf16 = tmp_path / "u16.jsonl"
    utf16.write_text(json.dumps(LINE) + "\n", encoding="utf-16")
    packed = tmp_path / "c.jsonl.gz"
    packed.write_bytes(gzip.compress((json.dumps(LINE) + "\n").encode()))
    assert "the file is UTF-16: convert it" in run("import", str(utf16), code=1).stderr
    assert "imported 1 message(s)" in run("import", "-", input=gzip.decompress(packed.read_bytes()).decode()).stdout
    # read since session 25's second round (tests/ingest/test_import_file_kinds.py)
    assert "from a gzip-compressed file, skipped 1 line(s) already stored" in run(
        "import", str(packed)).stdout


@pytest.fixture
def run(cli_run):
    return cli_run
