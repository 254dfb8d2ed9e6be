"""A live stream across a PostgreSQL outage (session 25).

A poll the database failed (the server refusing connections after its backends were ended,
as in a restart) raised out of the stream: the client's response was cut mid-body ("peer
closed connection without sending complete message") and the service logged a traceback; an
``EventSource`` reconnecting during the outage got a 503 and, per the standard, stopped for
good. Now the stream keeps its client and polls again from the same cursor; once the database
answers, the changes made meanwhile arrive, in order, on the same response.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

import httpx
import pytest

from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving

psycopg = pytest.importorskip("psycopg")


def _admin(pg_url: str, sql: str) -> None:
    server = pg_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql)


def test_a_stream_outlives_an_outage_and_delivers_what_was_written_after_it(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    name = pg_url.rsplit("/", 1)[1]
    mem = memory(pg_url, serve={"stream_poll_seconds": 0.1})
    mem.add_message("a", "user", "before the outage")
    events: list[tuple[str, Any]] = []
    ended: list[str] = []
    stop = threading.Event()
    try:
        with serving(create_app(mem, worker=False)) as url:

            def read() -> None:
                try:
                    with httpx.stream("GET", url + "/state/memory", params={"scope": "a"},
                                      timeout=60) as r:
                        kind = None
                        for line in r.iter_lines():
                            if line.startswith("event:"):
                                kind = line[6:].strip()
                            elif line.startswith("data:") and kind:
                                events.append((kind, json.loads(line[5:])))
                            if stop.is_set():
                                break
                    ended.append("closed by the client" if stop.is_set() else "ended")
                except httpx.HTTPError as e:
                    ended.append(f"{type(e).__name__}: {e}")

            reader = threading.Thread(target=read, daemon=True)
            reader.start()
            deadline = time.monotonic() + 30
            while not events and time.monotonic() < deadline:
                time.sleep(0.05)
            assert events and events[0][0] == "snapshot"

            with caplog.at_level(logging.WARNING, logger="memlane.serve"):
                _admin(pg_url, f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
                _admin(pg_url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       f"WHERE datname = '{name}'")
                deadline = time.monotonic() + 30
                while (not ended and time.monotonic() < deadline
                       and not any("database failed" in r.getMessage() for r in caplog.records)):
                    time.sleep(0.05)
                assert not ended, ended  # the response was not cut
                assert any("live stream" in r.getMessage() and "database failed" in r.getMessage()
                           for r in caplog.records), "no poll met the outage"
                _admin(pg_url, f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
                seen = len(events)
                mem.add_message("a", "user", "after the outage")
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline and len(events) == seen:
                    time.sleep(0.05)
            stop.set()
            mem.add_message("a", "user", "one more, to wake the reader")
            reader.join(30)
            assert ended == ["closed by the client"], ended
            after = events[seen:]
            assert after and after[0][0] == "patch", events
            assert after[0][1]["topic"].startswith("message"), after[0]
    finally:
        _admin(pg_url, f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
        mem.close()
