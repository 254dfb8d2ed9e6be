"""The background index worker: closes idle sessions and indexes closed ones, forever.

It runs beside the application (a thread via ``Memory.start_worker()`` or a process via
``memlane worker``), never blocks ``add_message``, and is safe to run more than once at a
time: sessions are claimed inside the transaction that indexes them.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable

from memlane.errors import MigrationError, ValidationError
from memlane.types import IndexReport

__all__ = ["IndexWorker"]

log = logging.getLogger("memlane.worker")

MAX_POLL_SECONDS = 86400.0
"""The longest wait between runs (a day)."""

PROBE_SECONDS = 1.0
"""During a back-off, how often the database is asked whether it answers (at most; the
poll when shorter): a run that failed while it did not is tried again within this of its
return, not at the end of a back-off of minutes (session 24)."""


def _seconds(value: float, name: str) -> float:
    """``value`` as seconds from just above 0 to a day; else ``ValidationError`` naming
    ``name``. NaN waited no time at all (a busy loop: 10,298 index runs in 8 s), and
    inf or 1e300 overflowed the wait."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValidationError(f"{name}: must be a number of seconds, got {value!r}", field=name)
    if not (math.isfinite(value) and 0 < value <= MAX_POLL_SECONDS):
        raise ValidationError(
            f"{name}: must be more than 0 and at most {MAX_POLL_SECONDS:g} seconds (a day), "
            f"got {value!r}", field=name)
    return float(value)


def _outage(error: BaseException) -> bool:
    """Whether a run's ``error`` is the database's own failure (memlane's ``StoreError``:
    a connection refused or lost, a file locked; or a connection error), not a bug or a
    model's."""
    from memlane.errors import StoreError

    return isinstance(error, (StoreError, ConnectionError)) and not isinstance(
        error, MigrationError)


def _default_redact(text: str) -> str:
    """``text`` redacted as the default ``[memory.ingest]`` does (a worker built without
    its memory's configuration)."""
    from memlane.config import IngestConfig
    from memlane.ingest.redact import scrub

    return scrub(IngestConfig(), text)[0]


