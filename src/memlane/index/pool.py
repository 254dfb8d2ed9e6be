"""The offline backend's summaries in several processes (``indexing.jobs``).

The offline backend is pure CPU work in Python, so one process uses one core. A
``SummaryPool`` runs ``summarize`` in ``jobs`` child processes; its caller (the worker's
``process_queue``, the speed bench) sends sessions in order, takes the answers back in the
same order and writes them itself: the store keeps one writer, its transactions and their
guards. A child only computes; if one dies (killed, out of memory), nothing it held was
half-written, and the caller summarizes the sessions it had in flight in its own process.

Children are started with ``spawn``, not ``fork``: a fork of a process with threads (a
server's, the background worker's) could inherit a lock another thread held. Each child is
sent the backend once, pickled (``OfflineIntelligence`` pickles as the name of its model, and
the child reads the shipped weights itself); starting one costs about 0.6 s of CPU, so a run
starts a pool only for a backlog (``POOL_MIN_SESSIONS``).
"""

from __future__ import annotations

import logging
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context, parent_process
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

from memlane.index.schema import Extraction, SessionSummary
from memlane.types import Message

__all__ = ["MAX_AUTO_JOBS", "POOL_MIN_SESSIONS", "SummaryPool", "cores", "jobs_for",
           "summary_pool"]

log = logging.getLogger("memlane.index")

MAX_AUTO_JOBS = 4
"""``indexing.jobs = 0`` (1 is the default) takes the usable cores, at most this many (each
process holds about 140 MB: the embedder's table and the sentence model)."""

POOL_MIN_SESSIONS = 200
"""A run starts its processes only when at least this many sessions wait: starting one costs
about as much CPU as summarizing 70 sessions, which a smaller backlog does not win back."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def jobs_for(configured: int) -> int:
    """How many processes summarize: ``configured``, or for 0 the usable cores (at most
    ``MAX_AUTO_JOBS``)."""
    return configured if configured > 0 else max(1, min(cores(), MAX_AUTO_JOBS))


STOP_SECONDS = 10.0
"""How long ``SummaryPool.close`` waits for a child to take its stop before killing it."""

_backend: Any = None  # a child's backend, set once by ``_start``

_HELD = {signal.SIGINT, signal.SIGTERM}
"""The signals a summarizing child ignores: its parent stops the run and ends the pool."""


@contextmanager
def _signals_held() -> Iterator[None]:
    """``_HELD`` held back meanwhile, in two ways.

    Blocked in this thread: a child process it spawns starts with them blocked (a signal
    mask outlives ``exec``), until its ``_start`` ignores them, as multiprocessing's resource
    tracker is started.

    Their Python handlers deferred, in the main thread (the one that runs them): a mask is
    one thread's, so another thread of the process (the indexer's prefetch thread) took a
    Ctrl-C meanwhile and the main thread raised its ``KeyboardInterrupt`` at once, inside
    ``ProcessPoolExecutor.submit``: between a child's start and its record in the pool,
    the pool sent one stop too few and ``close()`` (or the interpreter's exit, which joins
    every child) waited for ever on a child waiting for work (session 28). A signal that
    came meanwhile is raised again once the pool's state is whole."""
    came: list[int] = []
    deferred: dict[int, Any] = {}
    try:
        if threading.current_thread() is threading.main_thread():
            for sig in _HELD:
                if callable(signal.getsignal(sig)):
                    deferred[sig] = signal.signal(sig, lambda got, _frame: came.append(got))
        before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
    finally:
        _restore(deferred)
        for sig in dict.fromkeys(came):
            signal.raise_signal(sig)


def _restore(handlers: dict[int, Any]) -> None:
    """Put ``handlers`` back, every one of them: ``signal.signal`` first runs the handler of
    a signal that came (its own, or another's already put back), which may raise."""
    error: BaseException | None = None
    for sig, handler in handlers.items():
        for _ in range(len(_HELD) + 1):  # each pending signal runs once
            try:
                signal.signal(sig, handler)
                break
            except BaseException as e:  # noqa: BLE001 - raised once all are back
                error = error or e
    if error is not None:
        raise error


def _orphaned(parent: Any) -> None:
    """In a child: end it once its parent is gone. A pool's child waits for work on a
    queue whose both ends it holds, so it never saw its parent killed (SIGKILL, out of
    memory): it lived on, idle, holding its memory and its parent's stdout and stderr
    (a test's pipes: session 28)."""
    wait([parent.sentinel])
    os._exit(1)


