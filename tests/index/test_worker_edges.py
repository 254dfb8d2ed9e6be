"""The index worker's poll interval at its edges: refused with the parameter named, never a
busy loop or an overflow; and the failure log says the wait it really waits."""

from __future__ import annotations

import math
import time

import pytest

from memlane.errors import ValidationError
from memlane.index.worker import IndexWorker


def _never() -> None:
    raise AssertionError("a refused worker must not run")


@pytest.mark.parametrize("poll", [math.nan, math.inf, 1e300, 86401, 0, -1, True, "5"])
def test_a_poll_that_is_not_a_sane_number_of_seconds_is_refused(poll):
    # nan waited no time at all: a busy loop (10,298 index runs in 8 s); inf and 1e300
    # overflowed Event.wait; 0 and -1 were a bare ValueError
    with pytest.raises(ValidationError, match="poll_seconds: must be") as info:
        IndexWorker(_never, poll_seconds=poll)
    assert info.value.field == "poll_seconds"


def test_the_failure_log_says_the_wait_it_waits(caplog):
    calls = []

    def failing():
        calls.append(time.monotonic())
        raise RuntimeError("database is down")

    w = IndexWorker(failing, poll_seconds=0.05, max_backoff_seconds=0.2)
    with caplog.at_level("WARNING", logger="memlane.worker"):
        w.start()
        for _ in range(200):
            if len(calls) >= 4:
                break
            time.sleep(0.02)
        w.stop()
    waits = [r.getMessage().rsplit("retrying in ", 1)[1] for r in caplog.records]
    assert waits[:4] == ["0.1s", "0.2s", "0.2s", "0.2s"]  # doubled from the poll, capped
    assert "RuntimeError: database is down" in caplog.records[0].getMessage()


def test_a_stop_ends_the_run_after_the_current_session_not_the_backlog(tmp_path):
    """SIGTERM to `memlane worker` (or the service's shutdown) set the worker's stop, but
    its run went on through every queued session: with a model taking seconds a session,
    a backlog of a thousand kept the process for hours. Now the run claims no session
    after the stop."""
    import json
    import threading
    from datetime import UTC, datetime, timedelta

    from memlane.testing import memory
    from memlane.testing.llm_server import ChatServer

    asked = threading.Event()

    def slow(body):
        asked.set()
        time.sleep(0.3)
        return json.dumps({"topic": "t", "context": "c"})

    with ChatServer(reply=slow) as srv:
        mem = memory(tmp_path / "m.db", indexing={"backend": "llm", "service": "local"},
                     llm_services={"local": {"base_url": srv.base_url, "model": "m",
                                             "max_retries": 0, "timeout_seconds": 10}})
        t0 = datetime(2024, 1, 1, tzinfo=UTC)
        for k in range(12):
            for i in range(4):
                mem.add_message(f"s{k}", "user", f"message {i} of chat {k}", t0 + timedelta(minutes=i))
            mem.close_session(f"s{k}")
        worker = mem.start_worker(poll_seconds=60)
        assert asked.wait(30)
        worker.stop(timeout=30)
        assert not worker.running
        assert len(srv.chat_requests) <= 2  # the session in flight (and at most one more)
        assert mem.stats()["summary_queue"]["pending"] >= 10
        mem.close()


def _first_failure(w: IndexWorker, caplog) -> list[str]:
    with caplog.at_level("WARNING", logger="memlane.worker"):
        caplog.clear()
        w.start()
        for _ in range(250):
            if w.failures:
                break
            time.sleep(0.02)
        w.stop()
    return [r.getMessage() for r in caplog.records]


def test_a_failed_runs_error_is_redacted_before_it_is_kept_and_logged(tmp_path, caplog):
    """The worker kept an error as it came in ``last_error`` and logged it: an error quoting
    a model's answer or a row (a key in it) reached the logs and metrics. Redacted now as
    the memory's ``[memory.ingest]`` says (session 23), like a failed summary's reason."""
    from memlane.testing import memory

    key = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"

    def failing():
        raise RuntimeError(f"the model answered {key} about Zorblatt-42")

    mem = memory(tmp_path / "m.db", ingest={"redact_patterns": ["Zorblatt-[0-9]+"]})
    configured = IndexWorker(failing, poll_seconds=0.05, redact=mem._redact_text)
    default = IndexWorker(failing, poll_seconds=0.05)
    for w, kept in ((configured, ()), (default, ("Zorblatt-42",))):
        logged = _first_failure(w, caplog)
        assert w.last_error is not None and w.last_error.startswith("RuntimeError: the model")
        assert logged and all(w.last_error in m for m in logged)
        for secret in (key, "Zorblatt-42"):
            assert (secret in w.last_error) == (secret in kept), (secret, w.last_error)
    # Memory.start_worker's worker redacts with the memory's configuration
    started = mem.start_worker(poll_seconds=60)
    started.stop()
    assert started._redact == mem._redact_text
    mem.close()
