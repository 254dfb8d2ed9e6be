"""The service over a database it may not write (session 22): a SQLite file opened
``?mode=ro`` (a replica's copy) or a PostgreSQL read-only database. Every authenticated
request wrote the key's last use, so every request failed; now reads answer 200, the key's
last use goes unrecorded (logged once), and a write is refused."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving


def _served(db: str, url: str, read_only: Callable[[], None] = lambda: None) -> None:
    writer = memory(db)
    try:
        writer.add_message("alice", "user", "the espresso machine is broken",
                           at="2024-05-20T10:00:00Z")
        writer.add_fact("espresso machine", "state", "broken", scope="alice")
        writer.close_session("alice")
        writer.index()
        key = create_key(writer.store, "alice", name="reader").key
    finally:
        writer.close()
    read_only()
    mem = memory(url)
    try:
        with serving(create_app(mem, worker=False)) as base, httpx.Client(
                base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30.0) as c:
            r = c.post("/v1/search", json={"scope": "alice", "query": "espresso machine state"})
            assert r.status_code == 200, r.text
            assert any("espresso" in h["item"]["text"] for h in r.json()["hits"])
            r = c.post("/v1/pack", json={"scope": "alice", "query": "espresso", "budget": 200})
            assert r.status_code == 200 and "espresso" in r.json()["text"], r.text
            r = c.post("/v1/messages", json={"scope": "alice", "text": "one more"})
            assert r.status_code >= 400, r.text
    finally:
        mem.close()


def test_a_read_only_sqlite_file_is_served(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _served(str(db), f"sqlite:///{db}?mode=ro")


def test_a_read_only_postgres_database_is_served(pg_url: str) -> None:
    psycopg = pytest.importorskip("psycopg")
    name = pg_url.rsplit("/", 1)[1].split("?", 1)[0]

    def replica() -> None:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')

    _served(pg_url, pg_url, replica)
