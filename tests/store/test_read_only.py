"""A database memlane may not write is still searched (session 22): a SQLite file opened
``sqlite:///path?mode=ro``, one this process may not write (an immutable file here, a
read-only mode or mount in general), a PostgreSQL database whose sessions are read-only (a
replica) or a role granted SELECT only. A search, a pack, sessions, facts and stats work;
the writes a read would make (the facts' access times, ``touch_on_access``; the pack
journal) are skipped and logged once; a real write fails naming the file."""

from __future__ import annotations

import hashlib
import logging
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from memlane.errors import MigrationError, StoreError
from memlane.store import parse_db_url
from memlane.testing import memory


def _fill(db: str) -> None:
    m = memory(db)
    try:
        m.add_message("alice", "user", "the espresso machine is broken", at="2024-05-20T10:00:00Z")
        m.add_fact("espresso machine", "state", "broken", scope="alice")
        m.close_session("alice")
        m.index()
    finally:
        m.close()


def _reads(db: str, caplog: pytest.LogCaptureFixture) -> None:
    m = memory(db)
    try:
        with caplog.at_level(logging.WARNING, logger="memlane"):
            for _ in range(2):
                hits = m.search("espresso machine state", scope="alice")
                assert any("espresso" in h.item.text for h in hits)
                assert any(h.item.kind == "fact" for h in hits)
                p = m.pack("espresso machine", scope="alice")
                assert "espresso" in p.text and p.id is None
            worker = m.start_worker(poll_seconds=0.05)  # would fail at every poll
            assert not worker.running and worker.failures == 0
        said = [r.getMessage() for r in caplog.records if "read-only" in r.getMessage()]
        assert len(said) == 3, said  # once each: access times, pack journal, index worker
        assert len(m.sessions(scope="alice")) == 1 and len(m.facts(scope="alice")) == 1
        assert m.stats()["messages"] == 1
        with pytest.raises(StoreError, match="read-only|permission denied"):
            m.add_message("alice", "user", "one more")
        with pytest.raises(StoreError, match="read-only|permission denied"):
            m.forget_scope("alice")  # an erase cannot happen, and nothing is half-done
        assert m.stats()["messages"] == 1 and len(m.facts(scope="alice")) == 1
    finally:
        m.close()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_sqlite_file_opened_mode_ro_is_searched(tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "m.db"
    _fill(str(db))
    before = _digest(db)
    _reads(f"sqlite:///{db}?mode=ro", caplog)
    assert _digest(db) == before
    assert parse_db_url(f"sqlite:///{db}?mode=ro").location == str(db)  # not a new file
    assert sorted(p.name for p in tmp_path.iterdir() if "mode=ro" in p.name) == []


def test_a_sqlite_file_this_process_cannot_write_is_searched(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "m.db"
    _fill(str(db))
    if shutil.which("chattr") is None or subprocess.run(
            ["chattr", "+i", str(db)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here (needs root on ext4 or alike)")
    try:
        _reads(str(db), caplog)
    finally:
        subprocess.run(["chattr", "-i", str(db)], check=True)


def test_a_read_only_file_a_migration_behind_says_it_needs_write_access(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _fill(str(db))
    with sqlite3.connect(db) as conn:
        last = conn.execute("SELECT max(name) FROM schema_migrations").fetchone()[0]
        conn.execute("DELETE FROM schema_migrations WHERE name = ?", (last,))
    with pytest.raises(MigrationError, match="read-only.*write access"):
        memory(f"sqlite:///{db}?mode=ro")


def test_a_read_only_postgres_database_is_searched(pg_url: str,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    psycopg = pytest.importorskip("psycopg")
    _fill(pg_url)
    name = pg_url.rsplit("/", 1)[1].split("?", 1)[0]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    _reads(pg_url, caplog)


def test_a_postgres_role_granted_select_only_is_searched(pg_url: str,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    psycopg = pytest.importorskip("psycopg")
    _fill(pg_url)
    role = f"reader_{abs(hash(pg_url)) % 10**8}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")
    head, _, rest = pg_url.partition("://")
    url = f"{head}://{role}@{rest.split('@', 1)[1]}" if "@" in rest else f"{head}://{role}@{rest}"
    try:
        _reads(url, caplog)
    finally:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f"DROP OWNED BY {role}")
            conn.execute(f"DROP ROLE {role}")
