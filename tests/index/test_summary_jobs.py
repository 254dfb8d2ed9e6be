"""``indexing.jobs``: the offline backend summarizes in several processes while the worker
writes each answer itself, in claim order. The stored summaries, facts, entities and
relations are the same as with one process, and a summarizing process that dies leaves
nothing half-written: the worker summarizes its sessions itself."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from datetime import timedelta
from typing import Any

import pytest

from memlane.bench.summaries.run import load_set, messages_of
from memlane.config import load_config
from memlane.errors import ConfigError
from memlane.index.indexer import index_pending
from memlane.index.offline import OfflineIntelligence
from memlane.index.pipeline import process_queue
from memlane.index.pool import SummaryPool, jobs_for, summary_pool
from memlane.testing import memory

KILL = "(this line kills the process that summarizes it)"


class DiesInAChild(OfflineIntelligence):
    """The offline backend, except that a child process summarizing a session that holds
    ``KILL`` is killed (SIGKILL: no answer, no failure recorded)."""

    def summarize(self, scope: str, messages: Any) -> Any:
        if multiprocessing.parent_process() is not None and any(KILL in m.text for m in messages):
            os.kill(os.getpid(), signal.SIGKILL)
        return super().summarize(scope, messages)


def _conversations() -> list[Any]:
    return load_set("dev")[:24]


def _fill(mem: Any, kill_at: int | None = None) -> None:
    """Every conversation as a closed session of its own scope, turns indexed."""
    for n, conv in enumerate(_conversations()):
        for i, m in enumerate(messages_of(conv)):
            text = m.text + (" " + KILL if n == kill_at and i == 0 else "")
            mem.add_message(f"c{n}", m.role, text, at=m.at + timedelta(days=n), speaker=m.speaker)
        mem.close_session(f"c{n}")
    index_pending(mem.store, mem.embeddings)


def _written(mem: Any) -> list[Any]:
    """What intelligence wrote: every derived item of every session, the facts, entities
    and relations, and each session's state."""
    store = mem.store
    out: list[Any] = []
    for s in sorted(store.list_sessions(), key=lambda s: s.id):
        items = [(it.id, it.kind, it.text, it.at, it.seq, it.lane, it.source, it.keywords,
                  it.entities, it.parents, it.extra)
                 for it in store.session_items(s.id) if it.kind != "turn"]
        out.append((s.id, s.status, s.summarized, s.summary_model, s.attempts, items))
    # every fact, superseded ones too, with where it came from (ids in write order)
    out.append([(f.id, f.item_id, f.scope, f.subject, f.predicate, f.object, f.source,
                 f.session_id, f.message_id, f.at, f.superseded_by, f.status)
                for f in store.list_facts(None, None, True, limit=100_000)])
    return out


@pytest.fixture
def twin_url(db_url: str, request: pytest.FixtureRequest, tmp_path: Any) -> Any:
    """A second database of ``db_url``'s backend, for the run with one process."""
    if not db_url.startswith("postgresql"):
        yield str(tmp_path / "one.db")
        return
    from memlane.testing.postgres import create_database, drop_database

    server = request.getfixturevalue("postgres_server_url")
    name = f"test_jobs_twin_{os.getpid()}"
    yield create_database(server, name, replace=True)
    drop_database(server, name)


def _summarized(mem: Any) -> tuple[Any, list[Any]]:
    run = process_queue(mem.store, mem.embeddings, mem.intelligence, mem.config, pool_min=0)
    return run, _written(mem)


def test_two_processes_write_what_one_writes(db_url, twin_url):
    with memory(twin_url, indexing={"jobs": 1}) as one:
        _fill(one)
        run1, serial = _summarized(one)
    with memory(db_url, indexing={"jobs": 2}) as two:
        _fill(two)
        run2, pooled = _summarized(two)
    assert (run1.jobs, run2.jobs) == (1, 2)
    assert run1.summarized == run2.summarized == len(_conversations())
    assert sum(len(s[-1]) for s in serial[:len(_conversations())]) > 100
    assert pooled == serial


