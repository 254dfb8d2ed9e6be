# Scripts behind docs/scaling.md (run with the project venv).
"""Two versions of ``memlane/retrieve/search.py`` in one process, search by search.

    python tools/scale/abretrieve.py DB N OLD_SEARCH_PY [QUERIES]

DB holds the bench's N synthetic turns (``tools/scale/lexprof.py DB N``). OLD_SEARCH_PY is
another version of ``src/memlane/retrieve/search.py`` (e.g. from ``git show
COMMIT:src/memlane/retrieve/search.py``). Runs the bench's queries (the seed of
``searchonly.py``) within their scopes, each through the old and the current version in
turn (alternating which goes first), so that both meet the same load; prints the CPU time
of each version's searches (p50 / p95) and whether every search returned the same hits
(ids, order and scores).
"""
import gc, importlib.util, os, statistics, sys, time

import numpy as np

import memlane.memory as memory
from memlane.bench.ingest import _query, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory

db, n, old_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
nq = int(sys.argv[4]) if len(sys.argv) > 4 else 200
spec = importlib.util.spec_from_file_location("memlane_old_search", old_path)
assert spec is not None and spec.loader is not None
old = sys.modules["memlane_old_search"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(old)
versions = {"old": old.search, "new": memory.search_items}
turns = synthetic_turns(n)
mem = Memory(config=load_config(environ={}, overrides={"db": db, "embedding": {"backend": "static"},
                                                       "indexing": {"enabled": False}}))
print(os.popen("uptime").read().strip(), flush=True)
mem.store._sync_index(mem.embeddings.model, mem.embedder.dim)
rng = np.random.default_rng(11)
queries = [(_query(turns, rng), f"bench-conv-{q % 100}") for q in range(nq)]
del turns
gc.collect()
gc.freeze()
for query, scope in queries:  # warm SQLite's page cache
    mem.search(query, scope=scope, k=10)
cpu: dict[str, list[float]] = {"old": [], "new": []}
differ = 0
for q, (query, scope) in enumerate(queries):
    got = {}
    for name in (("old", "new") if q % 2 else ("new", "old")):
        memory.search_items = versions[name]
        c = time.process_time()
        hits = mem.search(query, scope=scope, k=10)
        cpu[name].append((time.process_time() - c) * 1e3)
        got[name] = [(h.item.id, round(h.score, 9)) for h in hits]
    differ += got["old"] != got["new"]
memory.search_items = versions["new"]
print(os.popen("uptime").read().strip(), flush=True)
for name, v in cpu.items():
    print(f"{name}: scoped search CPU p50 {statistics.median(v):.2f} / p95 {np.percentile(v, 95):.2f} ms"
          f" mean {statistics.mean(v):.2f}")
print(f"searches whose hits differ: {differ} of {len(queries)}")
mem.close()