def _start(backend: Any) -> None:
    global _backend
    # Ctrl-C reaches the terminal's whole process group: the parent stops the run and ends
    # the pool; a child interrupted in its queue's read printed a traceback each and died.
    # So does a service manager's SIGTERM (systemd's control group, kill -- -PGID): the
    # children died at once, and the stopping parent said "a summarizing process died" and
    # went on summarizing in its own process (session 26). Blocked from the spawn
    # (``_signals_held``) until ignored here: one that came while the child imported was
    # its end too
    for sig in _HELD:
        signal.signal(sig, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    parent = parent_process()
    if parent is not None and parent.sentinel is not None:
        threading.Thread(target=_orphaned, args=(parent,), name="memlane-orphaned",
                         daemon=True).start()
    _backend = backend


def _summarize(scope: str, messages: Sequence[Message]) -> tuple[
        tuple[SessionSummary, Extraction], float]:
    """In a child: the backend's answer and the seconds it took."""
    started = time.perf_counter()
    got = _backend.summarize(scope, messages)
    return got, time.perf_counter() - started


class SummaryPool:
    """``jobs`` child processes that run ``backend.summarize``."""

    def __init__(self, backend: Any, jobs: int) -> None:
        self.jobs = jobs
        self.broken = False
        """A child died: its caller summarizes the rest of its run itself."""
        self._pool = ProcessPoolExecutor(jobs, mp_context=get_context("spawn"),
                                         initializer=_start, initargs=(backend,))

    def submit(self, scope: str, messages: Sequence[Message]) -> Future[Any]:
        """The answer to come: ``((summary, extraction), seconds)``; a dead child's
        futures raise ``concurrent.futures.process.BrokenProcessPool``."""
        try:
            with _signals_held():  # the pool spawns its children as work is sent
                return self._pool.submit(_summarize, scope, list(messages))
        except BrokenProcessPool as e:  # a child died since the last answer was taken
            self.died(e)
            dead: Future[Any] = Future()
            dead.set_exception(e)
            return dead

    def died(self, error: BaseException) -> None:
        """A child died (``error``, the pool's): said once, and nothing more is sent."""
        if not self.broken:
            log.warning("a summarizing process died (%s): the rest of this run is summarized "
                        "in the worker's own process", error)
        self.broken = True

    def close(self) -> None:
        """Stop the children; answers not yet taken are dropped. A child still busy
        ``STOP_SECONDS`` later (summarizing a long session on a loaded machine, or one the
        pool lost) is killed: it holds nothing, and a stop must end (session 28)."""
        pool = self._pool
        children = list((pool._processes or {}).values())
        manager = pool._executor_manager_thread
        pool.shutdown(wait=False, cancel_futures=True)
        if manager is not None:
            manager.join(STOP_SECONDS)
        for child in children:
            if child.is_alive():
                log.warning("a summarizing process (%s) had not stopped %s s after the run: "
                            "killed", child.pid, STOP_SECONDS)
                child.kill()
        if manager is not None:
            manager.join(STOP_SECONDS)

    def __enter__(self) -> SummaryPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _main_spawn_safe() -> bool:
    """Whether a spawned process may start here: it imports this program's main script
    again (as ``__mp_main__``), which runs a script's top level unless it stands under
    ``if __name__ == "__main__":``. A script without that line (memlane called at its top
    level) would run again in each child, adding its messages twice: such a program is
    summarized in its own process. ``python -m package`` and an interactive session are
    safe; memlane's own commands are (their scripts hold the line)."""
    main = sys.modules.get("__main__")
    name = getattr(getattr(main, "__spec__", None), "name", None) or ""
    if name == "__main__" or name.endswith(".__main__"):
        return True  # spawn does not import a package's __main__ again
    path = getattr(main, "__file__", None)
    if not path:
        return True  # interactive, or embedded: nothing is imported again
    try:
        return "__main__" in Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def summary_pool(backend: Any, jobs: int) -> SummaryPool | None:
    """A pool of ``jobs`` processes for ``backend``, or None (summarize in this process):
    one job, a backend other than the offline one (an LLM's calls wait on the network, not
    on a core), one that cannot be sent to a child (it does not pickle), or a main script
    a child could not import safely (``_main_spawn_safe``)."""
    if jobs <= 1 or getattr(backend, "name", None) != "offline":
        return None
    if not _main_spawn_safe():
        log.info("summaries stay in one process: the program's main script has no "
                 "'if __name__ == \"__main__\":' guard, and each process would run it again")
        return None
    try:
        pickle.dumps(backend)
    except Exception as e:  # noqa: BLE001 - any pickling error: stay in this process
        log.info("summaries stay in one process: the offline backend does not pickle (%s)", e)
        return None
    return SummaryPool(backend, jobs)
