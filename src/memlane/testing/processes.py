"""Run the same work in several processes at once: the concurrency tests' harness."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

__all__ = ["run_together"]

_FORK = multiprocessing.get_context("fork")


def _run(work: Callable[[str], Any], arg: str, start: Any, out: Any) -> None:
    try:
        start.wait(30)
        out.put(work(arg))
    except Exception as e:  # noqa: BLE001 - a process edge: report to the test, never hang it
        out.put(f"{type(e).__name__}: {e}")


def run_together(work: Callable[[str], Any], arg: str, processes: int = 3,
                 timeout: float = 120.0) -> tuple[list[Any], list[int | None]]:
    """``work(arg)`` in ``processes`` forked processes released at the same moment.

    Returns what each returned (in the order they finished; a failure is the string
    ``"ErrorType: message"``) and the processes' exit codes.
    """
    start, out = _FORK.Event(), _FORK.Queue()
    procs = [_FORK.Process(target=_run, args=(work, arg, start, out)) for _ in range(processes)]
    for p in procs:
        p.start()
    start.set()
    results = [out.get(timeout=timeout) for _ in procs]
    for p in procs:
        p.join(60)
    return results, [p.exitcode for p in procs]
