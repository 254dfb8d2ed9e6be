"""An orderly stop gives back the sessions a run claimed and did not summarize (session 25).

Ctrl-C (SIGINT) of ``memlane index`` or ``memlane worker``, and SIGTERM of ``memlane index``,
left the session being summarized, and with ``indexing.jobs`` the ones claimed ahead for the
processes (two a process), leased for ``indexing.lease_seconds`` (10 minutes): the next
``memlane index`` said they were "leased by another worker" and skipped them. A crash (SIGKILL,
out of memory) still leaves them to the lease; a stop gives them back with their attempt.
Real processes, real signals, both stores; the waits are bounded.

Session 28: every stop also ends in bounded time and leaves no process of the run's group
behind (its summarizing processes, multiprocessing's resource tracker); a run that hangs
fails its own test with each process's stacks, and its group is killed (``tests.commands``).

Session 32: the signal is sent on the read of the queue that saw the run summarizing
(``_summarizing``), not after a second read that could fall between two sessions."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from datetime import timedelta
from collections.abc import Callable
from typing import Any

import pytest


from memlane.bench.summaries.run import load_set, messages_of
from memlane.index import pipeline
from memlane.index.indexer import index_pending
from memlane.testing import memory
from tests import commands

SESSIONS = 600  # a backlog the run is still summarizing when the signal comes


def _fill(url: str, sessions: int = SESSIONS) -> None:
    """``sessions`` closed sessions, their turns indexed: only summaries wait."""
    convs = load_set("dev")
    rows = []
    for k in range(sessions):
        rows += [{"scope": f"c{k}", "role": m.role, "text": m.text, "speaker": m.speaker,
                  "at": m.at - timedelta(days=3000 - k)}
                 for m in messages_of(convs[k % len(convs)])]
    with memory(url) as mem:
        mem.add_messages(rows)
        for k in range(sessions):
            mem.close_session(f"c{k}")
        index_pending(mem.store, mem.embeddings)


def _memlane(url: str, *args: str, jobs: int) -> subprocess.Popen[str]:
    env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing",
           "MEMLANE_INDEXING_JOBS": str(jobs)}
    return commands.memlane("--db", url, *args, env=env)


def _queue(mem: Any) -> dict[str, Any]:
    return mem.store.summary_queue(time.time(), mem.config.indexing.max_attempts)


def _summarizing(mem: Any, proc: subprocess.Popen[str], jobs: int) -> dict[str, Any]:
    """The summary queue once the run has written a summary and holds at least ``jobs``
    claims, polled on the database (bounded: 240 s, and the run still going). Session 31
    read the queue a second time to check the claims and failed when that read fell between
    two sessions (with ``jobs`` 1 the run holds none while it writes one and claims the
    next: about 2 % of reads, measured): the state is taken from the read that saw it."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        assert proc.poll() is None, ("the run ended before the signal", proc.communicate())
        q = _queue(mem)
        if q["done"] >= 1 and q["leased"] >= jobs:
            return q
        time.sleep(0.01)
    raise AssertionError(f"the run was not summarizing with {jobs} claim(s) within 240 s: "
                         f"{_queue(mem)}")


@pytest.mark.parametrize(("command", "sig", "jobs"), [
    ("index", signal.SIGINT, 2),   # the session in hand and those claimed ahead
    ("index", signal.SIGTERM, 1),  # it ended the process where it stood
    ("index", signal.SIGTERM, 2),
    ("worker", signal.SIGINT, 2),
    ("worker", signal.SIGTERM, 2),  # finishes what it holds, then stops
], ids=["index-SIGINT-jobs2", "index-SIGTERM-jobs1", "index-SIGTERM-jobs2", "worker-SIGINT-jobs2",
        "worker-SIGTERM-jobs2"])
def test_a_stopped_run_gives_back_what_it_claimed(db_url: str, command: str, sig: int,
                                                 jobs: int) -> None:
    _fill(db_url)
    proc = _memlane(db_url, command, jobs=jobs)
    try:
        with memory(db_url) as mem:
            _summarizing(mem, proc, jobs)
            proc.send_signal(sig)  # at once: the state seen is the one the signal finds
            # a hang fails here, with every process's stacks; the group is killed and reaped
            _, err = commands.finish(proc, timeout=120)
            # nothing left behind: the summarizing processes and the resource tracker ended
            assert commands.wait_group_gone(proc, 30), err
            after = _queue(mem)
            assert after["done"] < SESSIONS, "the run ended before the signal"
            assert (after["leased"], after["leased_until"]) == (0, None), (after, err)
            waiting = [s for s in mem.store.list_sessions(limit=SESSIONS) if not s.summarized]
            assert waiting and all(s.attempts == 0 and s.status == "closed" for s in waiting)
            # the next run takes them at once, none "leased by another worker"
            first = min(waiting, key=lambda s: s.id)
            again = mem.index(scope=first.scope)
            assert (again.sessions_summarized, again.sessions_leased) == (1, 0)
            assert mem.session(first.id).summarized
    finally:
        commands.end(proc)


def _interrupted_inside_a_transaction(mem: Any, db_url: str) -> Callable[[], None]:
    """The state a stop's signal leaves when it lands inside a transaction's own bookkeeping
    rather than in the work inside it, on each store: PostgreSQL, between ``atomic()``'s BEGIN
    and its ``try`` (begun and counted, never ended: the next transaction nests in it as a
    savepoint, never committed); SQLite, between its depth's reset and the COMMIT (the
    connection still in the transaction: the next BEGIN fails). Returns what ends the test's
    stand-in for it once the test is done (a suspended ``atomic()``; a signal's is over)."""
    if db_url.startswith("postgresql"):
        held = mem.store.atomic()
        held.__enter__()  # entered and never exited
        return held.gen.close
    mem.store.db.conn.execute("BEGIN IMMEDIATE")
    return lambda: None


def test_a_stop_inside_a_transaction_s_bookkeeping_still_gives_back(db_url: str) -> None:
    """Session 47: under load, two stops of five left their claims leased (a SIGTERM of
    ``memlane index`` and a Ctrl-C of ``memlane worker`` with PostgreSQL: the give-back was
    nested in, or failed on, a transaction the signal had interrupted). The give-back now
    runs on a new connection."""
    _fill(db_url, sessions=3)
    with memory(db_url) as mem:
        cfg = mem.config.indexing
        now = time.time()
        with mem.store.atomic():
            claimed = mem.store.claim_for_summary(now, cfg.lease_seconds, cfg.max_attempts)
        assert claimed is not None
        end_stand_in = _interrupted_inside_a_transaction(mem, db_url)
        pipeline._release(mem.store, {claimed.id: now + cfg.lease_seconds})
        with memory(db_url) as other:  # another connection: what was committed
            after = _queue(other)
            assert (after["leased"], after["leased_until"]) == (0, None), after
            again = other.index()  # none "leased by another worker"
            assert (again.sessions_summarized, again.sessions_leased) == (3, 0)
        end_stand_in()
