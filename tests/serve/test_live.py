"""The live memory stream's data layer (memlane.serve.live) on SQLite and PostgreSQL: a
snapshot plus every change's JSON Patch equals a fresh snapshot, whatever wrote."""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    rule,
    run_state_machine_as_test,
)

from memlane.config import load_config
from memlane.errors import ResetRequired, StoreError, ValidationError
from memlane.memory import Memory
from memlane.serve import live
from memlane.testing import HashingEmbedder
from memlane.testing.llm_server import ChatServer

T0 = 1_700_000_000
CONFIG: dict[str, Any] = {
    "hygiene": {"lane_caps": ["ephemeral=3"]},
    "ingest": {"min_session_messages": 2},
}
TEXTS = [
    "I live in Lisbon now", "I moved to Porto last spring", "my sister Ana is a nurse",
    "We decided to use PostgreSQL for the billing service", "I prefer window seats",
    "what time is the race?", "the api_key=sk-live-abcdef0123456789abcdef is secret",
    "Let's go with the blue design for the landing page", "I work at Acme in Berlin",
]


def _memory(url: str | Path, **overrides: Any) -> Memory:
    config = load_config(environ={}, overrides={**CONFIG, **overrides})
    return Memory(str(url), config=config, embedder=HashingEmbedder(dim=64))


def _empty(scope: str) -> dict[str, Any]:
    return {"scope": scope, "sessions": {}, "items": {}, "facts": {}, "last_pack": None}


def _catch_up(store: Any, scope: str, head: int, state: dict[str, Any], limit: int = 500
              ) -> tuple[int, dict[str, Any], list[live.Change]]:
    """Poll page by page from ``head`` until the log is exhausted; apply every patch."""
    seen: list[live.Change] = []
    while True:
        batch = live.poll(store, scope, head, limit)
        seen += batch.changes
        state = live.apply(state, batch.changes)
        assert batch.cursor >= head
        if batch.cursor == head:
            return head, state, seen
        head = batch.cursor


def _assert_stream(store: Any, scope: str, head: int, state: dict[str, Any], limit: int = 500
                   ) -> list[live.Change]:
    """The patches after ``head`` turn ``state`` into a fresh snapshot; ids increase."""
    fresh_head, fresh = live.snapshot(store, scope)
    end, applied, changes = _catch_up(store, scope, head, state, limit)
    assert end == fresh_head
    assert applied == fresh
    ids = [c.id for c in changes]
    assert ids == sorted(set(ids)) and all(head < i <= fresh_head for i in ids)
    assert all(c.topic in live.TOPICS for c in changes)
    return changes


