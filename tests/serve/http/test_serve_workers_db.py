"""``memlane serve --workers N`` whose worker processes cannot open the database (session 26).

Each such process printed the error's three chained tracebacks and ended with status 1;
uvicorn's supervisor took that for a crash and started another, again and again, the
parent never ending. A worker now says what is wrong in one line and ends with uvicorn's
start-up failure status, and ``memlane serve`` stops, exits non-zero and says why.

The parent opens the database itself before it starts its workers, so the workers are
made to fail where it did not: a role that may hold one connection, the parent's.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest


def test_workers_that_cannot_open_the_database_stop_the_service_in_one_line_each(
        pg_url: str, tmp_path: Path) -> None:
    import memlane

    from uvicorn.config import STARTUP_FAILURE

    from tests.serve.http.test_pg_connections import _limited_role

    env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing",
           "PYTHONPATH": str(Path(memlane.__file__).parents[1])}
    for gone in ("MEMLANE_DB", "MEMLANE_CONFIG", "PROMETHEUS_MULTIPROC_DIR"):
        env.pop(gone, None)
    with _limited_role(pg_url, 1) as url:
        proc = subprocess.Popen([sys.executable, "-m", "memlane", "--db", url, "serve",
                                 "--port", "0", "--workers", "2", "--no-worker"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=tmp_path,
                                env=env, start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:  # before: workers started again and again
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate(timeout=30)
            pytest.fail("memlane serve --workers 2 did not stop:\n" + out.decode(errors="replace")[-3000:])
    text = out.decode(errors="replace")
    assert proc.returncode == STARTUP_FAILURE, text
    assert "Traceback" not in text, text
    said = [line for line in text.splitlines() if "cannot start" in line]
    assert 1 <= len(said) <= 2, text  # one line a worker that tried, naming the cause
    assert all("too many connections for role" in line and "Error: worker process" in line
               for line in said), text
    assert text.rstrip().splitlines()[-1].startswith("Error: "), text  # the parent's word last
    assert "could not start" in text.rstrip().splitlines()[-1], text


def test_a_worker_process_that_cannot_open_a_sqlite_file_ends_in_one_line(tmp_path: Path) -> None:
    """The worker's side alone, on SQLite: the processes ``serve --workers N`` starts, under
    uvicorn's supervisor, with ``MEMLANE_DB`` naming a folder (the parent refuses that one
    itself). Each says why in one line and the supervisor stops, where it started another."""
    import memlane

    (tmp_path / "a-folder").mkdir()
    env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing", "MEMLANE_DB": "a-folder",
           "PYTHONPATH": str(Path(memlane.__file__).parents[1])}
    env.pop("MEMLANE_CONFIG", None)
    code = ("import uvicorn; uvicorn.run('memlane.serve.http.app:app_from_environment', "
            "factory=True, workers=2, port=0)")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, cwd=tmp_path, env=env, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
        pytest.fail("the supervisor did not stop:\n" + out.decode(errors="replace")[-3000:])
    text = out.decode(errors="replace")
    assert "Traceback" not in text and "died" not in text, text
    said = [line for line in text.splitlines() if "cannot start" in line]
    assert 1 <= len(said) <= 2, text
    assert all("a-folder is a folder, not a database file" in line for line in said), text
    assert "failed to start, stopping the parent process" in text, text
