"""A process killed in the middle of an erasure, of an index run or of a summary leaves a
database whose every invariant holds; the interrupted work then completes (real SIGKILL,
real SQLite file). The child stops itself at a chosen SQL statement (a tracer that writes
a mark file and waits), so the kill lands inside the transaction, not before or after it."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

NOW = "2030-01-01T00:00:00Z"


def check_invariants(db: Path) -> dict[str, int]:
    """Every rule that must hold between the tables of a memlane SQLite file; the row counts."""
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        con.execute("INSERT INTO items_fts (items_fts) VALUES ('integrity-check')")
        one = lambda sql: con.execute(sql).fetchone()[0]  # noqa: E731
        # sessions count their messages, whose turns are numbered 1..n with no gap
        assert one("SELECT coalesce(sum(message_count), 0) FROM sessions") == one(
            "SELECT count(*) FROM messages")
        assert one("SELECT count(*) FROM (SELECT session_id, max(seq) m, count(*) c, min(seq) f"
                   " FROM messages GROUP BY session_id) WHERE m != c OR f != 1") == 0
        # a session has at most one turn per message (fewer: those forgotten one by one,
        # ``forget_item``, or not indexed yet). An unindexed session may hold turns: one a
        # late message joined, or that another session joined, is queued again with the
        # turns it had (session 24)
        assert one(
            "SELECT count(*) FROM sessions s WHERE (SELECT count(DISTINCT i.message_id)"
            " FROM items i WHERE i.session_id = s.id AND i.kind = 'turn') > s.message_count") == 0
        assert one("SELECT count(*) FROM items i WHERE i.kind = 'turn' AND i.status = 'active'"
                   " AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.item_id = i.id)") == 0
        assert one("SELECT count(*) FROM items i JOIN sessions s ON s.id = i.session_id"
                   " WHERE i.scope IS NOT s.scope") == 0
        assert one("SELECT count(*) FROM items WHERE message_id IS NOT NULL AND message_id"
                   " NOT IN (SELECT id FROM messages)") == 0
        assert one("SELECT count(*) FROM items WHERE session_id IS NOT NULL AND session_id"
                   " NOT IN (SELECT id FROM sessions)") == 0
        assert one("SELECT count(*) FROM vectors WHERE item_id NOT IN (SELECT id FROM items)") == 0
        assert one("SELECT count(*) FROM facts WHERE item_id IS NOT NULL AND item_id"
                   " NOT IN (SELECT id FROM items)") == 0
        assert one("SELECT count(*) FROM facts WHERE session_id IS NOT NULL AND session_id"
                   " NOT IN (SELECT id FROM sessions)") == 0
        # a summarized session has exactly one (non on-demand) summary item
        assert one(
            "SELECT count(*) FROM sessions s WHERE s.status = 'summarized' AND (SELECT count(*)"
            " FROM items i WHERE i.session_id = s.id AND i.kind = 'summary'"
            " AND coalesce(json_extract(i.extra, '$.on_demand'), 0) = 0) != 1") == 0
        # no id above a table's largest ever given (id_floor) is missing its floor
        for t in ("sessions", "messages", "items", "facts", "packs"):
            top = one(f"SELECT coalesce(max(id), 0) FROM {t}")
            floor = one(f"SELECT coalesce((SELECT value FROM id_floor WHERE name = '{t}'), 0)")
            assert top >= 0 and floor >= 0
        return {t: one(f"SELECT count(*) FROM {t}") for t in (
            "sessions", "messages", "items", "vectors", "facts", "entities", "packs")}
    finally:
        con.close()


CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from memlane.config import load_config
    from memlane.memory import Memory
    from memlane.testing import HashingEmbedder

    db, mark, trigger, action = sys.argv[1:5]
    seen = [0]

    def tracer(kind, sql, _):
        if kind == "sql" and trigger in sql:
            seen[0] += 1
            if seen[0] == 1:  # inside the transaction, before this statement runs
                Path(mark).write_text("in")
                time.sleep(600)

    mem = Memory(db, config=load_config(environ={}), embedder=HashingEmbedder(dim=64),
                 tracer=tracer)
    if action == "erase":
        mem.forget_scope("big")
    elif action == "forget_session":
        mem.forget_session(int(sys.argv[5]))
    else:
        mem.index(now="%s")
""" % NOW)


def _build(db: Path, *, index: bool) -> None:
    with Memory(str(db), config=load_config(environ={}), embedder=HashingEmbedder(dim=64)) as mem:
        for scope, sessions in (("big", 12), ("small", 3)):
            for s in range(sessions):
                mem.add_messages([
                    {"scope": scope, "role": "user" if i % 2 == 0 else "assistant",
                     "text": f"{scope} session {s} turn {i}: my cat Miso likes fish {i}",
                     "at": f"2024-01-{s + 1:02d}T10:{i:02d}:00Z"} for i in range(20)])
                mem.close_session(scope)
        mem.add_fact("user", "lives_in", "Porto", scope="big")
        mem.pack("cat", scope="big")
        if index:
            mem.index(now=NOW)


def _run_and_kill(tmp_path: Path, db: Path, trigger: str, *args: str) -> None:
    mark = tmp_path / "mark"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(db), str(mark), trigger, *args],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(6000):  # bounded: up to 60 s for the child to reach its statement
            if mark.exists() or proc.poll() is not None:
                break
            time.sleep(0.01)
        if not mark.exists():
            _, err = proc.communicate(timeout=60)
            raise AssertionError(f"the child ended ({proc.returncode}) before its mark: {err}")
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)


