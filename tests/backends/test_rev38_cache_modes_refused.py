"""The static embedder's cache on a file system that refuses mode changes (session 38,
rev38). Session 37 (rev37) gave the table and the weights-hash note the mode ``0644`` with
a ``chmod`` of the temporary file, before it was opened; where the file system refuses a
mode change (``EPERM``: vfat or exFAT, a CIFS share without Unix extensions) that raised:
the temporary file's descriptor was left open, the table was never saved
(``ensure_static_table`` raised after deriving it, so every embedding failed) and the note
never written. The mode is now given where the file system keeps one, and the files are
written all the same. The refusal is the file system's: ``os.chmod`` and ``os.fchmod``
raise ``EPERM`` here as such a mount's do."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memlane.backends.embed import static


def _refused(*_: Any, **__: Any) -> None:
    raise PermissionError(errno.EPERM, "Operation not permitted")


@pytest.fixture
def no_modes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "chmod", _refused)
    monkeypatch.setattr(os, "fchmod", _refused, raising=False)


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd")) if Path("/proc/self/fd").is_dir() else 0


@pytest.mark.usefixtures("no_modes")
def test_the_table_is_saved_where_modes_are_refused(tmp_path: Path) -> None:
    table = tmp_path / "cache" / "static-test.npy"
    before = _open_descriptors()
    static._save_table(table, np.ones((4, static._DIM), dtype=np.float32))
    loaded = static._load_table(table)
    assert loaded is not None and loaded.shape == (4, static._DIM)
    assert _open_descriptors() == before  # no temporary file's descriptor left open
    assert [p.name for p in table.parent.iterdir()] == [table.name]


@pytest.mark.usefixtures("no_modes")
def test_the_note_is_written_where_modes_are_refused(tmp_path: Path) -> None:
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"weights " * 1000)
    cache = tmp_path / "cache"
    static._HASHES.clear()
    digest = static._weights_hash(weights, cache)
    entries = static._note_entries(cache / static.WEIGHTS_HASH_FILE)
    assert [e["sha256"] for e in entries] == [digest]
    assert [p.name for p in cache.iterdir()] == [static.WEIGHTS_HASH_FILE]
