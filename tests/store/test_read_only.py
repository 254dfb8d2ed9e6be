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
import time
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
            worker = m.start_worker(poll_seconds=0.05)  # waits: it would fail at every poll
            for _ in range(600):  # (its first poll, bounded; session 38: it was not started)
                if worker.waiting:
                    break
                time.sleep(0.05)
            assert worker.waiting and worker.runs == 0 and worker.failures == 0
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


READ_ONLY_FOLDER = r"""
import json, os, sys
from memlane.errors import StoreError
from memlane.testing import memory

folder = sys.argv[1]
db = os.path.join(folder, "m.db")
m = memory(db)
m.add_message("alice", "user", "the espresso machine is broken", at="2024-05-20T10:00:00Z")
m.add_fact("espresso machine", "state", "broken", scope="alice")
m.close_session("alice")
m.index()
m.search("espresso machine state", scope="alice")  # every module a read needs, imported
m.pack("espresso machine", scope="alice")
m.close()
import importlib.readers, encodings.idna  # noqa: E401,F401  (read after the uid changes)
os.chmod(db, int(sys.argv[2], 8))
if os.geteuid() == 0:  # root writes any folder: read it as a user who may not
    os.chown(db, 65534, 65534)
    os.chmod(folder, 0o555)
    os.setgid(65534)
    os.setuid(65534)
else:
    os.chmod(folder, 0o555)
out = {}
try:
    m = memory(db)
    hits = m.search("espresso machine state", scope="alice")
    out["hits"] = sorted({h.item.kind for h in hits if "espresso" in h.item.text})
    out["pack"] = "espresso" in m.pack("espresso machine", scope="alice").text
    out["facts"] = [f.object for f in m.facts(scope="alice")]
    try:
        m.add_message("alice", "user", "one more")
    except StoreError as e:
        out["write"] = str(e)
    m.close()
except Exception as e:
    out["open"] = f"{type(e).__name__}: {e}"
try:
    memory(os.path.join(folder, "new.db"))
except Exception as e:
    out["new"] = f"{type(e).__name__}: {e}"
print(json.dumps(out))
"""


@pytest.mark.parametrize("mode", ["444", "644"])
def test_a_database_in_a_folder_this_process_may_not_write_is_searched(mode: str) -> None:
    """A read-only folder (a read-only mount, another user's folder) holding a database
    closed cleanly: opening it failed, ``attempt to write a readonly database`` (WAL needs
    its ``-shm`` file beside it), whatever the file's own mode; a new database there said
    "unable to open database file". Now it is searched and packed, a write fails naming
    read-only, and a new file is refused naming the folder. Run in a child process as a
    user who may not write the folder (root may write any)."""
    import json
    import os
    import sys
    import tempfile

    top = tempfile.mkdtemp(prefix="memlane-ro-")  # not tmp_path: another user must enter it
    folder = os.path.join(top, "data")
    os.mkdir(folder)
    os.chmod(top, 0o755)
    try:
        got = subprocess.run([sys.executable, "-c", READ_ONLY_FOLDER, folder, mode],
                             capture_output=True, text=True, timeout=300, env=dict(os.environ))
        assert got.returncode == 0, got.stderr[-2000:]
        out = json.loads(got.stdout.strip().splitlines()[-1])
        assert "open" not in out, out["open"]
        assert out["hits"] and "fact" in out["hits"] and out["pack"], out
        assert out["facts"] == ["broken"]
        assert "read-only" in out["write"] and "m.db" in out["write"]
        assert out["new"] == (f"StoreError: db: folder {os.path.realpath(folder)} is read-only "
                              "for this process: a new database cannot be made there; pass a "
                              "path in a folder it may write")
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(top)