class IndexWorker:
    """Calls ``index_once()`` every ``poll_seconds`` until stopped; errors back off.

    After a failed run the worker waits twice as long as before (from the poll), at most
    ``max_backoff_seconds`` (``[memory.indexing] worker_max_backoff_seconds``). With a
    ``probe`` (the database's cheapest question), a back-off during which the probe failed
    ends as soon as it answers again: after a database outage the worker runs within a
    second of its return. A failure the database did not cause (the probe answers
    throughout) waits out its back-off.

    A run's error is kept as ``last_error`` and logged after ``redact`` (the memory's
    ``[memory.ingest]`` redaction; the default one when not given). A ``MigrationError``
    (the database at another memlane's schema) stops it: ``fatal`` says why, and
    ``on_fatal(error)`` is called (``Memory`` then refuses every call).

    With ``idle_while`` (whether the database may not be written now), a poll at which it
    is true runs nothing and counts no failure: the worker waits, ``waiting`` true, and runs
    from the first poll at which the database may be written (session 38: a ``Memory``,
    ``serve`` or ``mcp`` started on a read-only SQLite file started no worker, and none
    once the file was made writable and writes were taken: what was added then was never
    indexed until a restart)."""

    def __init__(
        self,
        index_once: Callable[[], IndexReport],
        *,
        poll_seconds: float = 5.0,
        max_backoff_seconds: float = 60.0,
        on_report: Callable[[IndexReport], None] | None = None,
        redact: Callable[[str], str] | None = None,
        probe: Callable[[], object] | None = None,
        on_fatal: Callable[[MigrationError], None] | None = None,
        idle_while: Callable[[], bool] | None = None,
    ) -> None:
        self._index_once = index_once
        self._idle_while = idle_while
        self._on_fatal = on_fatal
        self._probe = probe
        self.poll_seconds = _seconds(poll_seconds, "poll_seconds")
        self.max_backoff_seconds = max(_seconds(max_backoff_seconds, "max_backoff_seconds"),
                                       self.poll_seconds)
        self._on_report = on_report
        self._redact = redact if redact is not None else _default_redact
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.runs = 0
        self.failures = 0
        self.early_retries = 0
        """Back-offs ended early because the database answered again."""
        self.last_error: str | None = None
        self.fatal: str | None = None
        """Why the worker stopped by itself: the database's schema is not this memlane's."""
        self.waiting = False
        """Whether the last poll found the database read-only (``idle_while``) and ran
        nothing."""

    def backoff(self, failures: int) -> float:
        """The wait after ``failures`` failed runs in a row: the poll doubled that many
        times, at most ``max_backoff_seconds``."""
        return min(self.poll_seconds * 2.0 ** min(failures, 64), self.max_backoff_seconds)

    def run_forever(self) -> None:
        """Run in the calling thread until ``stop()``."""
        from memlane.index.pipeline import stop_on

        in_a_row = 0
        blind = False  # the last retry came at the probe's first answer, no failure seen
        while not self._stop.is_set():
            try:
                if self._idle_while is not None and self._idle_while():
                    self.waiting = True  # (one judgment a poll: 8.9 us on SQLite, fix37b)
                    self._stop.wait(self.poll_seconds)
                    continue
                if self.waiting:
                    self.waiting = False
                    log.warning("the database may be written now: the index worker runs")
                with stop_on(self._stop):  # a stop ends the run after the current session
                    report = self._index_once()
            except MigrationError as e:
                # the database's schema is not this code's (another process migrated it):
                # every run would write with the wrong one; stop, saying so (session 25)
                self.failures += 1
                self.last_error = self.fatal = str(e)
                log.error("index worker stopped: %s", e)
                if self._on_fatal is not None:  # Memory refuses every call after it
                    self._on_fatal(e)
                return
            except Exception as e:  # a process edge: log, back off, try again
                self.failures += 1
                in_a_row += 1
                # an error may quote what it failed on (a model's answer, a row's text):
                # redacted like any text memlane stores before it reaches a log (session 23)
                self.last_error = self._redact(f"{type(e).__name__}: {e}")
                delay = self.backoff(in_a_row)
                log.warning("index run failed (%s); retrying in %gs", self.last_error, delay)
                # the database's own failure (refused, locked, gone) is an outage until the
                # probe answers, which may be at once: one that ended before the first probe
                # waited out the whole back-off (session 25). Once in a row: a retry at the
                # first answer that fails again waits for the probe to see the outage
                ended = self._back_off(delay, down=_outage(e) and not blind)
                blind = ended == "assumed"
            else:
                self.runs += 1
                in_a_row = 0
                blind = False
                if self._on_report is not None:
                    self._on_report(report)
                self._stop.wait(self.poll_seconds)

    def _back_off(self, delay: float, *, down: bool = False) -> str | None:
        """Wait ``delay`` seconds, or until the database, seen down (or taken for down:
        ``down``), answers again: then ``"seen"`` (or ``"assumed"``, no probe failed)."""
        if self._probe is None:
            self._stop.wait(delay)
            return None
        step = min(self.poll_seconds, PROBE_SECONDS)
        seen = False
        deadline = time.monotonic() + delay
        while not self._stop.is_set():
            try:
                self._probe()
            except Exception:
                down = seen = True
            else:
                if down:
                    self.early_retries += 1
                    log.warning("the database answers again; retrying now")
                    return "seen" if seen else "assumed"
            left = deadline - time.monotonic()
            if left <= 0 or self._stop.wait(min(step, left)):
                return None
        return None

    def start(self) -> IndexWorker:
        """Run in a daemon thread."""
        if self._thread is not None and self._thread.is_alive():
            return self
        self._stop.clear()
        self._thread = threading.Thread(target=self.run_forever, name="memlane-index", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float | None = 30.0) -> None:
        """Ask the loop to finish its current run and wait for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()
