"""A process killed mid-write leaves a consistent database (real SIGKILL, real file)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


def _consistent(db: Path) -> sqlite3.Connection:
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.execute("INSERT INTO items_fts (items_fts) VALUES ('integrity-check')")
    counted = con.execute("SELECT coalesce(sum(message_count), 0) FROM sessions").fetchone()[0]
    assert counted == con.execute("SELECT count(*) FROM messages").fetchone()[0]
    gaps = con.execute(
        "SELECT count(*) FROM (SELECT session_id, max(seq) m, count(*) c FROM messages"
        " GROUP BY session_id) WHERE m != c"
    ).fetchone()[0]
    assert gaps == 0
    # an indexed session has every turn as an item with a vector; an unindexed one has none
    bad = con.execute(
        "SELECT count(*) FROM sessions s WHERE (s.indexed_at IS NOT NULL) !="
        " ((SELECT count(*) FROM items i JOIN vectors v ON v.item_id = i.id"
        "   WHERE i.session_id = s.id AND i.kind = 'turn') = s.message_count AND s.message_count > 0)"
    ).fetchone()[0]
    assert bad == 0
    return con


def _kill_when(proc: subprocess.Popen, db: Path, sql: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        con = sqlite3.connect(db, timeout=1)
        try:
            if con.execute(sql).fetchone()[0]:
                break
        except sqlite3.Error:
            pass  # not migrated yet
        finally:
            con.close()
        time.sleep(0.02)
    if proc.poll() is not None:
        _, err = proc.communicate()
        raise AssertionError(f"the process ended ({proc.returncode}) before it could be killed: {err}")
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()


def test_kill_during_import_and_index(tmp_path):
    db = tmp_path / "crash.db"
    src = tmp_path / "big.jsonl"
    with src.open("w") as f:
        for i in range(60_000):
            f.write(json.dumps({"scope": f"s{i // 40}", "role": "user", "text": f"message {i} about topic {i % 97}",
                                "at": f"2024-01-01T{(i // 40) % 24:02d}:{(i % 40):02d}:00Z", "id": str(i)}) + "\n")
    env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    cmd = [sys.executable, "-m", "memlane.serve.cli", "--db", str(db)]
    proc = subprocess.Popen([*cmd, "import", str(src)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    _kill_when(proc, db, "SELECT count(*) > 3000 FROM messages")
    con = _consistent(db)
    kept = con.execute("SELECT count(*) FROM messages").fetchone()[0]
    assert 0 < kept < 60_000
    con.close()

    # re-running the import completes it: ids already stored are skipped
    done = subprocess.run([*cmd, "import", str(src)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"skipped {kept} line(s) already stored" in done.stdout

    proc = subprocess.Popen([*cmd, "index", "--now", "2030-01-01T00:00:00Z"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _kill_when(proc, db, "SELECT count(*) > 200 FROM items")
    _consistent(db).close()
    done = subprocess.run([*cmd, "index"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    con = _consistent(db)
    assert con.execute("SELECT count(*) FROM items WHERE kind = 'turn'").fetchone()[0] == 60_000
    # session intelligence resumed too: every session summarized exactly once
    assert con.execute("SELECT count(*) FROM sessions WHERE status != 'summarized'").fetchone()[0] == 0
    assert con.execute("SELECT count(*), count(DISTINCT session_id) FROM items WHERE kind = 'summary'").fetchone() == (1500, 1500)
    con.close()


def _open_when_released(path: str, barrier, errors) -> None:
    from memlane.store import open_store

    barrier.wait()
    try:
        open_store(path).close()
    except Exception as e:  # noqa: BLE001 - the error is the outcome this test reports
        errors.put(f"{type(e).__name__}: {e}")
    else:
        errors.put(None)


@pytest.mark.skipif(sys.platform != "linux", reason="forks a process per opener")
def test_processes_opening_a_new_file_at_once_all_migrate_it(tmp_path):
    """Four processes that open one new database file at the same moment (four `memlane
    add` started together) each apply the migrations they read as pending; the ones
    that lost the race failed with 'duplicate column name: attempts' or the migration
    table's UNIQUE key, and their command with them."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    failures = []
    for round_ in range(6):
        path = str(tmp_path / f"new{round_}.db")
        barrier, errors = ctx.Barrier(4), ctx.Queue()
        procs = [ctx.Process(target=_open_when_released, args=(path, barrier, errors))
                 for _ in range(4)]
        for p in procs:
            p.start()
        outcomes = [errors.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(timeout=60)
        failures += [o for o in outcomes if o is not None]
        con = sqlite3.connect(path)
        names = [r[0] for r in con.execute("SELECT name FROM schema_migrations")]
        assert len(names) == len(set(names)) and con.execute(
            "PRAGMA integrity_check").fetchone()[0] == "ok"
        con.close()
    assert failures == []
