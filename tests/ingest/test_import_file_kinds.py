"""Session 25, second round: ``memlane import`` says what it read.

An empty file printed only ``imported 0 message(s)``; a gzip, xz or bz2 file was reported
as invalid UTF-8 (gzip with a hint to gunzip it, the others with none); a zip, tar or 7z
archive or a SQLite database too. Now a file compressed with what the standard library
reads is read (told by its first bytes, never its name, from a path or standard input, one
compression inside another too), an archive or a database is refused naming what it is
and how to get the conversation out, and a file holding no message says so on standard
error (exit 0, as ``export`` of nothing).
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import sqlite3
import tarfile
import zipfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.cli import cli

ENV = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}
READ = {"gzip": gzip.compress, "xz": lzma.compress, "bz2": bz2.compress}


def _zip(data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("chat.jsonl", data)
    return out.getvalue()


def _tar(data: bytes) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as t:
        info = tarfile.TarInfo("chat.jsonl")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _sqlite(tmp: Path) -> bytes:
    path = tmp / "some.sqlite"
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
    return path.read_bytes()


# what is refused, and the words naming it
REFUSED = {"zip": ("a zip archive", "unzip -p FILE"), "tar": ("a tar archive", "tar -xOf FILE"),
           "7z": ("a 7z archive", "7z x -so FILE"), "zstd": ("zstd-compressed", "zstd -dc FILE"),
           "sqlite": ("a SQLite database", "export"), "lz4": ("lz4-compressed", "lz4 -dc FILE"),
           "Z": ("compress-compressed (.Z)", "uncompress -c FILE")}


def _lines(n: int, as_list: bool, blanks: int) -> bytes:
    rows = [{"scope": "s", "role": "user", "text": f"message {i}", "at": f"2024-01-01T00:{i:02d}:00Z"}
            for i in range(n)]
    text = (json.dumps(rows) + "\n" if as_list
            else "".join(json.dumps(r) + "\n" for r in rows))
    return ("\n" * blanks + text).encode()


def _import(db: str, name: str, data: bytes, via_stdin: bool, tmp: Path):
    if via_stdin:
        return CliRunner().invoke(cli, ["--db", db, "import", "--json", "-"], input=data, env=ENV)
    path = tmp / name
    path.write_bytes(data)
    return CliRunner().invoke(cli, ["--db", db, "import", "--json", str(path)], env=ENV)


def _stored(db: str) -> int:
    out = CliRunner().invoke(cli, ["--db", db, "export", "--json"], env=ENV)
    return len(json.loads(out.stdout)) if out.stdout.strip() else 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(0, 3), as_list=st.booleans(), blanks=st.integers(0, 2),
       layers=st.lists(st.sampled_from(sorted(READ)), max_size=2),
       refused=st.none() | st.sampled_from(sorted(REFUSED)), via_stdin=st.booleans(),
       name=st.sampled_from(["chat.jsonl", "chat.txt", "chat.jsonl.gz", "chat"]))
def test_every_kind_of_file_is_read_or_refused_naming_what_it_is(
        tmp_path: Path, n: int, as_list: bool, blanks: int, layers: list[str],
        refused: str | None, via_stdin: bool, name: str) -> None:
    db = str(tmp_path / f"m{abs(hash((n, as_list, blanks, tuple(layers), refused, via_stdin, name)))}.db")
    data = b"" if n == 0 and not as_list and blanks == 0 and refused is None else _lines(n, as_list, blanks)
    if refused == "zip":
        data = _zip(data)
    elif refused == "tar":
        data = _tar(data)
    elif refused == "7z":
        data = b"7z\xbc\xaf\x27\x1c" + bytes(range(40))
    elif refused == "zstd":
        data = b"(\xb5/\xfd" + bytes(range(40))
    elif refused == "lz4":
        data = b"\x04\x22\x4d\x18" + bytes(range(40))
    elif refused == "Z":
        data = b"\x1f\x9d\x90" + bytes(range(40))
    elif refused == "sqlite":
        data = _sqlite(tmp_path)
    for layer in layers:
        data = READ[layer](data)
    done = _import(db, name, data, via_stdin, tmp_path)
    assert "Traceback" not in done.output and done.exception is None or isinstance(
        done.exception, SystemExit), done.output
    out = json.loads(done.stdout)
    if refused is not None:
        kind, advice = REFUSED[refused]
        assert done.exit_code == 1, done.output
        message = out["error"]["message"]
        assert f"the file is {kind}" in message and advice in message, message
        for layer in layers:
            assert f"{layer}-compressed" in message, message
        assert out["report"]["imported"] == 0
        return
    assert done.exit_code == 0, done.output
    assert out["imported"] == n and out["compression"] == ("+".join(reversed(layers)) or None)
    assert _stored(db) == n
    if n == 0 and not as_list and not blanks:
        assert out["empty"] is True
        assert "is empty" in done.stderr, done.stderr
    elif n == 0:
        assert out["empty"] is False and "holds no message" in done.stderr, done.stderr
    else:
        assert "nothing imported" not in done.stderr


def test_the_text_says_what_was_read(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    for name, data in (("e.jsonl", b""), ("b.jsonl", b"\n \n"), ("e.gz", gzip.compress(b"")),
                       ("one.gz", gzip.compress(_lines(1, False, 0)))):
        (tmp_path / name).write_bytes(data)
    said = {name: CliRunner().invoke(cli, ["--db", db, "import", str(tmp_path / name)], env=ENV)
            for name in ("e.jsonl", "b.jsonl", "e.gz", "one.gz")}
    assert all(r.exit_code == 0 for r in said.values()), {k: r.output for k, r in said.items()}
    assert said["e.jsonl"].stderr.endswith("nothing imported: " + str(tmp_path / "e.jsonl") + " is empty\n")
    assert "holds no message (only blank lines" in said["b.jsonl"].stderr
    assert "is empty once decompressed (gzip)" in said["e.gz"].stderr
    assert said["one.gz"].stdout == "imported 1 message(s) from a gzip-compressed file\n"
    assert "nothing imported" not in said["one.gz"].stderr


def test_a_damaged_compressed_file_is_refused_naming_the_compression(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    whole = gzip.compress(_lines(3, False, 0))
    (tmp_path / "cut.gz").write_bytes(whole[:-8])  # the trailer (CRC, size) cut off
    done = CliRunner().invoke(cli, ["--db", db, "import", "--json", str(tmp_path / "cut.gz")], env=ENV)
    assert done.exit_code == 1, done.output
    out = json.loads(done.stdout)
    assert "the gzip-compressed file is damaged or cut short" in out["error"]["message"], out
    # what it says it kept is what is stored (the lines decompressed before the damage, as
    # before a bad line: here none, the damage is seen in the first block read)
    assert _stored(db) == out["report"]["imported"]
