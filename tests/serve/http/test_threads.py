"""``serve.threads``: reads and writes each hold a token of their own limiter.

With one token each, a write stuck waiting for the database (another process holds
SQLite's write lock) occupies the write token and a second write queues behind it, while
searches keep being answered: reads never wait behind writers. Once the lock is
released both writes are stored.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import httpx

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving


def test_reads_are_answered_while_writes_wait_for_the_database(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    mem = memory(path, serve={"threads": 1})
    mem.add_message("s", "user", "the harbour crane was repaired on Tuesday")
    mem.close_session("s")
    mem.index()
    headers = {"Authorization": f"Bearer {create_key(mem.store, '*').key}"}
    added: list[int] = []

    def add(url: str, text: str) -> None:
        with httpx.Client(base_url=url, headers=headers, timeout=60.0) as c:
            r = c.post("/actions", json={"kind": "memory.add", "input": {
                "scope": "s", "role": "user", "text": text}})
            added.append(r.status_code)

    try:
        with serving(create_app(mem, worker=False)) as url:
            blocker = sqlite3.connect(path, isolation_level=None)
            blocker.execute("BEGIN IMMEDIATE")  # SQLite's write lock, held by "another process"
            writers = [threading.Thread(target=add, args=(url, t)) for t in ("first", "second")]
            try:
                for w in writers:
                    w.start()
                time.sleep(0.5)  # both writes are in: one waits on SQLite, one on the write token
                with httpx.Client(base_url=url, headers=headers, timeout=10.0) as c:
                    for _ in range(3):
                        r = c.post("/actions", json={"kind": "memory.search", "input": {
                            "query": "harbour crane", "scope": "s"}})
                        assert r.status_code == 200
                        assert "crane" in r.json()["result"]["hits"][0]["item"]["text"]
                assert added == []  # the writes were still waiting while the reads were answered
            finally:
                blocker.execute("ROLLBACK")
                blocker.close()
                for w in writers:
                    w.join(60)
        assert added == [200, 200]
        texts = {m.text for s in mem.sessions(scope="s") for m in mem.messages(s.id)}
        assert {"first", "second"} <= texts
    finally:
        mem.close()
