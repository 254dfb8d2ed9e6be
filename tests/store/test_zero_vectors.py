"""A zero vector has cosine 0 on both stores (session 21).

The default embedder gives a zero vector for text of no word it knows ("👍", "🐱🐱"), and
for such a query. SQLite's dot product makes their cosine 0; pgvector's cosine distance is
NaN, which PostgreSQL sorted after every other row: such a turn came last in the vector
list on PostgreSQL (among the zeros, by id, on SQLite), a zero query ranked every item as
NaN, and the NaN reached each hit's ``scores["vector"]`` (``null`` in the service's JSON,
``NaN`` in ``memlane search --json``, which is not JSON).
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta

import numpy as np

from memlane.config import load_config
from memlane.memory import Memory
from memlane.store import Filters
from memlane.testing import HashingEmbedder


def _unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    n = np.linalg.norm(v)
    return v / n if n else v


def _store_with_zeros(store) -> list[int]:
    with store.atomic():
        sid = store.create_session("s", 1000.0, None, None)
        ids = store.insert_items([{"kind": "turn", "text": f"t{i}", "at": 1000.0 + i, "scope": "s",
                                   "session_id": sid, "seq": i + 1} for i in range(5)])
        store.put_vectors("m", list(zip(ids, [_unit(0, 0, 0), _unit(1, 0, 0), _unit(0, 0, 0),
                                              _unit(-1, 0, 0), _unit(0, 1, 0)], strict=True)))
    return ids


def test_zero_vectors_have_cosine_zero(store):
    ids = _store_with_zeros(store)
    for f in (Filters(), Filters(scope="s")):
        got = store.vector_search("m", _unit(1, 0.5, 0), f, 10)
        assert [i for i, _ in got] == [ids[1], ids[4], ids[0], ids[2], ids[3]]
        assert [round(c, 4) for _, c in got] == [0.8944, 0.4472, 0.0, 0.0, -0.8944]
        zero = store.vector_search("m", _unit(0, 0, 0), f, 10)
        assert zero == [(i, 0.0) for i in ids]
        assert [i for i, _ in store.vector_search("m", _unit(1, 0.5, 0), f, 3)] == ids[1:2] + [ids[4], ids[0]]


def test_no_nan_reaches_a_hit(db_url):
    mem = Memory(db_url, config=load_config(environ={}), embedder=HashingEmbedder(dim=64))
    try:
        t = datetime(2024, 5, 1, tzinfo=UTC)
        for i, text in enumerate(["I booked the flight to Lisbon", "👍", "When do you leave?",
                                  "🐱🐱", "Friday morning"]):
            mem.add_message("c", "user" if i % 2 == 0 else "assistant", text, at=t + timedelta(minutes=i))
        mem.index(now=t + timedelta(days=1))
        for query in ("flight Lisbon", "👍 flight"):
            for preset in ("default", "flat", "arawn"):
                hits = mem.search(query, scope="c", preset=preset, explain=True, now=t + timedelta(days=1))
                values = [v for h in hits for v in (h.score, *h.scores.values()) if isinstance(v, float)]
                assert hits and not any(math.isnan(v) for v in values), (query, preset)
                json.dumps([h.scores for h in hits], allow_nan=False)
    finally:
        mem.close()
