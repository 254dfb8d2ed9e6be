"""Session 37 (fix37b): the service logged its 503s for a database that failed
(``log.error``), but not its 403 for a read-only database: an operator whose service
refused every write saw it only in the clients' answers. Both are logged alike now."""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from memlane.serve.http import create_app
from memlane.store.sqlite.db import read_only_text
from memlane.testing import memory
from memlane.testing.http import serving
from tests.read_only_kit import fill, lock


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    db = fill(tmp_path / "m.db")
    undo = lock(db)
    try:
        yield db, undo
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(db)], capture_output=True)
        else:
            db.chmod(0o644)


@pytest.mark.parametrize("route", ["/v1/messages", "/actions"])
def test_the_403_of_a_read_only_database_is_logged(
        locked: tuple[Path, list[str]], route: str, caplog: pytest.LogCaptureFixture) -> None:
    db, _ = locked
    key = (db.parent / "key").read_text()
    message = {"scope": "s", "role": "user", "text": "the tram was late"}
    body = message if route == "/v1/messages" else {"kind": "memory.add", "input": message}
    caplog.set_level(logging.WARNING, logger="memlane.serve")
    with memory(db) as mem, serving(create_app(mem, worker=False)) as served, httpx.Client(
            base_url=served, timeout=30.0, headers={"Authorization": f"Bearer {key}"}) as http:
        res = http.post(route, json=body)
        assert res.status_code == 403, res.text
    said = [r for r in caplog.records
            if r.name == "memlane.serve" and read_only_text(str(db)) in r.getMessage()]
    assert said, [r.getMessage() for r in caplog.records]
    assert all(r.levelno == logging.ERROR for r in said), [r.levelname for r in said]
