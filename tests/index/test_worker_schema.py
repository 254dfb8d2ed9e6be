"""An index worker whose database is not at its schema (session 25): another process with a
newer memlane migrated it, or an older copy was put in its place. The worker ran on,
writing with the wrong schema (or failing every run with a column error, backing off for
ever); now it stops before it writes, naming both versions, and ``memlane worker`` exits
non-zero. Both stores; a real ``memlane worker`` process for the one opened on a newer
database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest

from memlane.store.migrations import load_migrations
from memlane.testing import memory

FUTURE = "9999_from_a_newer_memlane"


def _newest(url: str) -> str:
    package = "memlane.store.postgres" if url.startswith("postgresql") else "memlane.store.sqlite"
    return load_migrations(package)[-1].name


def _sql(url: str, statement: str, params: tuple = ()) -> None:
    """Run ``statement`` as another process would, on its own connection."""
    if url.startswith("postgresql"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(statement, params)
        return
    import sqlite3

    conn = sqlite3.connect(url, isolation_level=None)
    try:
        conn.execute(statement.replace("%s", "?"), params)
    finally:
        conn.close()


def _migrated_by_a_newer_memlane(url: str) -> None:
    _sql(url, "INSERT INTO schema_migrations (name, sha256, applied_at) VALUES (%s, %s, %s)",
         (FUTURE, "0" * 64, time.time()))


def _idle_message(mem) -> int:
    """An open session idle for two hours: the worker's next run would close and index it."""
    msg = mem.add_message("idle", "user", "the spare key is with Ada",
                          at=datetime.now(UTC) - timedelta(hours=2))
    return msg.session_id


def _stopped_before_writing(db_url: str, mem, session_id: int) -> str:
    w = mem.start_worker(poll_seconds=0.05)
    deadline = time.monotonic() + 60
    while w.running and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not w.running, "the worker ran on"
    assert w.fatal is not None and w.runs == 0
    session = mem.store.get_session(session_id)  # the Memory refuses calls now
    assert (session.status, session.indexed) == ("open", False)  # nothing written
    return w.fatal


def test_a_database_a_newer_memlane_migrated_stops_the_worker(db_url: str) -> None:
    with memory(db_url) as mem:
        sid = _idle_message(mem)
        _migrated_by_a_newer_memlane(db_url)  # another process, after this one opened it
        why = _stopped_before_writing(db_url, mem, sid)
    assert FUTURE in why and _newest(db_url) in why and "newer" in why, why
    assert "upgrade memlane" in why


def test_a_database_older_than_the_worker_stops_it(db_url: str) -> None:
    with memory(db_url) as mem:
        sid = _idle_message(mem)
        newest = _newest(db_url)
        # an older copy in its place: its last migration not applied
        _sql(db_url, "DELETE FROM schema_migrations WHERE name = %s", (newest,))
        why = _stopped_before_writing(db_url, mem, sid)
    assert newest in why and "older" in why, why


def test_memlane_worker_on_a_newer_database_exits_naming_both_versions(db_url: str) -> None:
    with memory(db_url) as mem:
        sid = _idle_message(mem)
    _migrated_by_a_newer_memlane(db_url)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
           "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    done = subprocess.run([sys.executable, "-m", "memlane", "--db", db_url, "worker",
                           "--poll", "0.1"], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1, done.stderr
    assert FUTURE in done.stderr and _newest(db_url) in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    _sql(db_url, "DELETE FROM schema_migrations WHERE name = %s", (FUTURE,))
    with memory(db_url) as mem:
        session = mem.session(sid)
        assert (session.status, session.indexed) == ("open", False)


def test_readyz_says_a_newer_database_is_not_ready(db_url: str) -> None:
    """``/readyz`` asked for pending migrations only: a database a newer memlane migrated
    answered ready, while every write of this service would use the older schema."""
    import httpx

    from memlane.serve.http import create_app
    from memlane.testing.http import serving

    with memory(db_url) as mem, serving(create_app(mem, worker=False)) as url:
        assert httpx.get(f"{url}/readyz", timeout=30).status_code == 200
        _migrated_by_a_newer_memlane(db_url)
        ready = httpx.get(f"{url}/readyz", timeout=30)
        assert ready.status_code == 503, ready.text
        message = ready.json()["error"]["message"]
        assert FUTURE in message and _newest(db_url) in message, message


