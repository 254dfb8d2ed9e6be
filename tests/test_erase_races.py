"""Erasure under failure and concurrency (docs/erasure.md).

- A process killed with SIGKILL in the middle of an erase leaves everything (killed before
  the commit) or nothing (after it), and a consistent database, on a real SQLite file.
- A worker summarising a session while it is erased writes nothing of it afterwards: no
  summary, fact, entity, relation or cached vector re-creates what the erase took (a real
  worker thread on its own connections, a real loopback model server holding its answer
  until the erase has committed; SQLite and PostgreSQL).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import pytest

from memlane.config import LLMServiceConfig, load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, add_sessions
from memlane.testing.llm_server import ChatServer

NOW = datetime(2024, 6, 1, tzinfo=UTC)

_ERASER = """
import sys, time
from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder

stop_at = sys.argv[2]

def tracer(kind, sql, params=None):
    if kind == "sql" and stop_at in sql:
        print("AT", flush=True)
        time.sleep(120)

mem = Memory(sys.argv[1], config=load_config(environ={}), tracer=tracer,
             embedder=HashingEmbedder(dim=256, char_trigrams=True))
mem.forget_scope("alice")
print("DONE", flush=True)
"""


def _counts(path: Path, scope: str) -> dict[str, int]:
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        con.execute("INSERT INTO items_fts (items_fts) VALUES ('integrity-check')")
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        return {t: con.execute(f"SELECT count(*) FROM {t} WHERE scope = ?", (scope,)).fetchone()[0]
                for t in ("sessions", "messages", "items", "facts", "entities", "relations",
                          "packs", "fact_events")}
    finally:
        con.close()


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
@pytest.mark.parametrize(("stop_at", "erased"), [
    ("DELETE FROM items WHERE scope", False),        # half the deletes done
    ("'optimize'", False),                            # every delete done, not committed
    ("wal_checkpoint", True),                         # committed, the WAL not yet truncated
])
def test_a_kill_mid_erase_leaves_everything_or_nothing(tmp_path: Path, stop_at: str,
                                                       erased: bool) -> None:
    db = tmp_path / "crash.db"
    mem = Memory(str(db), config=load_config(environ={}),
                 embedder=HashingEmbedder(dim=256, char_trigrams=True))
    for scope in ("alice", "bob"):
        add_sessions(mem, [(d, [("user", f"I moved to Porto, day {d}, {scope}"),
                                ("assistant", "nice"), ("user", "my sister Ana lives there"),
                                ("assistant", "good")]) for d in range(1, 6)],
                     now=NOW, scope=scope)
        mem.pack("where do I live", 300, scope=scope)
    mem.close()
    before = _counts(db, "alice")
    bob = _counts(db, "bob")
    assert before["sessions"] == 5 and before["items"] > 0

    script = tmp_path / "erase.py"
    script.write_text(_ERASER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).resolve().parents[1] / "src"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, str(script), str(db), stop_at], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()   # blocks until the tracer reached the statement
    assert line.strip() == "AT", proc.communicate(timeout=60)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL

    after = _counts(db, "alice")
    assert after == (dict.fromkeys(before, 0) if erased else before)
    assert _counts(db, "bob") == bob


def _model_reply(marker: str, asked: threading.Event, release: threading.Event) -> Any:
    def reply(body: dict[str, Any]) -> str:
        asked.set()
        release.wait(60)
        return json.dumps({
            "topic": f"Moving to {marker}ville",
            "context": f"The user moved to {marker}ville near their sister.",
            "decisions": [f"Visit {marker} market"],
            "topic_tags": [f"{marker}"],
            "entities": [{"name": f"{marker}ville", "type": "place", "context": "new home"}],
            "facts": [{"subject": "user", "predicate": "lives in", "object": f"{marker}ville",
                       "turn": 1}],
            "relations": [{"from": "user", "relation": "lives in", "to": f"{marker}ville"}],
        })
    return reply


@contextlib.contextmanager
def _held_model(db_url: str, marker: str) -> Iterator[tuple[Memory, Memory, threading.Event, threading.Event]]:
    """``(mem, worker, asked, release)``: two ``Memory`` objects on ``db_url`` (the test's
    and an indexing worker's) summarising through a loopback model server whose each answer
    (``_model_reply`` of ``marker``) sets ``asked`` and waits (at most 60 s) until ``release``
    is set. Both are closed, and the server released, on the way out."""
    asked, release = threading.Event(), threading.Event()
    with ChatServer(_model_reply(marker, asked, release)) as srv:
        config = load_config(environ={}).replace(
            indexing={"backend": "llm", "service": "local", "max_attempts": 1},
            llm_services={"local": LLMServiceConfig(base_url=srv.base_url, model="m",
                                                    api_key_env="MEMLANE_TEST_NO_SUCH_KEY")})
        embedder = HashingEmbedder(dim=256, char_trigrams=True)
        mem = Memory(db_url, config=config, embedder=embedder)
        worker = Memory(db_url, config=config, embedder=embedder)
        try:
            yield mem, worker, asked, release
        finally:
            release.set()
            worker.close()
            mem.close()


def test_a_worker_summarising_an_erased_session_writes_nothing_of_it(db_url: str) -> None:
    marker = "Vexmoor"
    with _held_model(db_url, marker) as (mem, worker, asked, release):
        # bob: a small session, read by the offline patterns (no model call)
        add_sessions(mem, [(3, [("user", "I live in Porto"), ("assistant", "ok")])],
                     now=NOW, scope="bob")
        cached_before = _cached(mem.store)
        add_sessions(mem, [(2, [("user", f"I moved to {marker}ville"), ("assistant", "splendid"),
                                ("user", "my sister lives there"), ("assistant", "nice")])],
                     now=NOW, scope="alice", index=False)
        done: list[Any] = []
        thread = threading.Thread(target=lambda: done.append(worker.index(now=NOW)))
        thread.start()
        # the worker has indexed the turns and leased the session; it waits on the model
        assert asked.wait(60)
        report = mem.forget_scope("alice")
        assert report.counts["sessions"] == 1 and report.counts["messages"] == 4
        release.set()
        thread.join(60)
        assert not thread.is_alive() and done
        store = mem.store
        assert store.list_sessions("alice") == []
        assert store.items_of_kind("summary", "alice") == []
        assert store.scope_entities("alice") == []
        assert store.list_facts("alice") == []
        assert store.relations_of(f"{marker.lower()}ville", "alice") == []
        # the cache holds none of the turn, summary, fact and entity texts the worker
        # embedded for alice, the last ones after the erase
        assert _cached(store) == cached_before
        assert _cache_mentions(store, marker) == 0
        assert [s.scope for s in store.list_sessions()] == ["bob"]
        assert store.counters().get("sessions_failed", 0) == 0


def _cached(store: Any) -> set[bytes]:
    return {bytes(r[0]) for r in store.db.execute("SELECT hash FROM embed_cache")}


def _cache_mentions(store: Any, marker: str) -> int:
    """Rows of any table that mention ``marker``."""
    if store.backend == "postgres":
        tables = [r[0] for r in store.db.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        return sum(store.db.execute(f"SELECT count(*) FROM {t} x WHERE x::text ILIKE %s",
                                    (f"%{marker}%",)).fetchone()[0] for t in tables)
    tables = [r[0] for r in store.db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")]
    n = 0
    for t in tables:
        for row in store.db.execute(f"SELECT * FROM {t}"):
            n += marker.lower() in " ".join(map(str, row)).lower()
    return n


@contextlib.contextmanager
def _held_embedder(db_url: str) -> Iterator[tuple[Memory, Memory, threading.Event, threading.Event]]:
    """``(mem, worker, asked, release)``: two ``Memory`` objects on ``db_url`` (the test's
    and an indexing worker's, indexing turns only) embedding through a loopback
    OpenAI-compatible server; once the test clears ``release``, each embedding request sets
    ``asked`` and waits (at most 60 s) until ``release`` is set again. Both are closed, and
    the server released, on the way out."""
    from memlane.backends.embed.openai import OpenAIEmbedder
    from memlane.testing.openai_server import OpenAICompatServer, embeddings_route

    asked, release = threading.Event(), threading.Event()
    release.set()

    def held(server: Any, req: Any) -> Any:
        asked.set()
        release.wait(60)
        return embeddings_route(server, req)

    with OpenAICompatServer() as srv:
        srv.route("POST", "/v1/embeddings", held)
        config = load_config(environ={}, overrides={"indexing": {"enabled": False}})
        mem = Memory(db_url, config=config,
                     embedder=OpenAIEmbedder(srv.base_url, "hash-embed", api_key="k"))
        worker = Memory(db_url, config=config,
                        embedder=OpenAIEmbedder(srv.base_url, "hash-embed", api_key="k"))
        try:
            yield mem, worker, asked, release
        finally:
            release.set()
            worker.close()
            mem.close()


def test_an_indexer_embedding_an_erased_session_keeps_none_of_its_vectors(db_url: str) -> None:
    """The turn indexer embeds a batch (and caches the vectors) before it claims it: a
    session erased in between is not claimed, and its cached vectors go too."""
    with _held_embedder(db_url) as (mem, worker, asked, release):
        add_sessions(mem, [(3, [("user", "I live in Porto"), ("assistant", "ok")])],
                     now=NOW, scope="bob")
        cached_before = _cached(mem.store)
        add_sessions(mem, [(2, [("user", "I moved to Vexmoorville"), ("assistant", "lovely")])],
                     now=NOW, scope="alice", index=False)
        asked.clear()
        release.clear()
        done: list[Any] = []
        thread = threading.Thread(target=lambda: done.append(worker.index(now=NOW)))
        thread.start()
        assert asked.wait(60)   # the worker read alice's session and is embedding it
        assert mem.forget_scope("alice").counts["messages"] == 2
        release.set()
        thread.join(60)
        assert not thread.is_alive() and done and done[0].sessions_indexed == 0
        assert _cached(mem.store) == cached_before
        assert _cache_mentions(mem.store, "Vexmoor") == 0
        assert [s.scope for s in mem.store.list_sessions()] == ["bob"]


def test_a_worker_summarising_a_session_that_loses_a_turn_writes_nothing_of_it(db_url: str) -> None:
    """``forget_item`` of a turn while the worker waits on the model with the session's
    messages read: the worker writes nothing of that answer (it quotes the erased message),
    and the session, queued again by the erase, is summarised from the messages left."""
    marker = "Vexmoor"
    with _held_model(db_url, marker) as (mem, worker, asked, release):
        add_sessions(mem, [(2, [("user", f"I moved to {marker}ville"), ("assistant", "splendid"),
                                ("user", "my sister lives there"), ("assistant", "nice")])],
                     now=NOW, scope="alice", index=False)
        done: list[Any] = []
        thread = threading.Thread(target=lambda: done.append(worker.index(now=NOW)))
        thread.start()
        assert asked.wait(60)   # turns indexed, the session leased, the model asked
        [sid] = [s.id for s in mem.sessions("alice")]
        [turn] = [i.id for i in mem.store.session_items(sid, kind="turn")
                  if marker in i.text]
        mem.forget_item(turn)
        release.set()
        thread.join(60)
        assert not thread.is_alive() and done
        store = mem.store
        assert store.items_of_kind("summary", "alice") == []
        assert _cache_mentions(store, marker) == 0
        # queued again by the erase, the session was read again from what is left (three
        # messages: a small session, whose facts the patterns read with no model call), so
        # a fact or entity alice holds now comes from a message the erase left, never the
        # erased one and never the dropped answer
        left = store.session_messages(sid)
        assert [m.text for m in left] == ["splendid", "my sister lives there", "nice"]
        assert {f.message_id for f in store.list_facts("alice")} <= {m.id for m in left}
        assert all(marker.lower() not in e.name.lower() for e in store.scope_entities("alice"))
        assert store.counters().get("sessions_failed", 0) == 0


def test_an_indexer_embedding_a_late_message_while_a_turn_is_forgotten(db_url: str) -> None:
    """The indexer read a session a late message had joined (its turn to make: number 3 in time order since qa23c; 5 when it was appended)
    and embedded it; meanwhile ``forget_item`` of the session's first turn numbered the
    messages again (the late one became 4). The indexer wrote the turn as number 5, with
    keys read from a message that was gone. Now the rows of a session whose messages changed
    since they were read are not written; the next pass makes them from what is stored."""
    with _held_embedder(db_url) as (mem, worker, asked, release):
        add_sessions(mem, [(3, [("user", "I moved to Vexmoorville"), ("assistant", "lovely"),
                                ("user", "my sister lives there"), ("assistant", "nice")])],
                     now=NOW, scope="alice")
        [sid] = [s.id for s in mem.sessions("alice")]
        first = mem.messages(sid)
        late = mem.add_message("alice", "user", "ok", at=first[1].at)  # joins it, late
        assert late.session_id == sid and late.seq == 3  # in its place in time order
        asked.clear()
        release.clear()
        done: list[Any] = []
        thread = threading.Thread(target=lambda: done.append(worker.index(now=NOW)))
        thread.start()
        assert asked.wait(60)   # the worker read the session and embeds the late turn
        [turn] = [i for i in mem.store.session_items(sid, kind="turn") if i.seq == 1]
        mem.forget_item(turn.id)
        release.set()
        thread.join(60)
        assert not thread.is_alive() and done
        mem.index(now=NOW)
        messages = {m.id: m for m in mem.messages(sid)}
        turns = mem.store.session_items(sid, kind="turn")
        assert sorted(t.message_id for t in turns) == sorted(messages)
        assert [(t.seq, t.text) for t in turns] == [
            (messages[t.message_id].seq, messages[t.message_id].text) for t in turns]
        keys = [r[0] for r in mem.store._run(
            "SELECT keys FROM items WHERE session_id = %s AND kind = 'turn'", (sid,))]
        assert len(keys) == 4 and "vexmoor" not in " ".join(keys).lower()
