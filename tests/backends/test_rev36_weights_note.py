"""The cache directory's note of the weights' SHA-256 (``static.WEIGHTS_HASH_FILE``, session
35) names the static table of every later process: a note that does not hold this file's
hash names a table built from other weights (session 36, rev36).

Session 35 keyed the note by the file's path, size and modification time. Weights replaced
by another version of the same size (one model's weights re-quantised or fine-tuned: the
same shapes, the same bytes) whose modification time is kept (``cp -p``, ``rsync -a``,
``tar``, a reproducible build's fixed ``SOURCE_DATE_EPOCH``, an image layer) matched it, so
every process took the old hash and the old weights' table: vectors of other weights than
the ones installed, silently. The inode and change time (which no tool sets back: setting
the modification time changes it) are in the key now, and a note's hash must be one."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.backends.embed import static as static_mod


def _fresh(weights: Path, where: Path) -> str:
    static_mod._HASHES.clear()  # as a new process starts
    return static_mod._weights_hash(weights, where)


def _real(weights: Path) -> str:
    import hashlib

    return hashlib.sha256(weights.read_bytes()).hexdigest()


@pytest.mark.parametrize("how", ["in place", "renamed over", "copied with its times"])
def test_weights_of_the_same_size_and_time_are_hashed_again(tmp_path: Path, how: str) -> None:
    weights = tmp_path / "w" / "model.safetensors"
    weights.parent.mkdir()
    weights.write_bytes(b"weights, version 1")
    where = tmp_path / "cache"
    first = _fresh(weights, where)
    assert first == _real(weights)
    st = weights.stat()
    other = tmp_path / "other.safetensors"
    other.write_bytes(b"weights, version 2")  # the same size
    assert other.stat().st_size == st.st_size
    if how == "in place":
        weights.write_bytes(other.read_bytes())
    elif how == "renamed over":
        os.replace(other, weights)
    else:
        weights.unlink()
        shutil.copy2(other, weights)
    os.utime(weights, ns=(st.st_atime_ns, st.st_mtime_ns))  # the time kept
    while weights.stat().st_ctime_ns == st.st_ctime_ns:  # (all of it in one tick of the
        time.sleep(0.01)  # file system's clock: a change no stat can see; not the case here)
        os.utime(weights, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (weights.stat().st_size, weights.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    assert _fresh(weights, where) == _real(weights) != first
    # and the same process, whose memory was keyed alike
    assert static_mod._weights_hash(weights, where) == _real(weights)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sha=st.one_of(st.text(min_size=64, max_size=64),
                     st.text(alphabet="0123456789abcdefABCDEF/.", min_size=64, max_size=64)))
def test_a_note_is_taken_only_when_it_holds_a_hash(tmp_path: Path, sha: str) -> None:
    """A note of this very file whose ``sha256`` is no lower-case hex digest (a hand's
    edit, another program's, ``"../"`` that would put the table in another directory) is
    not taken: the file is hashed again and the table named by its real hash."""
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"weights")
    where = tmp_path / "cache"
    real = _fresh(weights, where)
    note = where / static_mod.WEIGHTS_HASH_FILE
    note.write_text(json.dumps({**json.loads(note.read_text()), "sha256": sha}))
    got = _fresh(weights, where)
    hexed = all(c in "0123456789abcdef" for c in sha)
    assert got == (sha if hexed else real)
