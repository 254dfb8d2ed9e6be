"""Two workers writing sessions of different scopes that share new embedding-cache texts
(session 25, where perf25's cache rows in the session's transaction meet PostgreSQL's
locks).

Since perf25 a session's new cache rows are inserted in the transaction that writes the
session, one ``INSERT … ON CONFLICT DO NOTHING`` for them all, in the order its rows came.
Session A says "I live in Porto … my favourite food is sushi … I work at Acme", session B
the same the other way round: A's insert takes "user lives in Porto" and waits for "user
favorite food sushi", B's takes "user works at Acme" and waits for it too (the test's own
transaction holds that text's row, then commits it). Both go on: A needs B's row, B needs
A's: PostgreSQL found a deadlock and failed one session (an attempt counted). The rows are
now inserted in the order of their hashes, one order for every writer.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest

from memlane.index.embed import text_hash
from memlane.memory import Memory
from memlane.testing import HashingEmbedder
from tests.pg_race import memlane_waiting, pg_memory

psycopg = pytest.importorskip("psycopg")

SAID = ["I live in Porto", "ok", "My favourite food is sushi", "nice", "I work at Acme"]
GATE = "user favorite food sushi"  # the fact both sessions write between their others


def test_two_sessions_caching_shared_texts_in_opposite_orders_both_write(pg_url: str) -> None:
    with pg_memory(pg_url) as seed:
        for scope, turns in (("a", SAID), ("b", SAID[::-1])):
            for i, text in enumerate(turns):
                seed.add_message(scope, "user" if i % 2 == 0 else "assistant", text,
                                 at=f"2024-05-01T10:0{i}:00Z")
            seed.close_session(scope)
    embedder = HashingEmbedder(dim=64)
    vec = np.asarray(embedder.embed_batch([GATE])[0], dtype=np.float32).tobytes()
    errors: list[BaseException] = []
    with pg_memory(pg_url) as ma, pg_memory(pg_url) as mb, psycopg.connect(pg_url) as gate:
        # the gate text's row, held by a transaction of the test's own
        gate.execute("INSERT INTO embed_cache (model, hash, vec) VALUES (%s, %s, %s)",
                     (embedder.name, text_hash(GATE), vec))

        def index(mem: Memory, scope: str) -> None:
            try:
                mem.index(now="2024-06-01T00:00:00Z", scope=scope)
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        workers = [threading.Thread(target=index, args=(m, s), daemon=True)
                   for m, s in ((ma, "a"), (mb, "b"))]
        for w in workers:
            w.start()
        deadline = time.monotonic() + 60
        while memlane_waiting(pg_url) < 2:  # both at the gate's row
            assert time.monotonic() < deadline, "the two writers never both waited"
            assert all(w.is_alive() for w in workers), errors
            time.sleep(0.05)
        gate.commit()
        for w in workers:
            w.join(60)
            assert not w.is_alive()
    assert not errors, errors
    with pg_memory(pg_url) as mem:
        sessions: list[Any] = [s for scope in ("a", "b") for s in mem.sessions(scope=scope)]
        assert [(s.status, s.failed_reason) for s in sessions] == [("summarized", None)] * 2
        for scope in ("a", "b"):  # the gate's text is one of each session's facts
            assert GATE in [f.text for f in mem.store.items_of_kind("fact", scope)]