@pytest.mark.parametrize("trigger", ["DELETE FROM items", "DELETE FROM messages",
                                     "DELETE FROM changes"])
def test_kill_during_scope_erasure(tmp_path: Path, trigger: str) -> None:
    db = tmp_path / "m.db"
    _build(db, index=True)
    before = check_invariants(db)
    _run_and_kill(tmp_path, db, trigger, "erase")
    assert check_invariants(db) == before  # all or nothing: here nothing
    with Memory(str(db), config=load_config(environ={}), embedder=HashingEmbedder(dim=64)) as mem:
        assert mem.forget_scope("big").erased
        assert {s.scope for s in mem.sessions()} == {"small"}
        assert not [h for h in mem.search("cat Miso fish") if h.item.scope == "big"]
    after = check_invariants(db)
    assert after["messages"] == 60 and after["sessions"] == 3


def test_kill_during_session_erasure(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _build(db, index=True)
    before = check_invariants(db)
    with Memory(str(db), config=load_config(environ={}), embedder=HashingEmbedder(dim=64)) as mem:
        victim = mem.sessions(scope="big")[0].id
    _run_and_kill(tmp_path, db, "DELETE FROM", "forget_session", str(victim))
    assert check_invariants(db) == before
    with Memory(str(db), config=load_config(environ={}), embedder=HashingEmbedder(dim=64)) as mem:
        mem.forget_session(victim)
        assert victim not in {s.id for s in mem.sessions()}
    assert check_invariants(db)["messages"] == before["messages"] - 20


@pytest.mark.parametrize("trigger", ["INSERT INTO vectors", "UPDATE sessions SET status"])
def test_kill_during_index_resumes(tmp_path: Path, trigger: str) -> None:
    db = tmp_path / "m.db"
    _build(db, index=False)
    _run_and_kill(tmp_path, db, trigger, "index")
    check_invariants(db)
    with Memory(str(db), config=load_config(environ={}), embedder=HashingEmbedder(dim=64)) as mem:
        mem.index(now=NOW)
        mem.index(now=NOW)
        assert {s.status for s in mem.sessions()} == {"summarized"}
    counts = check_invariants(db)
    assert counts["messages"] == 300
    con = sqlite3.connect(db)
    try:  # every turn indexed exactly once, with its vector
        assert con.execute("SELECT count(*), count(DISTINCT message_id) FROM items i JOIN vectors v"
                           " ON v.item_id = i.id WHERE kind = 'turn'").fetchone() == (300, 300)
    finally:
        con.close()


# -- the same invariants after any history of the public API ----------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_OPS = st.lists(st.one_of(
    st.tuples(st.just("add"), st.sampled_from(["a", "b"]), st.integers(0, 3)),
    st.tuples(st.just("close"), st.sampled_from(["a", "b"]), st.just(0)),
    st.tuples(st.just("index"), st.just(""), st.just(0)),
    st.tuples(st.just("fact"), st.sampled_from(["a", "b"]), st.integers(0, 2)),
    st.tuples(st.just("forget_fact"), st.just(""), st.integers(0, 5)),
    st.tuples(st.just("forget_item"), st.just(""), st.integers(0, 50)),
    st.tuples(st.just("forget_session"), st.just(""), st.integers(0, 5)),
    st.tuples(st.just("forget_scope"), st.sampled_from(["a", "b"]), st.just(0)),
    st.tuples(st.just("summary"), st.sampled_from(["a", "b"]), st.integers(1, 4)),
    st.tuples(st.just("pack"), st.sampled_from(["a", "b"]), st.just(0)),
    st.tuples(st.just("note"), st.sampled_from(["a", "b"]), st.just(0)),
), min_size=1, max_size=30)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=_OPS)
def test_invariants_hold_after_any_history(tmp_path_factory: pytest.TempPathFactory,
                                           ops: list[tuple[str, str, int]]) -> None:
    db = tmp_path_factory.mktemp("inv") / "m.db"
    minute = [0]
    with Memory(str(db), config=load_config(environ={}), embedder=HashingEmbedder(dim=32)) as mem:
        for op, scope, n in ops:
            minute[0] += 7
            at = 1.7e9 + minute[0] * 60
            if op == "add":
                for i in range(n + 1):
                    mem.add_message(scope, "user" if i % 2 == 0 else "assistant",
                                    f"{scope} likes topic {minute[0] % 5} turn {i}", at=at + i)
            elif op == "close":
                mem.close_session(scope)
            elif op == "index":
                mem.index(now=at + 86400)
            elif op == "fact":
                mem.add_fact("user", "lives_in", ["Porto", "Faro", "Braga"][n], scope=scope, at=at)
            elif op == "forget_fact":
                facts = mem.facts(include_superseded=True)
                if facts:
                    mem.forget_fact(facts[n % len(facts)].id)
            elif op == "forget_item":
                ids = [h.item.id for h in mem.search("likes topic", k=50)]
                if ids:
                    mem.forget_item(ids[n % len(ids)])
            elif op == "forget_session":
                sessions = mem.sessions()
                if sessions:
                    mem.forget_session(sessions[n % len(sessions)].id)
            elif op == "forget_scope":
                mem.forget_scope(scope)
            elif op == "summary":
                if mem.store.recent_messages(scope, 1):
                    mem.store_summary(mem.summarize_recent(scope, n))
            elif op == "pack":
                mem.pack("topic", scope=scope)
            else:
                mem.upsert(f"note of {scope} {minute[0]}", scope=scope, topics=["notes"])
            check_invariants(db)
