"""A SQLite file open for writing, then made read-only (session 38, fix38): the process
that opened it went on taking writes into its ``-wal`` (still writable), where a process
opening the file now refuses them, and under ``chattr +i`` they could never be
checkpointed into the file. Each write transaction now asks ``opens_read_only`` first: the
write is refused as ``StoreError.read_only`` and nothing is stored, and once the file may
be written again (fix37b's judgment) it is taken."""

from __future__ import annotations

import subprocess
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


def test_a_write_after_the_file_was_made_read_only_is_refused(filled: Path) -> None:
    db = filled
    with memory(db) as mem:
        _add(mem, "taken while writable")
        assert not mem.store.read_only
        undo = lock(db)
        hits = mem.search("Lisbon", scope="s")  # its write (a fact's access time) skipped
        assert any(h.item.kind == "fact" for h in hits), hits
        assert mem.store.read_only
        with pytest.raises(StoreError) as refused:
            _add(mem, "refused once locked")
        assert refused.value.read_only, str(refused.value)
        assert str(db) in str(refused.value)
        assert mem.store.read_only
        assert int(mem.stats()["messages"]) == 3  # read, through the -wal, as before
        assert messages_in(db) == 3
        subprocess.run(undo, check=True)
        _add(mem, "taken once writable again")
        assert not mem.store.read_only
    assert messages_in(db) == 4


def test_the_service_answers_403_once_the_file_was_made_read_only(filled: Path) -> None:
    db = filled
    key = (db.parent / "key").read_text()
    message = {"scope": "s", "role": "user", "text": "the tram was late"}
    with memory(db) as mem, serving(create_app(mem, worker=False)) as served, httpx.Client(
            base_url=served, timeout=30.0, headers={"Authorization": f"Bearer {key}"}) as http:
        res = http.post("/v1/messages", json=message)
        assert 200 <= res.status_code < 300, res.text
        undo = lock(db)
        res = http.post("/v1/messages", json=message | {"text": "refused"})
        assert res.status_code == 403, res.text
        subprocess.run(undo, check=True)
    assert messages_in(db) == 3