# -- a random workload through the real Memory ---------------------------------------------
class Workload:
    """Writes of every kind to two scopes, A (watched) and B; ``check`` asserts that every
    earlier snapshot of A plus the patches since equals a fresh snapshot, page by page,
    and that none of B's sessions appears in A's stream."""

    def __init__(self, mem: Memory) -> None:
        self.mem, self.a, self.b = mem, "a", "b"
        self.clock = float(T0)
        self.marks = [live.snapshot(mem.store, self.a)]

    def _scope(self, in_a: bool) -> str:
        return self.a if in_a else self.b

    def add(self, in_a: bool, text: str, gap: bool, role: str) -> None:
        self.clock += 3600 if gap else 30
        self.mem.add_message(self._scope(in_a), role, text, at=self.clock)

    def batch(self, in_a: list[bool], gaps: list[bool], text: str) -> None:
        """A batch across both scopes, a gap (closing a session inside it) here and there."""
        rows = []
        for n, (a, gap) in enumerate(zip(in_a, gaps)):
            self.clock += 3600 if gap else 30
            rows.append({"scope": self._scope(a), "role": "user", "text": f"{text} {n}",
                         "at": self.clock})
        self.mem.add_messages(rows)

    def close(self, in_a: bool) -> None:
        self.mem.close_session(self._scope(in_a))

    def index(self) -> None:
        self.clock += 60
        self.mem.index(now=self.clock + 7200)

    def fact(self, in_a: bool, subject: str, predicate: str, value: str) -> None:
        self.clock += 60
        self.mem.add_fact(subject, predicate, value, scope=self._scope(in_a), at=self.clock)

    def note(self, in_a: bool, ttl: int | None, lane: str, pinned: bool, topic: bool) -> None:
        for n in range(2):  # two at a time, so lane caps bite
            self.clock += 1
            self.mem.upsert(f"note {n} at {self.clock}", scope=self._scope(in_a), at=self.clock,
                            ttl_seconds=ttl, lane=lane, pinned=pinned and n == 0,
                            topics=("travel",) if topic else ())

    def pin_or_forget(self, pick: int, forget: bool) -> None:
        items = sorted(int(i) for i in live.snapshot(self.mem.store, self.a)[1]["items"])
        if items:
            item_id = items[pick % len(items)]
            if forget:
                self.mem.forget_item(item_id)
            else:
                self.mem.pin(item_id, not self.mem.item(item_id).pinned)

    def forget_fact(self, pick: int) -> None:
        facts = self.mem.facts(self.a)
        if facts:
            self.mem.forget_fact(facts[pick % len(facts)].id)

    def gc(self, hours: int) -> None:
        self.clock += hours * 3600
        self.mem.gc(now=self.clock)

    def pack(self, query: str) -> None:
        self.mem.pack(query, scope=self.a, now=self.clock)  # its search touches facts, too

    def compact(self) -> None:
        self.mem.compact(scope=self.a, now=self.clock + 200 * 86_400)

    def mark(self) -> None:
        self.marks = [*self.marks[-2:], live.snapshot(self.mem.store, self.a)]

    def check(self, limit: int) -> list[str]:
        topics = []
        b_sessions = {str(s.id) for s in self.mem.sessions(self.b)}
        for head, state in self.marks:
            changes = _assert_stream(self.mem.store, self.a, head, state, limit)
            topics += [c.topic for c in changes]
            for c in changes:
                parts = c.patch[0]["path"].split("/")
                assert not (parts[1] == "sessions" and parts[2] in b_sessions)
        return topics

    def random_step(self, rng: random.Random) -> None:
        """One write (or a mark) chosen by ``rng``, messages and notes most often."""
        op = rng.choices(["add", "batch", "close", "index", "fact", "note", "pin", "forget_fact",
                          "gc", "pack", "compact", "mark"],
                         weights=[30, 6, 4, 6, 8, 10, 4, 2, 5, 3, 1, 3])[0]
        if op == "add":
            self.add(rng.random() < 0.7, rng.choice(TEXTS), rng.random() < 0.15,
                     rng.choice(["user", "assistant"]))
        elif op == "batch":
            n = rng.randint(1, 6)
            self.batch([rng.random() < 0.7 for _ in range(n)],
                       [rng.random() < 0.15 for _ in range(n)], rng.choice(TEXTS))
        elif op == "close":
            self.close(rng.random() < 0.7)
        elif op == "fact":
            self.fact(rng.random() < 0.8, rng.choice(["user", "ana"]),
                      rng.choice(["lives_in", "likes"]), rng.choice(["lisbon", "porto", "jazz"]))
        elif op == "note":
            self.note(rng.random() < 0.8, rng.choice([None, 120, 7200]),
                      rng.choice(["ephemeral", "semantic"]), rng.random() < 0.2, rng.random() < 0.3)
        elif op == "pin":
            self.pin_or_forget(rng.randrange(100), rng.random() < 0.3)
        elif op == "forget_fact":
            self.forget_fact(rng.randrange(100))
        elif op == "gc":
            self.gc(rng.choice([0, 1, 3]))
        elif op == "pack":
            self.pack(rng.choice(["where do I live", "seats", "billing"]))
        else:
            getattr(self, op)()


