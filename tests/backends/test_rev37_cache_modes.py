"""The static embedder's cache files can be read by the other users of a shared cache
(session 37, rev37). The derived table and the weights-hash note (session 35; its entries,
session 36) were written to ``tempfile.mkstemp`` files renamed into place, and such a file
has the mode ``0600`` whatever the umask: in a cache shared by several users
(``$MEMLANE_CACHE_DIR``, or an image whose cache root filled) another user could read
neither, so each of its processes hashed the 91 MB weights again and found no table: it
derived it again (30-50 s) and, where it may not write the folder, failed. They are now
written ``0644`` (nothing in them is private: a table derived from the public weights, a
hash and the weights' path)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from memlane.backends.embed import static


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _fill(cache: Path) -> tuple[Path, Path]:
    weights = cache.parent / "model.safetensors"
    weights.write_bytes(b"weights " * 1000)
    static._HASHES.clear()
    digest = static._weights_hash(weights, cache)
    table = cache / f"static-test-{digest[:16]}.npy"
    static._save_table(table, np.ones((4, static._DIM), dtype=np.float32))
    return weights, table


def test_the_table_and_the_note_are_readable_by_everyone(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _, table = _fill(cache)
    assert _mode(table) == 0o644
    assert _mode(cache / static.WEIGHTS_HASH_FILE) == 0o644
    assert not [p.name for p in cache.iterdir() if p.suffix == ".tmp"]


OTHER_USER = """
import json, os, sys
from pathlib import Path
from memlane.backends.embed import static
import numpy  # noqa: F401  (read after the uid changes)
cache, weights, table = map(Path, sys.argv[1:4])
os.setgid(65534)
os.setuid(65534)
entries = static._note_entries(cache / static.WEIGHTS_HASH_FILE)
loaded = static._load_table(table)
print(json.dumps({"entries": [e["path"] for e in entries], "table": None if loaded is None else list(loaded.shape)}))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="reads as another user (uid 65534), as root")
def test_another_user_reads_the_table_and_the_note() -> None:
    import json

    root = Path(tempfile.mkdtemp(prefix="rev37-cache-"))
    root.chmod(0o755)
    try:
        cache = root / "cache"
        weights, table = _fill(cache)
        cache.chmod(0o755)  # the other user may read the folder, not write it
        got = subprocess.run([sys.executable, "-c", OTHER_USER, str(cache), str(weights), str(table)],
                             capture_output=True, text=True, timeout=120)
        assert got.returncode == 0, got.stderr
        assert json.loads(got.stdout) == {"entries": [str(weights)], "table": [4, static._DIM]}
    finally:
        shutil.rmtree(root, ignore_errors=True)
