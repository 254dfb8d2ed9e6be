# Scripts behind docs/scaling.md (run with the project venv).
"""Break the SQLite vector stage into its parts on a database built before.

    python tools/scale/vecprof.py DB N [LIMIT]

DB holds the bench's N synthetic turns (``tools/scale/lexprof.py DB N`` bulk-loads them).
Warms the vector index, then for the bench's queries (the same seed as ``memlane bench
ingest``) times ``store.vector_search`` at LIMIT (default 200: the candidates a search asks
for) unscoped and scoped, and the parts of each: the IVF probe (faiss), the exact re-score
of its candidates, the scope's exact scan, and the SQL check of the pool against the
filters. Also recall@10 and recall@LIMIT of ``store.vector_search`` against exact float32.
"""
import json, os, statistics, sys, time

import numpy as np

from memlane.bench.ingest import _query, exact_top, rss_mb, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory
from memlane.store.filters import Filters

db, n = sys.argv[1], int(sys.argv[2])
limit = int(sys.argv[3]) if len(sys.argv) > 3 else 200
turns = synthetic_turns(n)
mem = Memory(config=load_config(environ={}, overrides={"db": db, "embedding": {"backend": "static"},
                                                       "indexing": {"enabled": False}}))
store, model = mem.store, mem.embeddings.model
print(os.popen("uptime").read().strip(), flush=True)
t = time.perf_counter()
store.warm_vector_index(model, mem.embedder.dim, wait=True)
print(f"warm {time.perf_counter() - t:.1f} s, rss {rss_mb():.0f} MiB", flush=True)
index = store._indexes[model]
rng = np.random.default_rng(11)
qs = [mem.embeddings.for_query(_query(turns, rng)) for _ in range(200)]
pool = limit + limit // 2 + 16


def ms(values: list[float]) -> str:
    return f"p50 {statistics.median(values):.2f} / p95 {np.percentile(values, 95):.2f}"


parts: dict[str, list[float]] = {}


def lap(name: str, t0: float) -> float:
    t1 = time.perf_counter()
    parts.setdefault(name, []).append((t1 - t0) * 1e3)
    return t1


for i, q in enumerate(qs):
    scope = f"bench-conv-{i % 100}"
    t0 = time.perf_counter()
    store.vector_search(model, q, Filters(), limit)
    t0 = lap("store all", t0)
    store.vector_search(model, q, Filters(scope=scope), limit)
    t0 = lap("store scoped", t0)
    store._sync_index(model, len(q))
    t0 = lap("sync", t0)
    if index._ivf is not None:
        rows = index._ivf.candidates(q, index._ivf_candidates(pool) if hasattr(index, "_ivf_candidates")
                                     else max(64 * pool, 2000))
        t0 = lap(f"ivf probe ({len(rows)} cands)", t0)
        sc = np.einsum("ij,j->i", index._mat[rows], q)
        t0 = lap("ivf rescore", t0)
        np.argsort(-sc, kind="stable")
        t0 = lap("ivf argsort", t0)
    got = index.search(q, pool, scope=scope)
    t0 = lap("scope scan (index.search)", t0)
    store._allowed(Filters(scope=scope), [g for g, _ in got])
    t0 = lap("allowed SQL", t0)
print(json.dumps({"items": n, "limit": limit, "pool": pool}))
for name, v in parts.items():
    print(f"  {name:32s} {ms(v)} ms")
print(os.popen("uptime").read().strip(), flush=True)

# recall of the store against exact float32, over all scopes and within a scope
for scope in (None, "bench-conv-1"):
    ids_ = store.filter_ids(Filters(scope=scope))
    got = store.item_vectors(model, ids_)
    ids = np.fromiter(got, dtype=np.int64, count=len(got))
    mat = np.stack([got[i] for i in ids.tolist()])
    del got
    r10 = rl = 0.0
    for q in qs[:50]:
        want = exact_top(mat, ids, q, limit)
        found = [g for g, _ in store.vector_search(model, q, Filters(scope=scope), limit)]
        r10 += len(set(found[:10]) & set(want[:10])) / 10
        rl += len(set(found) & set(want)) / len(want)
        found10 = {g for g, _ in store.vector_search(model, q, Filters(scope=scope), 10)}
        parts.setdefault(f"recall@10 at limit 10 {scope}", []).append(len(found10 & set(want[:10])) / 10)
    print(f"scope {scope}: recall@10 (limit {limit}) {r10 / 50:.3f}, recall@{limit} {rl / 50:.3f}, "
          f"recall@10 (limit 10) {np.mean(parts[f'recall@10 at limit 10 {scope}']):.3f}", flush=True)
    del mat
print(f"rss {rss_mb():.0f} MiB", os.popen("uptime").read().strip(), flush=True)
mem.close()
