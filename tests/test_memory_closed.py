"""A ``Memory`` used after ``close()`` (or after its ``with`` block) raises a clear
``StoreError`` naming its database, as a closed file or ``sqlite3`` connection does; it
used to open new connections quietly, on both stores, and so wrote to a database its
owner believed released."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memlane.config import load_config
from memlane.errors import StoreError
from memlane.memory import Memory
from memlane.testing import HashingEmbedder

NOW = "2024-06-01T00:00:00Z"
LINE = json.dumps({"scope": "s", "role": "user", "text": "imported", "at": "2024-05-01T10:00:00Z"})

# every public method that reads or writes the database, with arguments it accepts
CALLS: dict[str, Callable[[Memory, dict[str, Any]], Any]] = {
    "add_message": lambda m, ids: m.add_message("s", "user", "hi", "2024-05-01T11:00:00Z"),
    "add_messages": lambda m, ids: m.add_messages([{"scope": "s", "text": "x"}]),
    "import_file": lambda m, ids: m.import_file(io.StringIO(LINE + "\n")),
    "close_session": lambda m, ids: m.close_session("s"),
    "close_idle": lambda m, ids: m.close_idle(NOW),
    "session": lambda m, ids: m.session(ids["session"]),
    "sessions": lambda m, ids: m.sessions(),
    "messages": lambda m, ids: m.messages(ids["session"]),
    "session_intelligence": lambda m, ids: m.session_intelligence(ids["session"]),
    "item": lambda m, ids: m.item(ids["item"]),
    "index": lambda m, ids: m.index(NOW),
    "summarize_recent": lambda m, ids: m.summarize_recent("s", 2),
    "store_summary": lambda m, ids: m.store_summary(ids["draft"]),  # type: ignore[arg-type]
    "backfill_embeddings": lambda m, ids: m.backfill_embeddings(),
    "search": lambda m, ids: m.search("cat", scope="s"),
    "pack": lambda m, ids: m.pack("cat", scope="s"),
    "reading_only": lambda m, ids: m.reading_only().__enter__(),
    "format_context": lambda m, ids: m.format_context("s", "cat"),
    "replay_pack": lambda m, ids: m.replay_pack(ids["pack"]),
    "upsert": lambda m, ids: m.upsert("a note"),
    "pin": lambda m, ids: m.pin(ids["item"]),
    "thread": lambda m, ids: m.thread("cats"),
    "add_fact": lambda m, ids: m.add_fact("user", "lives_in", "Porto", scope="s"),
    "facts": lambda m, ids: m.facts("s"),
    "fact_history": lambda m, ids: m.fact_history("user", "lives_in"),
    "forget_fact": lambda m, ids: m.forget_fact(ids["fact"]),
    "forgotten_facts": lambda m, ids: m.forgotten_facts("user", "lives_in"),
    "graph": lambda m, ids: m.graph("user"),
    "forget_item": lambda m, ids: m.forget_item(ids["item"]),
    "forget_scope": lambda m, ids: m.forget_scope("s"),
    "forget_session": lambda m, ids: m.forget_session(ids["session"]),
    "gc": lambda m, ids: m.gc(NOW),
    "compact": lambda m, ids: m.compact(now=NOW),
    "work_once": lambda m, ids: m.work_once(NOW),
    "background_index": lambda m, ids: m.background_index(NOW),
    "vacuum": lambda m, ids: m.vacuum(),
    "stats": lambda m, ids: m.stats(),
    "start_worker": lambda m, ids: m.start_worker(poll_seconds=0.05),
}


def _memory(db: str) -> Memory:
    return Memory(db, config=load_config(environ={}), embedder=HashingEmbedder(dim=64))


def _filled(db: str) -> tuple[Memory, dict[str, Any]]:
    mem = _memory(db)
    mem.add_message("s", "user", "My cat is called Miso", "2024-05-01T10:00:00Z")
    mem.add_message("s", "assistant", "Miso is a fine name", "2024-05-01T10:01:00Z")
    session = mem.close_session("s")
    assert session is not None
    mem.index(NOW)
    item = mem.upsert("the cat likes tuna", scope="s", topics=["cats"])
    fact = mem.add_fact("user", "lives_in", "Lisbon", scope="s")
    pack = mem.pack("cat", scope="s")
    assert pack.id is not None
    draft = mem.summarize_recent("s", 2)
    return mem, {"session": session.id, "item": item, "fact": fact.fact_id, "pack": pack.id,
                 "draft": draft}


def test_every_method_covered() -> None:
    public = {n for n in dir(Memory) if not n.startswith("_") and callable(getattr(Memory, n))}
    assert public - set(CALLS) == {"close"}


@pytest.mark.parametrize("method", sorted(CALLS))
def test_closed_memory_refuses_every_call(db_url: str, method: str) -> None:
    mem, ids = _filled(db_url)
    before = mem.stats()
    mem.close()
    with pytest.raises(StoreError, match="closed") as e:
        CALLS[method](mem, ids)
    where = db_url if not db_url.startswith("postgres") else db_url.rsplit("/", 1)[-1]
    assert where in str(e.value)  # names the database
    mem.close()  # closing twice is allowed, as a file's close
    again = _memory(db_url)  # nothing was written through the closed Memory
    try:
        assert again.stats()["messages"] == before["messages"]
        assert again.stats()["items"] == before["items"]
    finally:
        again.close()


def test_with_block_closes(tmp_path: Path) -> None:
    with _memory(str(tmp_path / "m.db")) as mem:
        mem.add_message("s", "user", "hello")
    with pytest.raises(StoreError, match=r"m\.db: this database was closed"):
        mem.add_message("s", "user", "after the block")
    with pytest.raises(StoreError, match="closed"), mem:  # entering it again
        pass
    with _memory(str(tmp_path / "m.db")) as fresh:
        assert [m.text for m in fresh.messages(fresh.sessions()[0].id)] == ["hello"]


def test_a_folder_as_database_is_named(tmp_path: Path) -> None:
    """It said 'opening …: unable to open database file'."""
    (tmp_path / "data").mkdir()
    with pytest.raises(StoreError, match=r"db: .*data is a folder, not a database file"):
        _memory(str(tmp_path / "data"))


CLOSE_WHILE_BUSY = """
import sqlite3, sys, threading
from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder

