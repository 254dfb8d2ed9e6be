"""Every statement of a write ended under it (session 25, where the branches meet).

qa25b runs a call once more when its PostgreSQL connection is lost mid-way and nothing it
did can be kept. Here each write the service offers is sent once per statement it runs,
and the K-th statement's backend is ended first (``pg_terminate_backend`` from a second
connection, the statement then sent to the ended connection; the store's own tracer says
when a statement is about to run, as tests/test_merge_races.py holds one). Whatever K is,
the scope ends as one call leaves it, or as no call (a 503 with ``Retry-After`` whose
outcome the client cannot know): never twice. The index run, made of many transactions,
ends as one run leaves it after a second run, each session's attempts counted as one run
counts them (a lost connection is the database's failure, not the session's: it was counted
as the session's attempt, and five of them failed the session for good).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from memlane.config import load_config
from memlane.memory import Memory
from memlane.serve.http import create_app
from memlane.testing import HashingEmbedder
from memlane.testing.http import serving

psycopg = pytest.importorskip("psycopg")

TURNS = ["I moved to Porto last week", "nice, the harbour?", "yes, my sister Ana lives there",
         "lovely, and work?", "I work at Acme as a nurse now"]


class _Ender:
    """The store's tracer: ends the backend of the ``k``-th statement run by a request
    thread (1-based; 0: none), counting them in ``seen``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.k = 0
        self.seen = 0
        self.mem: Memory | None = None
        self.lock = threading.Lock()

    def __call__(self, kind: str, sql: str, params: Any = None) -> None:
        if threading.current_thread() is threading.main_thread() or self.mem is None:
            return
        with self.lock:
            self.seen += 1
            if self.seen != self.k:
                return
        pid = self.mem.store.db.conn.info.backend_pid  # type: ignore[attr-defined]
        with psycopg.connect(self.url, autocommit=True) as admin:
            assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]
            deadline = time.monotonic() + 20
            while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s",
                                (pid,)).fetchone() is not None:
                assert time.monotonic() < deadline, "the ended backend did not go"
                time.sleep(0.02)


def _state(url: str, scope: str) -> dict[str, Any]:
    """What the scope holds, without ids or times of writing."""
    with psycopg.connect(url, autocommit=True) as conn:
        def rows(sql: str) -> list[tuple[Any, ...]]:  # (a summary names its scope)
            return sorted(tuple(v.replace(scope, "SCOPE") if isinstance(v, str) else v
                                for v in r) for r in conn.execute(sql, (scope,)).fetchall())

        return {
            "sessions": rows("SELECT status, message_count, coalesce(summary_version, 0) > 0,"
                             " attempts FROM sessions WHERE scope = %s"),
            "messages": rows("SELECT m.seq, m.role, m.text FROM messages m"
                             " JOIN sessions s ON s.id = m.session_id WHERE s.scope = %s"),
            "items": rows("SELECT kind, text, coalesce(seq, 0), status FROM items"
                          " WHERE scope = %s"),
            "vectors": rows("SELECT count(*) FROM vectors v JOIN items i ON i.id = v.item_id"
                            " WHERE i.scope = %s"),
            "facts": rows("SELECT subject, predicate, object, status FROM facts"
                          " WHERE scope = %s"),
            "relations": rows("SELECT source_entity, relation, target_entity FROM relations WHERE scope = %s"),
            "packs": rows("SELECT query, budget FROM packs WHERE scope = %s"),
        }


def _seed(mem: Memory, scope: str, *, closed: bool, indexed: bool) -> None:
    for i, text in enumerate(TURNS):
        mem.add_message(scope, "user" if i % 2 == 0 else "assistant", text,
                        at=f"2024-05-01T10:0{i}:00Z")
    if closed:
        mem.close_session(scope)
    if indexed:
        mem.index(now="2024-06-01T00:00:00Z", scope=scope)


Send = Callable[[httpx.Client, str, Memory], httpx.Response]


