"""The index worker of a ``Memory`` (``memlane serve``, ``memlane mcp``) started on a SQLite
file this process could not write (session 38, fix38): no worker was started, and none
when the file was made writable later and writes were taken (fix37b), so a session added
then was never indexed until a restart. The worker now waits, running nothing and failing
nothing, while the database may not be written, and indexes from the first poll at which
it may."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from memlane.errors import StoreError
from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving
from tests.read_only_kit import filled_unlocked, lock

filled = pytest.fixture(filled_unlocked, name="filled")


def _until(done: Callable[[], bool], what: str) -> None:
    """Wait for ``done`` (bounded: a worker that never comes fails here, not by hanging)."""
    deadline = time.monotonic() + 60
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.mark.parametrize("locked_part", ["file", "folder"])
def test_the_worker_indexes_once_the_file_may_be_written(filled: Path, locked_part: str) -> None:
    db = filled
    undo = lock(db if locked_part == "file" else db.parent)
    with memory(db) as mem:
        worker = mem.start_worker(poll_seconds=0.05)
        _until(lambda: worker.waiting, "the worker never polled")
        with pytest.raises(StoreError) as refused:
            mem.add_message("s", "user", "refused while locked", at="2024-04-01T10:00:00Z")
        assert refused.value.read_only
        subprocess.run(undo, check=True)
        mem.add_message("t", "user", "I started learning Portuguese", at="2024-04-01T10:00:00Z")
        mem.close_session("t")
        _until(lambda: mem.stats()["sessions_unindexed"] == 0, "the new session not indexed")
        assert not worker.waiting and worker.failures == 0
        assert mem.sessions(scope="t")[0].indexed
    with memory(f"sqlite:///{db}?mode=ro") as reader:
        assert reader.stats()["sessions_unindexed"] == 0


def test_the_service_indexes_once_the_file_may_be_written(filled: Path) -> None:
    db = filled
    key = (db.parent / "key").read_text()
    undo = lock(db)
    with memory(db, serve={"worker_poll_seconds": 0.05}) as mem, \
            serving(create_app(mem, worker=True)) as served, httpx.Client(
            base_url=served, timeout=30.0, headers={"Authorization": f"Bearer {key}"}) as http:
        message = {"scope": "s", "role": "user", "text": "I started learning Portuguese"}
        assert http.post("/v1/messages", json=message).status_code == 403
        subprocess.run(undo, check=True)
        res = http.post("/v1/messages", json=message)
        assert 200 <= res.status_code < 300, res.text
        res = http.post("/v1/sessions/close", json={"scope": "s"})
        assert res.status_code == 200, res.text

        def indexed() -> bool:
            listed = http.get("/v1/sessions", params={"scope": "s"}).json()
            return len(listed["sessions"]) == 2 and all(s["indexed"] for s in listed["sessions"])

        _until(indexed, "the service's worker never indexed the new session")
        assert mem._worker is not None and mem._worker.failures == 0