class LiveMachine(RuleBasedStateMachine):
    """The workload's operations as Hypothesis rules, checked at random points."""

    new_db: Callable[[], str]  # set by the test: a fresh, empty database per example

    @initialize()
    def start(self) -> None:
        self.w = Workload(_memory(self.new_db()))

    @rule(in_a=st.booleans(), text=st.sampled_from(TEXTS), gap=st.booleans(),
          role=st.sampled_from(["user", "assistant"]))
    def add(self, in_a: bool, text: str, gap: bool, role: str) -> None:
        self.w.add(in_a, text, gap, role)

    @rule(in_a=st.lists(st.booleans(), min_size=1, max_size=6),
          gaps=st.lists(st.booleans(), min_size=6, max_size=6), text=st.sampled_from(TEXTS))
    def batch(self, in_a: list[bool], gaps: list[bool], text: str) -> None:
        self.w.batch(in_a, gaps, text)

    @rule(in_a=st.booleans())
    def close(self, in_a: bool) -> None:
        self.w.close(in_a)

    @rule()
    def index(self) -> None:
        self.w.index()

    @rule(in_a=st.booleans(), subject=st.sampled_from(["user", "ana"]),
          predicate=st.sampled_from(["lives_in", "likes"]),
          value=st.sampled_from(["lisbon", "porto", "jazz"]))
    def fact(self, in_a: bool, subject: str, predicate: str, value: str) -> None:
        self.w.fact(in_a, subject, predicate, value)

    @rule(in_a=st.booleans(), ttl=st.sampled_from([None, 120, 7200]),
          lane=st.sampled_from(["ephemeral", "semantic"]), pinned=st.booleans(),
          topic=st.booleans())
    def note(self, in_a: bool, ttl: int | None, lane: str, pinned: bool,
             topic: bool) -> None:
        self.w.note(in_a, ttl, lane, pinned, topic)

    @rule(pick=st.integers(0, 99), forget=st.booleans())
    def pin_or_forget(self, pick: int, forget: bool) -> None:
        self.w.pin_or_forget(pick, forget)

    @rule(pick=st.integers(0, 99))
    def forget_fact(self, pick: int) -> None:
        self.w.forget_fact(pick)

    @rule(hours=st.sampled_from([0, 1, 3]))
    def gc(self, hours: int) -> None:
        self.w.gc(hours)

    @rule(query=st.sampled_from(["where do I live", "seats", "billing"]))
    def pack(self, query: str) -> None:
        self.w.pack(query)

    @rule()
    def compact(self) -> None:
        self.w.compact()

    @rule()
    def mark(self) -> None:
        self.w.mark()

    @rule(limit=st.integers(1, 7))
    def check(self, limit: int) -> None:
        self.w.check(limit)

    def teardown(self) -> None:
        if hasattr(self, "w"):
            try:
                self.w.check(3)
            finally:
                self.w.mem.close()


def _new_db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Callable[[], str]:
    """A factory of fresh, empty databases of ``backend``."""
    if backend == "sqlite":
        files = (tmp_path / f"live{n}.db" for n in itertools.count())
        return lambda: str(next(files))
    from memlane.testing.postgres import create_database

    server = request.getfixturevalue("postgres_server_url")
    names = (f"live_{os.getpid()}_{n}" for n in itertools.count())

    def new_db() -> str:
        return create_database(server, next(names), replace=True)

    return new_db


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_hypothesis_workload_patches_equal_fresh_snapshot(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    LiveMachine.new_db = staticmethod(_new_db(backend, tmp_path, request))
    run_state_machine_as_test(LiveMachine, settings=settings(
        max_examples=10 if backend == "sqlite" else 4, stateful_step_count=30, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]))


