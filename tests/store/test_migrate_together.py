"""Session 26: ``memlane migrate`` run by several processes at once on one PostgreSQL
database. Each migration was applied once (the advisory lock), but every process reported as
"applied now" what was pending when it looked, before the lock: four processes each said
they had applied the same migrations. Each now reports what it applied itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

psycopg = pytest.importorskip("psycopg")

from memlane.store.migrations import load_migrations  # noqa: E402
from memlane.store.postgres.db import LOCK_MIGRATE  # noqa: E402


def test_processes_migrating_at_once_each_report_only_what_they_applied(pg_url):
    names = [m.name for m in load_migrations("memlane.store.postgres")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    cmd = [sys.executable, "-m", "memlane.serve.cli", "--db", pg_url, "migrate", "--json"]
    with psycopg.connect(pg_url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s, 0)", (LOCK_MIGRATE,))  # all of them wait
        procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in range(3)]
        try:
            waiting = 0
            for _ in range(6000):  # bounded (5 minutes): until all three wait for our lock
                waiting = holder.execute(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                    " AND classid = %s", (LOCK_MIGRATE,)).fetchone()[0]
                if waiting == len(procs) or any(p.poll() is not None for p in procs):
                    break
                time.sleep(0.05)
            assert waiting == len(procs), [p.communicate(timeout=60) for p in procs if p.poll() is not None]
            holder.execute("SELECT pg_advisory_unlock(%s, 0)", (LOCK_MIGRATE,))
            outs = [p.communicate(timeout=120) for p in procs]
        finally:
            for p in procs:
                p.kill()
    assert [p.returncode for p in procs] == [0, 0, 0], [e for _, e in outs]
    reports = [json.loads(out) for out, _ in outs]
    assert all(r["applied"] == sorted(names) and r["pending"] == [] for r in reports)
    claimed = [name for r in reports for name in r["applied_now"]]
    assert sorted(claimed) == sorted(names), [r["applied_now"] for r in reports]
