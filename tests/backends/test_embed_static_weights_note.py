"""The static table's name holds the weights' SHA-256 (``static._weights_hash``); since session
35 the cache directory keeps a note of it, keyed by the file's path, size and modification
time, so a new process does not read the 91 MB weights again to name its table."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memlane.backends.embed import static as static_mod


@pytest.fixture()
def weights(tmp_path: Path) -> Path:
    path = tmp_path / "w" / "model.safetensors"
    path.parent.mkdir()
    path.write_bytes(b"weights, one version")
    return path


def _fresh(weights: Path, where: Path) -> str:
    static_mod._HASHES.clear()  # as a new process starts
    return static_mod._weights_hash(weights, where)


def test_a_new_process_takes_the_hash_from_the_note_not_the_file(weights: Path, tmp_path: Path) -> None:
    where = tmp_path / "cache"
    real = _fresh(weights, where)
    note = json.loads((where / static_mod.WEIGHTS_HASH_FILE).read_text())
    assert note["sha256"] == real and note["size"] == weights.stat().st_size
    # the note is what a new process reads: one saying another hash for the same file wins
    (where / static_mod.WEIGHTS_HASH_FILE).write_text(json.dumps({**note, "sha256": "a" * 64}))
    assert _fresh(weights, where) == "a" * 64


def test_weights_changed_are_hashed_again(weights: Path, tmp_path: Path) -> None:
    where = tmp_path / "cache"
    first = _fresh(weights, where)
    weights.write_bytes(b"weights, another version")
    st = weights.stat()
    os.utime(weights, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    second = _fresh(weights, where)
    assert second != first
    assert json.loads((where / static_mod.WEIGHTS_HASH_FILE).read_text())["sha256"] == second


@pytest.mark.parametrize("text", ["", "{", "[]", '{"sha256": 5}', "null"])
def test_a_note_that_cannot_be_read_is_no_error(weights: Path, tmp_path: Path, text: str) -> None:
    where = tmp_path / "cache"
    where.mkdir()
    (where / static_mod.WEIGHTS_HASH_FILE).write_text(text)
    expected = _fresh(weights, tmp_path / "other")
    assert _fresh(weights, where) == expected
    assert json.loads((where / static_mod.WEIGHTS_HASH_FILE).read_text())["sha256"] == expected


def test_a_cache_that_cannot_be_written_still_names_the_table(weights: Path, tmp_path: Path) -> None:
    where = tmp_path / "file-not-dir"
    where.write_text("a file where the cache directory would be")
    expected = _fresh(weights, tmp_path / "other")
    assert _fresh(weights, where) == expected
    assert not list(tmp_path.glob("**/*.tmp"))