@pytest.mark.parametrize(("backend", "seed"), [("sqlite", 1), ("sqlite", 2), ("postgres", 3)])
def test_seeded_random_workload_patches_equal_fresh_snapshot(
        backend: str, seed: int, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """A long seeded run (300 writes), checked every 50 with pages of a random size."""
    rng = random.Random(seed)
    w = Workload(_memory(_new_db(backend, tmp_path, request)()))
    topics: set[str] = set()
    try:
        for step in range(1, 301):
            w.random_step(rng)
            if step % 50 == 0:
                topics.update(w.check(rng.randint(1, 9)))
    finally:
        w.mem.close()
    # the run went through every kind of write it can make
    assert topics >= {"session.opened", "message.added", "session.closed", "session.indexed",
                      "session.summarized", "memory.item.upserted", "memory.item.expired",
                      "memory.item.evicted", "memory.item.deleted", "fact.added",
                      "fact.reinforced", "fact.superseded", "fact.forgotten",
                      "memory.pack.journaled"}


# -- topics ---------------------------------------------------------------------------------
def _topics(store: Any, scope: str, after: int) -> list[str]:
    return [c.topic for c in live.changes_since(store, scope, after, limit=10_000)]


def test_every_write_path_has_its_topic(db_url: str) -> None:
    mem = _memory(db_url)
    s = mem.store
    for i, text in enumerate(TEXTS[:4]):
        mem.add_message("chat", "user", text, at=T0 + i)
    assert _topics(s, "chat", 0) == ["session.opened"] + ["message.added"] * 4
    h = s.last_change_id()
    mem.close_session("chat")
    mem.index(now=T0 + 7200)
    topics = _topics(s, "chat", h)
    assert topics[:2] == ["session.closed", "session.indexed"]
    assert {"memory.item.upserted", "fact.added", "session.summarized"} <= set(topics)
    items = live.snapshot(s, "chat")[1]["items"].values()
    summary = next(i for i in items if i["kind"] == "summary")
    assert summary["topic"] and summary["session_id"] is not None

    h = s.last_change_id()
    mem.add_fact("user", "lives_in", "Rome", scope="chat", at=T0 + 9000)
    mem.add_fact("user", "lives_in", "Rome", scope="chat", at=T0 + 9100)
    assert _topics(s, "chat", h) == ["memory.item.upserted", "fact.added", "fact.superseded",
                                     "memory.item.upserted", "fact.reinforced"]
    h = s.last_change_id()
    mem.search("where do I live", scope="chat")  # touches facts: not a change of the state
    assert s.last_change_id() == h
    rome = next(f for f in mem.facts("chat") if f.object == "Rome")
    mem.forget_fact(rome.id)
    # the value Rome had superseded loses its superseded_by, then Rome and its item go
    assert _topics(s, "chat", h) == ["fact.updated", "fact.forgotten", "memory.item.deleted"]

    h = s.last_change_id()
    keep = mem.upsert("keep me", scope="chat", lane="ephemeral", pinned=True, at=T0)
    mem.upsert("expires", scope="chat", lane="semantic", ttl_seconds=60, at=T0)
    for n in range(4):
        mem.upsert(f"ephemeral {n}", scope="chat", lane="ephemeral", at=T0 + n)
    mem.pin(keep, False)
    mem.gc(now=T0 + 3600)
    mem.pack("lisbon", scope="chat", now=T0 + 9999)
    assert _topics(s, "chat", h) == ["memory.item.upserted"] * 7 + [
        "memory.item.expired", "memory.item.evicted", "memory.item.evicted",
        "memory.pack.journaled"]
    state = live.snapshot(s, "chat")[1]
    assert state["last_pack"]["query"] == "lisbon" and state["last_pack"]["budget"] == 1000
    _assert_stream(s, "chat", 0, _empty("chat"))
    mem.close()


def test_a_failed_summary_is_a_topic(tmp_path: Path) -> None:
    with ChatServer() as srv:
        mem = _memory(tmp_path / "llm.db", indexing={"backend": "llm", "service": "local",
                                                     "retry_base_seconds": 0},
                      llm_services={"local": {"base_url": srv.base_url, "model": "m",
                                              "timeout_seconds": 0.5, "max_retries": 1}})
        for i, text in enumerate(TEXTS[:3]):
            mem.add_message("chat", "user", text, at=T0 + i)
        srv.fail(500, times=2)
        mem.index(now=T0 + 7200)
        state = live.snapshot(mem.store, "chat")[1]
        (session,) = state["sessions"].values()
        assert session["status"] == "failed" and "500" in session["failed_reason"]
        assert "session.failed" in _topics(mem.store, "chat", 0)
        _assert_stream(mem.store, "chat", 0, _empty("chat"))
        mem.close()


# -- transactions, restarts, retention -----------------------------------------------------------
def test_rolled_back_transaction_leaves_no_change(db_url: str) -> None:
    mem = _memory(db_url)
    mem.add_message("chat", "user", "first", at=T0)
    head, before = live.snapshot(mem.store, "chat")
    with pytest.raises(RuntimeError), mem.store.atomic():
        mem.add_message("chat", "user", "second", at=T0 + 1)
        mem.upsert("a note", scope="chat")
        mem.add_fact("user", "lives_in", "Oslo", scope="chat")
        raise RuntimeError("crash before commit")
    assert live.snapshot(mem.store, "chat") == (head, before)
    assert live.changes_since(mem.store, "chat", head) == []
    mem.add_message("chat", "user", "third", at=T0 + 2)
    (change,) = live.changes_since(mem.store, "chat", head)
    assert change.topic == "message.added" and change.patch[0]["value"]["turn_count"] == 2
    mem.close()


def test_killed_writer_leaves_log_and_state_consistent(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    code = (
        "import sys; from memlane.testing import memory\n"
        "mem = memory(sys.argv[1])\n"
        "for i in range(100000):\n"
        "    mem.add_message('chat', 'user', f'message {i}', at=1700000000 + i * 120)\n"
        "    if i % 7 == 0: mem.upsert(f'note {i}', scope='chat', lane='ephemeral')\n"
        "    if i % 11 == 0: mem.add_fact('user', 'lives_in', f'city {i % 3}', scope='chat')\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(db)], stderr=subprocess.PIPE)
    _wait_for(db)
    mem = _memory(db)
    deadline = time.monotonic() + 120
    while mem.store.last_change_id() < 400 and time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    mem.close()
    mem = _memory(db)  # reopened after the crash: the log is whole and matches the state
    changes = _assert_stream(mem.store, "chat", 0, _empty("chat"), limit=97)
    assert len(changes) >= 400
    mem.close()


def _wait_for(db: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not db.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert db.exists(), "the writer never started"
    time.sleep(0.5)  # let the writer finish its migrations


def test_resume_after_reopening_the_database(db_url: str) -> None:
    mem = _memory(db_url)
    mem.add_message("chat", "user", "before the restart", at=T0)
    head, state = live.snapshot(mem.store, "chat")
    mem.add_message("chat", "user", "while the client was away", at=T0 + 1)
    mem.close()
    mem = _memory(db_url)
    mem.add_message("chat", "user", "after the restart", at=T0 + 2)
    mem.close_session("chat")
    changes = _assert_stream(mem.store, "chat", head, state)
    assert [c.topic for c in changes] == ["message.added", "message.added", "session.closed"]
    mem.close()


def test_retention_prunes_and_an_old_position_must_reset(db_url: str) -> None:
    mem = _memory(db_url, live={"keep_changes": 3})
    for i in range(6):
        mem.add_message("chat", "user", f"message {i}", at=T0 + i)
    head, state = live.snapshot(mem.store, "chat")
    report = mem.gc(now=T0)
    assert report.changes_pruned == head - 3
    assert mem.store.change_floor() == head - 3
    with pytest.raises(ResetRequired) as e:
        live.poll(mem.store, "chat", 0)
    assert (e.value.after, e.value.floor, e.value.head) == (0, head - 3, head)
    assert "take a new snapshot" in str(e.value)
    assert live.poll(mem.store, "chat", head - 3).cursor == head  # still retained
    assert _assert_stream(mem.store, "chat", head, state) == []
    with pytest.raises(ResetRequired, match="ahead of the change log"):
        live.poll(mem.store, "chat", head + 1)

    # by age: everything older than keep_days goes but the newest row; ids go on from it
    report = mem.gc(now=time.time() + 8 * 86_400)
    assert report.changes_pruned == 2 and mem.store.change_floor() == head - 1
    assert live.poll(mem.store, "chat", head) == live.Poll([], head)
    mem.add_message("chat", "user", "after pruning", at=T0 + 10)
    (change,) = live.changes_since(mem.store, "chat", head)
    assert change.id == head + 1
    _assert_stream(mem.store, "chat", head, state)
    mem.close()


def test_a_quiet_scope_advances_to_the_head(db_url: str) -> None:
    mem = _memory(db_url)
    mem.add_message("quiet", "user", "hello", at=T0)
    head, _ = live.snapshot(mem.store, "quiet")
    for i in range(5):
        mem.add_message("busy", "user", f"message {i}", at=T0 + i)
    batch = live.poll(mem.store, "quiet", head)
    assert batch.changes == [] and batch.cursor == mem.store.last_change_id() == head + 6
    mem.close()


def test_bad_positions_and_scopes_name_the_field(db_url: str) -> None:
    mem = _memory(db_url)
    for kwargs, field in [({"after": -1}, "after"), ({"after": "3"}, "after"),
                          ({"after": 0, "limit": 0}, "limit"),
                          ({"after": 0, "limit": live.MAX_LIMIT + 1}, "limit")]:
        with pytest.raises(ValidationError) as e:
            live.poll(mem.store, "chat", **kwargs)
        assert e.value.field == field
    with pytest.raises(ValidationError) as e:
        live.snapshot(mem.store, " ")
    assert e.value.field == "scope"
    mem.close()


# -- PostgreSQL: concurrent writers ----------------------------------------------------------
def test_pg_a_late_commit_is_not_skipped(pg_url: str) -> None:
    """A transaction that wrote first but commits last still reaches a reader that has
    already read past the changes committed meanwhile."""
    slow, fast, reader = _memory(pg_url), _memory(pg_url), _memory(pg_url)
    fast.upsert("the first vector creates the vector index (under a lock held to commit)")
    head, state = live.snapshot(reader.store, "chat")
    with contextlib.ExitStack() as stack:
        stack.enter_context(slow.store.atomic())
        slow_id = slow.upsert("written first, committed last", scope="chat")
        fast_id = fast.upsert("written second, committed first", scope="chat")
        assert slow_id < fast_id
        early = live.poll(reader.store, "chat", head)
        assert [c.patch[0]["path"] for c in early.changes] == [f"/items/{fast_id}"]
        with pytest.raises(StoreError, match="inside another transaction"):
            slow.store.last_change_id()
    late = live.poll(reader.store, "chat", early.cursor)
    assert [c.patch[0]["path"] for c in late.changes] == [f"/items/{slow_id}"]
    assert late.changes[0].id > early.cursor
    _assert_stream(reader.store, "chat", head, state)
    for m in (slow, fast, reader):
        m.close()


def test_pg_concurrent_writers_and_a_polling_reader(pg_url: str) -> None:
    import threading

    reader = _memory(pg_url)
    head, state = live.snapshot(reader.store, "chat")
    errors: list[BaseException] = []

    def write(n: int) -> None:
        mem = _memory(pg_url)
        try:
            for i in range(25):
                if i % 3 == 0:
                    mem.add_fact("user", "lives_in", f"city {(n + i) % 4}", scope="chat")
                elif i % 3 == 1:
                    mem.upsert(f"note {n}-{i}", scope="chat", lane="ephemeral")
                else:
                    mem.add_message("chat", "user", f"message {n}-{i}", at=T0 + n * 100 + i)
            if n == 0:  # one collector: two evicting the same rows may deadlock (not ours)
                mem.gc(now=T0)
            mem.pack("city", scope="chat", now=T0)
        except BaseException as e:  # reported below, in the test's thread
            errors.append(e)
        finally:
            mem.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        batch = live.poll(reader.store, "chat", head, limit=7)
        state, head = live.apply(state, batch.changes), batch.cursor
        time.sleep(0.01)
    for t in threads:
        t.join()
    assert not errors, errors
    _assert_stream(reader.store, "chat", head, state, limit=5)
    reader.close()


def test_a_copy_has_the_same_state_and_its_own_log(tmp_path: Path, pg_url: str) -> None:
    """``memlane copy`` writes through the same triggers: the copy's state document is the
    source's, on the other backend, and its log replays to it from its floor (since session
    26 the copy's records follow the source's last id, so no source position names another
    change; tests/test_copy.py)."""
    from memlane.store.copy import copy_store

    mem = _memory(tmp_path / "source.db")
    rng = random.Random(7)
    w = Workload(mem)
    for _ in range(80):
        w.random_step(rng)
    target = _memory(pg_url)
    copy_store(mem.store, target.store)
    assert live.snapshot(target.store, "a")[1] == live.snapshot(mem.store, "a")[1]
    _assert_stream(target.store, "a", target.store.change_floor(), _empty("a"))
    mem.close()
    target.close()


def test_erasure_topics_are_among_the_topics(db_url) -> None:
    """``live.TOPICS`` names every topic a change can carry: erasure's ``session.erased``,
    ``memory.pack.deleted`` and ``scope.erased`` were missing (found filtering a stream by
    ``live.TOPICS`` after an erase: the events that empty the state were dropped)."""
    from memlane.testing import memory

    with memory(db_url) as mem:
        head, state = live.snapshot(mem.store, "s")
        for day in (1, 2):
            mem.add_message("s", "user", f"I moved to Lisbon on day {day}",
                            at=f"2024-03-0{day}T09:00:00Z")
            mem.close_session("s")
        mem.index()
        mem.pack("Lisbon", 200, scope="s")
        topics: set[str] = set()
        for erase in (lambda: mem.forget_session(mem.sessions(scope="s")[-1].id),
                      lambda: mem.forget_scope("s")):
            erase()
            batch = live.poll(mem.store, "s", head, 10_000)
            topics |= {c.topic for c in batch.changes}
            state, head = live.apply(state, batch.changes), batch.cursor
            assert state == live.snapshot(mem.store, "s")[1]
        assert {"session.erased", "scope.erased"} <= topics, topics
        assert topics <= set(live.TOPICS), topics - set(live.TOPICS)
