"""The summary queue tells the truth after workers are killed: sessions that killed the
worker every time are failed with a reason and counted; leased sessions are reported."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime, timedelta

from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.testing import memory

T0 = datetime(2024, 1, 1, 10, tzinfo=UTC)

HANG = textwrap.dedent("""
    import sys, time
    from memlane.testing import memory

    class Hang:  # a model call that never returns: the worker is killed inside it
        def summarize(self, scope, messages):
            print("summarizing", flush=True)
            time.sleep(600)

    m = memory(sys.argv[1], indexing={"max_attempts": 2, "lease_seconds": 0.5})
    m._intelligence = Hang()
    m.index()
""")


def _fill(mem, scope="s"):
    for i in range(5):
        mem.add_message(scope, "user", f"message number {i} about Lisbon", T0 + timedelta(minutes=i))
    mem.close_session(scope)


def _kill_during_summary(db) -> None:
    proc = subprocess.Popen([sys.executable, "-c", HANG, str(db)], stdout=subprocess.PIPE,
                            env={**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing"})
    try:
        assert proc.stdout.readline().strip() == b"summarizing"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()


def test_a_session_that_killed_the_worker_every_time_is_failed_and_counted(tmp_path):
    db = tmp_path / "m.db"
    mem = memory(db, indexing={"max_attempts": 2, "lease_seconds": 0.5})
    _fill(mem)
    mem.index(now=T0 + timedelta(hours=1))  # turns indexed; the summary runs below
    with mem.store.atomic():
        mem.store.requeue_summaries(10**6)
    mem.close()
    for _ in range(2):
        _kill_during_summary(db)
        time.sleep(0.6)  # the killed worker's lease runs out
    mem = memory(db, indexing={"max_attempts": 2, "lease_seconds": 0.5})
    try:
        report = mem.index()
        assert report.sessions_failed == 1
        (s,) = mem.sessions(scope="s")
        assert s.status == "failed" and "worker stopped during summarization 2 times" in s.failed_reason
        queue = mem.stats()["summary_queue"]
        assert queue["failed"] == 1 and queue["pending"] == 0
        assert mem.stats()["counters"]["sessions_abandoned"] == 1
        assert mem.index().sessions_failed == 0  # counted once
    finally:
        mem.close()


def test_a_rerun_after_a_killed_index_says_how_many_are_leased_and_until_when(tmp_path, monkeypatch):
    db = tmp_path / "m.db"
    mem = memory(db)
    _fill(mem)
    mem.close_idle(T0 + timedelta(hours=1))
    with mem.store.atomic():  # its turns indexed: a session is summarized after them
        (sid,) = [s.id for s in mem.sessions(scope="s")]
        assert mem.store.claim_for_index(sid)
    started = time.time()
    # a worker leased the session and was killed: its lease (600 s by default) still runs
    assert mem.store.claim_for_summary(started, 600, 5) is not None
    report = mem.index()
    assert report.sessions_leased == 1 and report.sessions_summarized == 0
    assert report.leased_until is not None
    assert abs(report.leased_until.timestamp() - (started + 600)) < 5
    assert mem.stats()["summary_leased_until"] == report.leased_until
    mem.close()
    monkeypatch.setenv("MEMLANE_EMBEDDING_BACKEND", "hashing")
    out = CliRunner().invoke(cli, ["--db", str(db), "index"])
    assert out.exit_code == 0, out.output
    assert "1 session(s) are leased by another worker" in out.stderr
    assert f"until {report.leased_until:%Y-%m-%d %H:%M}" in out.stderr


def test_store_fails_abandoned_sessions_and_reports_leases(store):
    """Both backends: abandoned = closed, out of attempts, lease expired; and leased_until."""
    now = time.time()
    with store.atomic():
        a = store.create_session("s", now - 100, None, None)
        b = store.create_session("t", now - 100, None, None)
        store.close_session(a, "explicit")
        store.close_session(b, "explicit")
        assert store.claim_sessions_for_index([a, b]) == {a, b}  # summarized after turns
    for i in range(2):  # two workers leased session a and died; their leases ran out
        assert store.claim_for_summary(now - 50 + i * 10, 5, 2).id == a
    assert store.claim_for_summary(now, 600, 2).id == b  # a live lease
    with store.atomic():
        assert store.fail_abandoned(now, 2, "killed twice") == [a]
        assert store.fail_abandoned(now, 2, "killed twice") == []
    queue = store.summary_queue(now, 2)
    assert queue["failed"] == 1 and queue["leased"] == 1
    assert abs(queue["leased_until"] - (now + 600)) < 1
    assert store.get_session(a).failed_reason == "killed twice"


def test_a_claim_is_given_back_by_its_lease_when_its_session_is_not_known(store):
    """Both backends (session 25): a stop that lands while a claim is in flight (committed,
    its answer not yet read) gives it back by the lease the run asked for; another worker's
    claim, its lease another, is left alone, and a claim already given back is not again."""
    now = time.time()
    with store.atomic():
        ids = [store.create_session(s, now - 100, None, None) for s in ("s", "t")]
        for sid in ids:
            store.close_session(sid, "explicit")
        assert store.claim_sessions_for_index(ids) == set(ids)
    mine = store.claim_for_summary(now, 600, 5)
    theirs = store.claim_for_summary(now + 0.25, 600, 5)
    assert {mine.id, theirs.id} == set(ids)
    with store.atomic():
        assert store.release_summary(None, now + 600)
        assert not store.release_summary(None, now + 600)
        assert not store.release_summary(mine.id, now + 600)
    assert (store.get_session(mine.id).attempts, store.get_session(theirs.id).attempts) == (0, 1)
    queue = store.summary_queue(now, 5)
    assert (queue["leased"], queue["leased_until"]) == (1, now + 0.25 + 600)
    assert store.claim_for_summary(now + 1, 600, 5).id == mine.id  # taken again at once
