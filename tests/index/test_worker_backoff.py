"""The index worker's back-off after failed runs (session 24): its longest wait is a
setting (``[memory.indexing] worker_max_backoff_seconds``, 60 s; it was a fixed 300 s), and
after a database outage the worker runs again as soon as the database answers, not at the
end of its back-off. Real SQLite store; bounded waits; the schedule is asserted as the
worker computes it, the early retry by what it indexed."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from memlane import Memory
from memlane.config import load_config
from memlane.errors import StoreError
from memlane.index.worker import IndexWorker
from memlane.testing import memory


def _until(cond, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


def test_the_longest_wait_is_the_setting(tmp_path: Path) -> None:
    config = load_config(environ={"MEMLANE_INDEXING_WORKER_MAX_BACKOFF_SECONDS": "20"},
                         overrides={"db": str(tmp_path / "m.db")})
    with Memory(config=config) as mem:
        w = mem.start_worker(poll_seconds=5)
        assert [w.backoff(n) for n in range(1, 6)] == [10, 20, 20, 20, 20]
    with Memory(str(tmp_path / "d.db")) as mem:
        w = mem.start_worker(poll_seconds=5)
        # the default: at most a minute (it was 300 s, and no setting)
        assert [w.backoff(n) for n in (1, 3, 4, 30, 10_000)] == [10, 40, 60, 60, 60]


def test_after_an_outage_the_worker_runs_as_soon_as_the_database_answers(tmp_path: Path) -> None:
    outage = threading.Event()
    outage.set()
    # the hashing embedder: the default one's first run waits for its table when another
    # process derives it (the run took over the whole bounded wait on a loaded machine)
    with memory(tmp_path / "m.db") as mem:
        for text in ("the spare key is with Ada", "she is back on Friday"):
            mem.add_message("s", "user", text)
        session = mem.close_session("s")
        assert session is not None

        def index_once():
            if outage.is_set():
                raise ConnectionError("the database does not answer")
            return mem.work_once()

        def probe():
            if outage.is_set():
                raise ConnectionError("the database does not answer")
            return mem.store.pending_migrations()

        # a poll of 10 minutes: the back-off after the first failure is 20 (the setting's
        # hour allows it); the run after the outage must not wait for it
        w = IndexWorker(index_once, poll_seconds=600, max_backoff_seconds=3600, probe=probe)
        assert w.backoff(1) == 1200
        w.start()
        try:
            assert _until(lambda: w.failures >= 1)
            outage.clear()
            assert _until(lambda: w.runs >= 1), "the worker waited out its back-off"
            assert w.early_retries == 1 and w.failures == 1
            assert mem.session(session.id).indexed
        finally:
            w.stop(timeout=30)
        assert not w.running


def test_a_failure_the_database_did_not_cause_waits_out_its_back_off(tmp_path: Path,
                                                                      caplog) -> None:
    """The probe answers throughout (a bug, a model endpoint down): no early retry, the
    waits double up to the setting, as the log says."""
    calls: list[int] = []

    def failing():
        calls.append(1)
        raise RuntimeError("not the database")

    with Memory(str(tmp_path / "m.db")) as mem:
        w = IndexWorker(failing, poll_seconds=0.05, max_backoff_seconds=0.2,
                        probe=mem.store.pending_migrations)
        with caplog.at_level("WARNING", logger="memlane.worker"):
            w.start()
            assert _until(lambda: len(calls) >= 4)
            w.stop(timeout=30)
    assert w.early_retries == 0
    waits = [r.getMessage().rsplit("retrying in ", 1)[1] for r in caplog.records
             if "retrying in" in r.getMessage()]
    assert waits[:4] == ["0.1s", "0.2s", "0.2s", "0.2s"]


def test_an_outage_over_before_the_first_probe_is_retried_at_once(tmp_path: Path) -> None:
    """Session 25: the database failed the run (a ``StoreError``) and answered again before
    the probe first asked (a restart, a lock released in between): the worker slept out its
    whole back-off. Now the database's own failure is an outage until the probe answers."""
    failed = threading.Event()
    with memory(tmp_path / "m.db") as mem:
        mem.add_message("s", "user", "the spare key is with Ada")
        session = mem.close_session("s")
        assert session is not None

        def index_once():
            if not failed.is_set():
                failed.set()
                raise StoreError("connecting to the database: connection refused")
            return mem.work_once()

        w = IndexWorker(index_once, poll_seconds=600, max_backoff_seconds=3600,
                        probe=mem.store.probe_write)
        w.start()
        try:
            assert _until(lambda: w.runs >= 1), "the worker waited out its back-off"
            assert (w.failures, w.early_retries) == (1, 1)
            assert mem.session(session.id).indexed
        finally:
            w.stop(timeout=30)


def test_a_database_error_that_stays_is_not_retried_every_second(tmp_path: Path) -> None:
    """The retry at the probe's first answer is taken once in a row: a ``StoreError`` that
    the probe does not see (a full disk, a bad row) waits out its back-off after that."""
    calls: list[int] = []

    def failing():
        calls.append(1)
        raise StoreError("commit: database or disk is full")

    with memory(tmp_path / "m.db") as mem:
        w = IndexWorker(failing, poll_seconds=600, max_backoff_seconds=3600,
                        probe=mem.store.probe_write)
        w.start()
        try:
            assert _until(lambda: len(calls) >= 2)
            time.sleep(2.5)  # more than two probes: a third run would have come by now
            assert (len(calls), w.early_retries) == (2, 1)
        finally:
            w.stop(timeout=30)
