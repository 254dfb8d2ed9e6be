# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""Fingerprint of a PostgreSQL backlog indexed by this code: compare two versions' output.

    python tools/scale/pgsame.py 10000 > new.json
    PYTHONPATH=/path/to/old/src python tools/scale/pgsame.py 10000 > old.json
    python tools/scale/pgsame.py --compare old.json new.json

N bench messages stored in batches of 50, one ``Memory.index``, then: the md5 of every
item row (all columns, ``tsv`` and ids included), of every vector, of the embedding cache
and of the counters, and the ids and scores of the bench's 200 queries searched within a
scope (exact) and over all scopes (the HNSW graph: a parallel build is not deterministic,
so those are compared by overlap).
"""
import json, sys, uuid
from datetime import UTC, datetime

import numpy as np


def fingerprint(n: int) -> dict:
    from memlane.bench.ingest import _query, add_synthetic, synthetic_turns
    from memlane.config import load_config
    from memlane.memory import Memory
    from memlane.testing.postgres import create_database, postgres_server

    with postgres_server() as url:
        db = create_database(url, f"same_{uuid.uuid4().hex[:6]}")
        mem = Memory(config=load_config(environ={}, overrides={
            "db": db, "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
        turns = synthetic_turns(n)
        mem.index(now=add_synthetic(mem, turns, datetime(2024, 1, 1, tzinfo=UTC)))
        q = mem.store.db.execute
        out = {
            "items": q("SELECT md5(string_agg(md5((i.*)::text), ',' ORDER BY id)) FROM"
                       " (SELECT id, kind, text, keys, at, scope, agent, project, session_id,"
                       " message_id, seq, role, keywords, entities, source, durability, lane, trust,"
                       " privacy, ttl_seconds, expires_at, parents, children, status, dedupe_hash,"
                       " extra, pinned, tsv FROM items) i").fetchone()[0],
            "vectors": q("SELECT md5(string_agg(item_id || model || dim || vec::text, ',' ORDER BY item_id))"
                         " FROM vectors").fetchone()[0],
            "embed_cache": q("SELECT md5(string_agg(model || encode(hash, 'hex') || encode(vec, 'hex'), ','"
                             " ORDER BY model, hash)) FROM embed_cache").fetchone()[0],
            "counters": dict(q("SELECT name, sum(value)::bigint FROM counters GROUP BY name").fetchall()),
            "n_items": q("SELECT count(*) FROM items").fetchone()[0],
        }
        rng = np.random.default_rng(11)
        scoped, unscoped = [], []
        for i in range(200):
            query = _query(turns, rng)
            scoped.append([[h.item.id, round(h.score, 6)] for h in
                           mem.search(query, scope=f"conv-{i % 100}", k=10)])
            unscoped.append([h.item.id for h in mem.search(query, k=10)])
        out["scoped"], out["unscoped"] = scoped, unscoped
        mem.close()
        return out


def compare(a: dict, b: dict) -> None:
    for k in ("items", "vectors", "embed_cache", "counters", "n_items"):
        print(f"{k}: {'same' if a[k] == b[k] else 'DIFFERENT'}")
    print(f"scoped searches identical: {sum(x == y for x, y in zip(a['scoped'], b['scoped']))}"
          f" of {len(a['scoped'])}")
    same = sum(x == y for x, y in zip(a["unscoped"], b["unscoped"]))
    shared = sum(len(set(x) & set(y)) for x, y in zip(a["unscoped"], b["unscoped"]))
    total = sum(len(x) for x in a["unscoped"])
    print(f"unscoped searches identical: {same} of {len(a['unscoped'])}; hits shared {shared / total:.3f}")


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(*(json.load(open(p)) for p in sys.argv[2:4]))
    else:
        print(json.dumps(fingerprint(int(sys.argv[1]))))