db = sys.argv[1]
mem = Memory(db, config=load_config(environ={}), embedder=HashingEmbedder(dim=32))
stored, errors, started = [], [], threading.Semaphore(0)

def work(k):
    try:
        for i in range(100000):
            stored.extend(mem.add_messages([{"scope": f"s{k}", "text": f"x{i}"},
                                            {"scope": f"s{k}", "text": f"y{i}"}]))
            mem.search("x", scope=f"s{k}")
            if i == 20:
                started.release()
    except Exception as e:
        errors.append(f"{type(e).__name__}: {e}")

threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
for t in threads:
    t.start()
for _ in threads:
    started.acquire()
mem.close()
for t in threads:
    t.join()
con = sqlite3.connect(db)
print(len(errors), len(stored), con.execute("SELECT count(*) FROM messages").fetchone()[0])
print(errors[0] if errors else "")
"""


def test_closing_while_other_threads_use_it(tmp_path: Path) -> None:
    """Closing a Memory while three threads added and searched crashed the process with a
    segmentation fault (the SQLite connections were closed under the threads using them),
    three runs out of three. Now close waits for the calls in flight and refuses new ones."""
    import os
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", CLOSE_WHILE_BUSY, str(tmp_path / "m.db")],
                         capture_output=True, text=True, env=dict(os.environ), timeout=300)
    assert out.returncode == 0, (out.returncode, out.stderr[-2000:])
    errors, returned, in_file = out.stdout.split("\n")[0].split()
    assert errors == "3" and returned == in_file, out.stdout  # every stored message kept
    assert "this database was closed" in out.stdout


# a close() made inside one of its own thread's calls: a progress callback (an app that
# stops on Ctrl-C, or when it has seen enough), the index run's summary progress
CLOSED_INSIDE: dict[str, Callable[[Memory], Any]] = {
    "index progress": lambda m: m.index(NOW, progress=lambda s, t: m.close()),
    "summary progress": lambda m: m.index(NOW, summary_progress=lambda d, w: m.close()),
    "backfill progress": lambda m: m.backfill_embeddings(missing_only=False, batch=1,
                                                         progress=lambda n: m.close()),
}


@pytest.mark.parametrize("call", sorted(CLOSED_INSIDE))
def test_a_close_inside_its_own_call_ends_the_call_first(db_url: str, call: str) -> None:
    """It closed the connections under the call still running: the call failed with
    ``query failed: Cannot operate on a closed database.`` (SQLite) half-way through its
    sessions. Now the call ends as it would have, and the database is closed after it."""
    mem = _memory(db_url)
    for n in range(3):
        mem.add_message(f"s{n}", "user", f"My cat number {n} is called Miso",
                        "2024-05-01T10:00:00Z")
        mem.add_message(f"s{n}", "assistant", "A fine name", "2024-05-01T10:01:00Z")
    if call == "backfill progress":
        mem.index(NOW)
    CLOSED_INSIDE[call](mem)
    with pytest.raises(StoreError, match="this database was closed"):
        mem.stats()
    mem.close()
    again = _memory(db_url)
    try:
        assert not again.store.sessions_to_index(limit=10)  # every session went through
        assert again.stats()["summary_queue"]["leased"] == 0  # none left waiting a lease
        assert len(again.search("cat Miso")) >= 3
    finally:
        again.close()
