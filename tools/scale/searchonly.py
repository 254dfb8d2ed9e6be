# Scripts behind docs/scaling.md (run with the project venv).
"""The search half of ``memlane bench ingest`` on a database built before.

    python tools/scale/searchonly.py DB N

DB holds the bench's N synthetic turns (e.g. built by ``tools/scale/lexprof.py DB N``,
which bulk-loads them as ``memlane bench ingest --bulk`` does, scopes ``bench-conv-0..99``).
Warms the vector index, then times the bench's 200 queries unscoped and scoped with each
stage's p50/p95, the CPU time of each search, and the vector stage's recall@10 against exact search, as the bench does:
so two versions of the code can be compared on one 1M-item database without loading it
twice (a bulk load of 1M items takes 13+ minutes here).
"""
import gc, json, os, statistics, sys, time

import numpy as np

from memlane.bench.ingest import _collect, _pct, _query, _stage_figures, rss_mb, synthetic_turns, vector_recall
from memlane.config import load_config
from memlane.memory import Memory

db, n = sys.argv[1], int(sys.argv[2])
turns = synthetic_turns(n)
mem = Memory(config=load_config(environ={}, overrides={"db": db, "embedding": {"backend": "static"},
                                                       "indexing": {"enabled": False}}))
print(os.popen("uptime").read().strip(), flush=True)
t = time.perf_counter()
mem.store.warm_vector_index(mem.embeddings.model, mem.embedder.dim, wait=True)
warm_s = time.perf_counter() - t
# The bench's 1M turn strings are this script's, not the store's: a full garbage collection
# visits each of them (about 190 ms at 1M, measured with gc.collect()), which a serving
# process does not hold. Freeze what exists now, so collections during the timed searches
# see only what the searches make (docs/scaling.md, fifth round).
gc.collect()
gc.freeze()
rng = np.random.default_rng(11)
lat_all, lat_scoped, st_all, st_scoped = [], [], {}, {}
cpu_all, cpu_scoped = [], []
for q in range(200):
    query = _query(turns, rng)
    c, s = time.process_time(), time.perf_counter(); mem.search(query, k=10); lat_all.append((time.perf_counter() - s) * 1e3)
    cpu_all.append((time.process_time() - c) * 1e3)
    _collect(st_all, mem.last_timings)
    c, s = time.process_time(), time.perf_counter(); mem.search(query, scope=f"bench-conv-{q % 100}", k=10)
    lat_scoped.append((time.perf_counter() - s) * 1e3)
    cpu_scoped.append((time.process_time() - c) * 1e3)
    _collect(st_scoped, mem.last_timings)
rss = rss_mb()
try:
    rss_file = rss_mb("RssFile")  # the mapped database's pages (and the libraries)
except TypeError:  # an older memlane on PYTHONPATH
    rss_file = 0.0
qs = [(mem.embeddings.for_query(_query(turns, rng)), None) for _ in range(50)]
recall_all = vector_recall(mem.store, mem.embeddings.model, qs)
qs = [(mem.embeddings.for_query(_query(turns, rng)), f"bench-conv-{q % 3}") for q in range(50)]
recall_scoped = vector_recall(mem.store, mem.embeddings.model, qs)
print(json.dumps({
    "items": n, "vector_index_warm_s": warm_s,
    "search_p50_ms": statistics.median(lat_all), "search_p95_ms": _pct(lat_all, 95),
    "scoped_search_p50_ms": statistics.median(lat_scoped), "scoped_search_p95_ms": _pct(lat_scoped, 95),
    # CPU time of the searching process (what a busy machine inflates least)
    "search_cpu_p50_ms": statistics.median(cpu_all), "search_cpu_p95_ms": _pct(cpu_all, 95),
    "scoped_search_cpu_p50_ms": statistics.median(cpu_scoped), "scoped_search_cpu_p95_ms": _pct(cpu_scoped, 95),
    "vector_recall_at_10": recall_all, "scoped_vector_recall_at_10": recall_scoped, "rss_mb": rss, "rss_file_mb": rss_file,
    "search_stages_ms": _stage_figures(st_all), "scoped_search_stages_ms": _stage_figures(st_scoped)}), flush=True)
print(os.popen("uptime").read().strip(), flush=True)
mem.close()