def test_a_killed_summarizing_process_leaves_its_sessions_to_the_worker(db_url, twin_url, caplog):
    with memory(twin_url, indexing={"jobs": 1}) as one:
        _fill(one, kill_at=5)
        _, serial = _summarized(one)
    with memory(db_url, indexing={"jobs": 2, "retry_base_seconds": 0}) as two:
        _fill(two, kill_at=5)
        dies = DiesInAChild()
        with caplog.at_level("WARNING", logger="memlane.index"):
            run = process_queue(two.store, two.embeddings, dies, two.config, pool_min=0)
        assert run.jobs == 2 and run.failed == 0
        assert "a summarizing process died" in caplog.text
        assert run.summarized == len(_conversations())
        assert _written(two) == serial  # each session once, nothing half-written
        again = process_queue(two.store, two.embeddings, dies, two.config,
                              pool_min=0)
        assert (again.summarized, again.failed) == (0, 0)


def test_a_run_below_the_backlog_stays_in_one_process(tmp_path):
    with memory(tmp_path / "m.db", indexing={"jobs": 2}) as mem:
        _fill(mem)
        run = process_queue(mem.store, mem.embeddings, mem.intelligence, mem.config,
                            pool_min=len(_conversations()) + 1)
        assert (run.jobs, run.summarized) == (1, len(_conversations()))


def test_jobs_setting():
    assert load_config(None, environ={}).indexing.jobs == 1  # off unless asked for
    assert jobs_for(0) >= 1 and jobs_for(3) == 3
    assert load_config(None, environ={"MEMLANE_INDEXING_JOBS": "2"}).indexing.jobs == 2
    for bad in (-1, 65):
        with pytest.raises(ConfigError, match="indexing.jobs"):
            load_config(None, environ={}, overrides={"indexing": {"jobs": bad}})


def test_only_the_offline_backend_goes_to_processes():
    class Remote:
        name = "llm"

        def summarize(self, scope: str, messages: Any) -> Any:
            raise AssertionError("not called")

    assert summary_pool(Remote(), 2) is None
    assert summary_pool(OfflineIntelligence(), 1) is None
    with summary_pool(OfflineIntelligence(None), 2) as pool:  # type: ignore[union-attr]
        (summary, _), _ = pool.submit("s", messages_of(_conversations()[0])).result(timeout=120)
        assert summary == OfflineIntelligence(None).summarize("s", messages_of(_conversations()[0]))[0]


def test_a_main_script_without_its_guard_is_summarized_in_one_process(tmp_path):
    """Each spawned process imports the main script again: one whose top level calls memlane
    (no ``if __name__ == "__main__":``) would run again there, adding its messages twice."""
    import subprocess
    import sys

    body = ("pool = summary_pool(OfflineIntelligence(None), 2)\n"
            "print('pool' if pool else 'none')\n"
            "pool and pool.close()\n")
    head = ("from memlane.index.offline import OfflineIntelligence\n"
            "from memlane.index.pool import summary_pool\n"
            "print('ran')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for guard, said in (("", ["ran", "none"]), ("if __name__ == '__main__':\n", ["ran", "pool"])):
        script = tmp_path / "main.py"
        script.write_text(head + guard + "".join(("    " if guard else "") + line + "\n"
                                                 for line in body.splitlines()))
        out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                             env=env, timeout=120, check=True).stdout
        assert out.split() == said, (guard, out)


def test_ctrl_c_leaves_the_summarizing_processes_to_their_parent():
    """Ctrl-C signals the terminal's whole process group: a child interrupted in its queue's
    read printed a traceback and died (the pool broken); the parent alone stops the run."""
    with SummaryPool(OfflineIntelligence(None), 1) as pool:
        child = pool._pool.submit(os.getpid).result(timeout=120)
        os.kill(child, signal.SIGINT)
        time.sleep(1)  # the signal's delivery: an interrupted child would be gone by now
        got = pool.submit("s", messages_of(_conversations()[0])).result(timeout=120)
        assert got[0] == OfflineIntelligence(None).summarize("s", messages_of(_conversations()[0]))
        assert pool._pool.submit(os.getpid).result(timeout=120) == child
