"""Session 37 (fix37b): ``Database.read_only`` was judged once, when the file opened. A
long-lived process (``serve``, ``mcp``, a library ``Memory``) that opened a file it could
not write went on refusing writes after the file, or its folder, was made writable. The
write path now judges again as the immutable reader does: a write is taken once the file
may be written, and refused with ``StoreError.read_only`` while it may not."""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from memlane.errors import StoreError
from memlane.memory import Memory
from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving
from tests.read_only_kit import filled_unlocked, lock, messages_in

filled = pytest.fixture(filled_unlocked, name="filled")


def _add(mem: Memory, text: str) -> None:
    mem.add_message("s", "user", text, at="2024-04-01T10:00:00Z")


@pytest.mark.parametrize("locked_part", ["file", "folder"])
def test_a_write_is_taken_once_the_file_may_be_written(filled: Path, locked_part: str) -> None:
    db = filled
    target = db if locked_part == "file" else db.parent
    undo = lock(target)
    with memory(db) as mem:
        assert mem.store.read_only
        with pytest.raises(StoreError) as refused:
            _add(mem, "refused while locked")
        assert refused.value.read_only, str(refused.value)
        subprocess.run(undo, check=True)
        _add(mem, "taken once writable")
        assert not mem.store.read_only
        assert int(mem.stats()["messages"]) == 3
    assert messages_in(db) == 3


def test_a_thread_that_read_before_writes_after(filled: Path) -> None:
    """A thread whose connection was opened read-only (it read while the file was locked)
    writes through a connection opened again once the file is judged writable."""
    db = filled
    undo = lock(db)
    with memory(db) as mem, ThreadPoolExecutor(1) as other:
        assert other.submit(lambda: int(mem.stats()["messages"])).result() == 2
        subprocess.run(undo, check=True)
        _add(mem, "from the first thread")
        other.submit(_add, mem, "from the thread that read before").result()
        assert int(mem.stats()["messages"]) == 4
    assert messages_in(db) == 4


def test_asked_read_only_stays_read_only(filled: Path) -> None:
    db = filled
    with memory(f"sqlite:///{db}?mode=ro") as mem:
        with pytest.raises(StoreError) as refused:
            _add(mem, "asked read-only")
        assert refused.value.read_only
        assert mem.store.read_only
    assert messages_in(db) == 2


def test_the_service_answers_403_then_201(filled: Path) -> None:
    db = filled
    key = (db.parent / "key").read_text()
    undo = lock(db)
    message = {"scope": "s", "role": "user", "text": "the tram was late"}
    with memory(db) as mem, serving(create_app(mem, worker=False)) as served, httpx.Client(
            base_url=served, timeout=30.0, headers={"Authorization": f"Bearer {key}"}) as http:
        res = http.post("/v1/messages", json=message)
        assert res.status_code == 403, res.text
        subprocess.run(undo, check=True)
        res = http.post("/v1/messages", json=message)
        assert 200 <= res.status_code < 300, res.text
    assert messages_in(db) == 3
