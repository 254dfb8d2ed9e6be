"""A read-only key's meaning-preset search leaves no trace (session 33): its bounded cold query
cached nothing itself (session 32), but queued the candidates it passed over, and the server's
own worker cached their vectors on its next round. Now it queues nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.retrieve.meaning import shared_tier
from memlane.testing import add_sessions, memory
from memlane.testing.http import serving

from tests.retrieve.test_meaning import NOW, SESSIONS  # the meaning tier's conversations

QUERIES = ["repainting cabinets in the kitchen", "tax spreadsheet for the accountant",
           "chew toys for the dog"]


def _cache(db: Path) -> list[tuple[str, bytes]]:
    with sqlite3.connect(db) as con:
        return sorted(con.execute("SELECT model, hash FROM embed_cache"))


def test_a_read_only_keys_meaning_search_queues_nothing(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    mem = add_sessions(memory(db, retrieval={"meaning_candidates": 14, "meaning_cold": 1}),
                       SESSIONS, now=NOW)
    tier = shared_tier(mem.config.retrieval.meaning_max_tokens)
    try:
        reader = create_key(mem.store, "*", read_only=True).key
        writer = create_key(mem.store, "*").key
        before = _cache(db)
        with serving(create_app(mem, worker=False)) as url:
            def search(key: str, query: str) -> None:
                with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"},
                                  timeout=60.0) as c:
                    got = c.post("/v1/search", json={"query": query, "scope": "chat",
                                                     "preset": "meaning"})
                    assert got.status_code == 200 and got.json(), got.text

            computed = tier.computed
            for q in QUERIES:
                search(reader, q)
            assert tier.computed - computed == len(QUERIES)  # one passage each, cold
            assert tier.pending(mem.store) == 0  # nothing left for the worker
            assert _cache(db) == before
            mem.work_once(now=NOW)  # the server's worker's round
            assert _cache(db) == before  # not a vector written for the reader, then or later
            search(writer, QUERIES[0])  # a writing key's search: its cold query queues
            assert tier.pending(mem.store) > 0 and len(_cache(db)) == len(before) + 1
            mem.work_once(now=NOW)
            assert tier.pending(mem.store) == 0 and len(_cache(db)) > len(before) + 1
    finally:
        mem.close()