def test_a_service_whose_worker_stopped_on_a_newer_database_takes_no_more_writes(
        db_url: str) -> None:
    """``memlane serve``'s worker stopped by a schema mismatch only logged it: the service
    went on storing messages with a schema it did not know. Now the Memory refuses every
    call after it with the worker's words: a 503 naming both versions, nothing stored."""
    import httpx

    from memlane.serve.http import create_app
    from memlane.testing.http import serving

    with memory(db_url, serve={"worker_poll_seconds": 0.05}) as mem, \
            serving(create_app(mem, worker=True)) as url:
        ok = httpx.post(f"{url}/v1/messages", json={"scope": "s", "text": "before"}, timeout=30)
        assert ok.status_code == 200, ok.text
        _migrated_by_a_newer_memlane(db_url)
        deadline = time.monotonic() + 60
        while mem._worker is None or mem._worker.fatal is None:
            assert time.monotonic() < deadline, "the worker ran on"
            time.sleep(0.05)
        for call in (lambda: httpx.post(f"{url}/v1/messages",
                                        json={"scope": "s", "text": "after"}, timeout=30),
                     lambda: httpx.post(f"{url}/v1/search", json={"query": "before"},
                                        timeout=30)):
            refused = call()
            assert refused.status_code == 503, refused.text
            message = refused.json()["error"]["message"]
            assert FUTURE in message and _newest(db_url) in message, message
        assert httpx.get(f"{url}/readyz", timeout=30).status_code == 503
        assert httpx.get(f"{url}/healthz", timeout=30).status_code == 200
    _sql(db_url, "DELETE FROM schema_migrations WHERE name = %s", (FUTURE,))
    with memory(db_url) as mem:
        assert [m.text for m in mem.store.recent_messages("s", 10)] == ["before"]


def _count(url: str, text: str) -> int:
    """Messages holding ``text``, read as another process would."""
    if url.startswith("postgresql"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            return int(conn.execute("SELECT count(*) FROM messages WHERE text = %s",
                                    (text,)).fetchone()[0])
    import sqlite3

    conn = sqlite3.connect(url)
    try:
        return int(conn.execute("SELECT count(*) FROM messages WHERE text = ?", (text,)).fetchone()[0])
    finally:
        conn.close()


@pytest.mark.parametrize("change", ["newer", "older"])
def test_a_service_without_its_own_worker_learns_the_schema_changed_and_takes_no_more_writes(
        db_url: str, change: str) -> None:
    """A service started with its index worker off (``serve.index_worker = false``, the
    other processes of ``--workers N``) did not learn that another process had migrated its
    database (or that an older copy was put in its place): only ``/readyz`` said 503, and
    every write went on with the wrong schema. Now each call asks at most every
    ``_Calls.SCHEMA_SECONDS`` and, on a mismatch, the service refuses as the worker-on one
    does: a 503 naming both versions, nothing stored, every call after it refused."""
    import httpx

    from memlane.serve.http import create_app
    from memlane.testing.http import serving

    with memory(db_url) as mem, serving(create_app(mem, worker=False)) as url:
        ok = httpx.post(f"{url}/v1/messages", json={"scope": "s", "text": "before"}, timeout=30)
        assert ok.status_code == 200, ok.text
        newest = _newest(db_url)
        if change == "newer":
            _migrated_by_a_newer_memlane(db_url)
            words = (FUTURE, newest, "newer")
        else:
            _sql(db_url, "DELETE FROM schema_migrations WHERE name = %s", (newest,))
            words = (newest, "older")
        deadline = time.monotonic() + 60  # _Calls.SCHEMA_SECONDS is 5
        while True:  # reads until the service learns it (a read is harmless either way)
            seen = httpx.post(f"{url}/v1/search", json={"query": "before"}, timeout=30)
            if seen.status_code != 200:
                break
            assert time.monotonic() < deadline, "the service never learnt the schema changed"
            time.sleep(0.2)
        assert seen.status_code == 503, seen.text
        for call in (lambda: httpx.post(f"{url}/v1/messages",
                                        json={"scope": "s", "text": "after"}, timeout=30),
                     lambda: httpx.post(f"{url}/v1/search", json={"query": "before"},
                                        timeout=30)):
            refused = call()
            assert refused.status_code == 503, refused.text
            message = refused.json()["error"]["message"]
            assert all(w in message for w in words), message
            assert "Nothing was written" in message
        assert httpx.get(f"{url}/readyz", timeout=30).status_code == 503
        assert httpx.get(f"{url}/healthz", timeout=30).status_code == 200
    assert _count(db_url, "after") == 0 and _count(db_url, "before") == 1
