"""An orderly stop gives back the sessions a run claimed and did not summarize (session 25).

Ctrl-C (SIGINT) of ``memlane index`` or ``memlane worker``, and SIGTERM of ``memlane index``,
left the session being summarized, and with ``indexing.jobs`` the ones claimed ahead for the
processes (two a process), leased for ``indexing.lease_seconds`` (10 minutes): the next
``memlane index`` said they were "leased by another worker" and skipped them. A crash (SIGKILL,
out of memory) still leaves them to the lease; a stop gives them back with their attempt.
Real processes, real signals, both stores; the waits are bounded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from typing import Any

import pytest


from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.indexer import index_pending
from memlane.testing import memory

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
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
           "MEMLANE_EMBEDDING_BACKEND": "hashing", "MEMLANE_INDEXING_JOBS": str(jobs)}
    return subprocess.Popen([sys.executable, "-m", "memlane", "--db", url, *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _queue(mem: Any) -> dict[str, Any]:
    return mem.store.summary_queue(time.time(), mem.config.indexing.max_attempts)


@pytest.mark.parametrize(("command", "sig", "jobs"), [
    ("index", signal.SIGINT, 2),   # the session in hand and those claimed ahead
    ("index", signal.SIGTERM, 1),  # it ended the process where it stood
    ("worker", signal.SIGINT, 2),
], ids=["index-SIGINT-jobs2", "index-SIGTERM-jobs1", "worker-SIGINT-jobs2"])
def test_a_stopped_run_gives_back_what_it_claimed(db_url: str, command: str, sig: int,
                                                 jobs: int) -> None:
    _fill(db_url)
    proc = _memlane(db_url, command, jobs=jobs)
    try:
        with memory(db_url) as mem:
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline and proc.poll() is None:
                q = _queue(mem)
                if q["done"] >= 1 and q["leased"] >= jobs:
                    break
                time.sleep(0.01)
            assert proc.poll() is None, proc.communicate()
            held = _queue(mem)["leased"]
            assert held >= jobs, "the run was not summarizing within the wait"
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=120)
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
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=60)
