"""Every ``memlane bench`` command that reads a data file answers a missing or garbled one
with one line naming the file once, exit status 1, no traceback and no exception class
(session 20: ``bench summaries --labels`` printed "Error: ValidationError: g.json: not
JSON: …" and ``bench summaries --speed --data`` "Error: nope.json: nope.json: no such
file")."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlane.serve.cli import cli

BAD = {
    "missing.json": None,
    "garbage.json": b"this is not json\n",
    "empty.json": b"",
    "object.json": b'{"a": 1}\n',
    "records.json": b'[{"x": 1}]\n',
    "packed.json.xz": b"\x00\x01\x02",
    "packed.json": gzip.compress(b"[]"),
}
COMMANDS = [
    ("bench", "longmemeval", "--data"),
    ("bench", "locomo", "--data"),
    ("bench", "summaries", "--speed", "--data"),
    ("bench", "summaries", "--labels"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[1:-1]))
@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_data_file_is_one_clear_line(tmp_path: Path, monkeypatch, command, name):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEMLANE_EMBEDDING_BACKEND", "hashing")
    path = tmp_path / name
    if BAD[name] is not None:
        path.write_bytes(BAD[name])
    result = CliRunner().invoke(cli, [*command, str(path), "--out", str(tmp_path / "out")]
                                if command[1] != "summaries" else [*command, str(path)])
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert result.exit_code in (1, 2) and lines, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    message = lines[-1]
    assert "Traceback" not in result.output and "Error:" not in message[len("Error: "):], message
    assert message.count(name) == 1, message
