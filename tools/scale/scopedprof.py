# Scripts behind docs/scaling.md (run with the project venv).
"""Where the CPU of a search within a scope goes, on a database built before.

    python tools/scale/scopedprof.py DB N [QUERIES]

DB holds the bench's N synthetic turns (``tools/scale/lexprof.py DB N`` bulk-loads them).
Loads the vector index (scoped searches never use the IVF lists), runs the bench's queries
(the same seed as ``searchonly.py``) within their scopes once to warm the caches, then
again under ``cProfile`` (timing CPU, not wall time): prints the CPU per search, the SQL statements a search runs (by
text, with counts) and the functions with the most own and cumulative time.
"""
import cProfile, gc, os, pstats, statistics, sys, time
from collections import Counter

import numpy as np

from memlane.bench.ingest import _query, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory

db, n = sys.argv[1], int(sys.argv[2])
nq = int(sys.argv[3]) if len(sys.argv) > 3 else 200
turns = synthetic_turns(n)
mem = Memory(config=load_config(environ={}, overrides={"db": db, "embedding": {"backend": "static"},
                                                       "indexing": {"enabled": False}}))
print(os.popen("uptime").read().strip(), flush=True)
t = time.perf_counter()
mem.store._sync_index(mem.embeddings.model, mem.embedder.dim)
print(f"vector index loaded in {time.perf_counter() - t:.0f} s", flush=True)
rng = np.random.default_rng(11)
queries = [(_query(turns, rng), f"bench-conv-{q % 100}") for q in range(nq)]
del turns
gc.collect()
gc.freeze()
for query, scope in queries:  # warm SQLite's page cache and the per-scope row plans
    mem.search(query, scope=scope, k=10)
statements: list[str] = []
mem.store.db.conn.set_trace_callback(statements.append)
per_search: list[int] = []
cpu, wall = [], []
prof = cProfile.Profile(time.process_time)  # CPU time: on a busy machine wall time is mostly waiting
for query, scope in queries:
    before = len(statements)
    c, s = time.process_time(), time.perf_counter()
    prof.enable()
    mem.search(query, scope=scope, k=10)
    prof.disable()
    cpu.append((time.process_time() - c) * 1e3)
    wall.append((time.perf_counter() - s) * 1e3)
    per_search.append(len(statements) - before)
mem.store.db.conn.set_trace_callback(None)
print(os.popen("uptime").read().strip(), flush=True)
print(f"scoped search (under cProfile) CPU p50 {statistics.median(cpu):.1f} / p95 {np.percentile(cpu, 95):.1f} ms,"
      f" wall p50 {statistics.median(wall):.1f} / p95 {np.percentile(wall, 95):.1f} ms;"
      f" statements a search p50 {statistics.median(per_search):.0f} max {max(per_search)}")
shapes = Counter(" ".join(s.split())[:150] for s in statements)
for text, count in shapes.most_common(25):
    print(f"  {count / len(queries):6.2f} a search  {text}")
stats = pstats.Stats(prof)
if os.environ.get("PROF_OUT"):
    stats.dump_stats(os.environ["PROF_OUT"])
stats.sort_stats("tottime").print_stats(30)
stats.sort_stats("cumulative").print_stats(45)
mem.close()