def _add_batch(c: httpx.Client, scope: str, mem: Memory) -> httpx.Response:
    return c.post("/v1/messages", json={"messages": [
        {"scope": scope, "role": "user", "text": "my brother Rui visits in June",
         "at": "2024-05-01T10:09:00Z"},
        {"scope": scope, "role": "assistant", "text": "great", "at": "2024-05-01T10:10:00Z"}]})


def _upsert(c: httpx.Client, scope: str, mem: Memory) -> httpx.Response:
    return c.post("/v1/items", json={"scope": scope, "kind": "preference",
                                     "text": "prefers window seats"})


def _close(c: httpx.Client, scope: str, mem: Memory) -> httpx.Response:
    return c.post("/v1/sessions/close", json={"scope": scope})


def _forget(c: httpx.Client, scope: str, mem: Memory) -> httpx.Response:
    (session,) = mem.sessions(scope=scope)
    return c.delete(f"/v1/sessions/{session.id}")


def _pack(c: httpx.Client, scope: str, mem: Memory) -> httpx.Response:
    return c.post("/v1/pack", json={"query": "where does my sister live", "scope": scope})


def _index(c: httpx.Client, scope: str, mem: Memory) -> httpx.Response:
    return c.post("/v1/index", json={"scope": scope, "now": "2024-06-01T00:00:00Z"})


CASES: dict[str, tuple[Send, dict[str, bool]]] = {
    "add batch": (_add_batch, {"closed": False, "indexed": False}),
    "upsert": (_upsert, {"closed": False, "indexed": False}),
    "close": (_close, {"closed": False, "indexed": False}),
    "forget session": (_forget, {"closed": True, "indexed": True}),
    "index": (_index, {"closed": True, "indexed": False}),
    "pack (a read that journals)": (_pack, {"closed": True, "indexed": True}),
}


@pytest.fixture
def service(pg_url: str) -> Iterator[tuple[str, Memory, _Ender]]:
    ender = _Ender(pg_url)
    # a session given back is due again at once (the test's second index run takes it)
    cfg = load_config(environ={}, overrides={"db": pg_url,
                                             "indexing": {"retry_base_seconds": 0}})
    with Memory(config=cfg, tracer=ender, embedder=HashingEmbedder(dim=64)) as mem:
        ender.mem = mem
        with serving(create_app(mem, worker=False)) as base:
            yield base, mem, ender


@pytest.mark.parametrize("case", list(CASES))
def test_a_write_whose_connection_is_ended_at_any_statement_is_kept_once(
        service: tuple[str, Memory, _Ender], pg_url: str, case: str) -> None:
    base, mem, ender = service
    send, setup = CASES[case]
    # one call as it runs: its statements counted, the state it leaves
    _seed(mem, "once", **setup)
    before = _state(pg_url, "once")
    with httpx.Client(base_url=base, timeout=60) as c:
        ender.k, ender.seen = 0, 0
        assert send(c, "once", mem).status_code == 200
        statements = ender.seen
        if case == "index":
            assert send(c, "once", mem).status_code == 200  # nothing left to do
        once = _state(pg_url, "once")
        assert once != before
        assert statements >= 2
        for k in range(1, statements + 1):
            scope = f"k{k}"
            _seed(mem, scope, **setup)
            ender.k, ender.seen = k, 0
            r = send(c, scope, mem)
            ender.k = 0
            assert r.status_code in (200, 503), (k, r.text)
            if case == "index":
                # several transactions: what committed stays, and the next run finishes it;
                # a session whose write lost its connection is given back, not failed: its
                # attempt is not counted (the database failed, not the session)
                assert send(c, scope, mem).status_code == 200
            got = _state(pg_url, scope)
            if r.status_code == 200:
                assert got == once, (k, statements)
            else:
                assert r.headers["retry-after"] == "1"
                assert got in (before, once), (k, statements, {
                    key: (sorted(set(got[key]) - set(before[key])), sorted(set(before[key]) - set(got[key])))
                    for key in got if got[key] != before[key]})
