"""``memlane import`` of a gzip file damaged inside its deflate stream (session 26, found by
the benchmark loader's property, which reads compression with the same helpers): zlib's own
``zlib.error`` is no ``OSError``, so it was a traceback instead of "damaged or cut short"."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from click.testing import CliRunner

from memlane.serve.cli import cli


def test_a_gzip_file_damaged_inside_its_data_is_refused_naming_the_compression(
        tmp_path: Path) -> None:
    line = json.dumps({"scope": "a", "role": "user", "text": "hello there"}) + "\n"
    whole = gzip.compress((line * 20).encode())
    path = tmp_path / "bad.jsonl.gz"
    path.write_bytes(whole[:12] + b"\x00" + whole[12:])  # a byte into the deflate stream
    done = CliRunner().invoke(cli, ["--db", str(tmp_path / "m.db"), "import", "--json",
                                    str(path)], env={"MEMLANE_EMBEDDING_BACKEND": "hashing"})
    assert done.exit_code == 1, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    message = json.loads(done.stdout)["error"]["message"]
    assert "the gzip-compressed file is damaged or cut short" in message, message
