"""The judgment a SQLite file open for writing gets before each write (whether it was
made read-only since: ``opens_read_only``) is asked again only when the file's
``write_stamp`` differs from the one it had when last judged writable (session 39,
rev39: a search asked it twice, a pack four times, 20-51 us each under load). Over any
order of locking and unlocking the file, changing the modes of its ``-wal`` and ``-shm``,
and writes, the open database answers ``read_only`` as a judgment made afresh does, and
refuses a write exactly when it says read-only."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.errors import StoreError
from memlane.store.sqlite.db import Database, opens_read_only, write_stamp
from memlane.testing import memory
from tests.read_only_kit import fill, lock, unlock_all

STEPS = st.lists(st.sampled_from(["lock", "unlock", "write", "wal", "shm"]),
                 min_size=1, max_size=8)


@settings(max_examples=15, deadline=None, database=None)
@given(steps=STEPS)
def test_the_cached_judgment_is_the_fresh_one(steps: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        file = fill(Path(tmp) / "m.db")
        undo: list[list[str]] = []
        try:
            with memory(file) as mem:
                db: Database = mem.store.db
                mem.add_message("s", "user", "the -wal and -shm are there")
                assert write_stamp(str(file)) is not None
                for n, step in enumerate(steps):
                    if step == "lock" and not undo:
                        undo.append(lock(file))
                    elif step == "unlock" and undo:
                        subprocess.run(undo.pop(), check=True)
                    elif step in ("wal", "shm"):
                        side = Path(f"{file}-{step}")
                        side.chmod(side.stat().st_mode ^ 0o200)
                    fresh = opens_read_only(file)
                    assert db.read_only == fresh, (steps[:n + 1], fresh)
                    if step == "write":
                        try:
                            db.execute("INSERT INTO meta VALUES (?, 'v')", (f"k{n}",))
                            taken = True
                        except StoreError as e:
                            assert e.read_only, str(e)
                            taken = False
                        assert taken != fresh, steps[:n + 1]
                while undo:
                    subprocess.run(undo.pop(), check=True)
        finally:
            unlock_all(file.parent)
