# Scripts behind docs/scaling.md (run with the project venv).
"""Time the lexical stage alone (``store.lexical_search``) on the bench's queries.

    python tools/scale/lexprof.py DB N [--bulk-build]

DB is a SQLite file or a PostgreSQL URL; one that holds no items is bulk-built with N of the
bench's synthetic turns when ``--bulk-build`` is given, else refused (session 36: the flag was
read nowhere, and a ``--pg`` the usage named neither). N is the number of turns. Prints p50/p95 of unscoped and scoped lexical searches over the bench's
200 queries (the same seed as ``memlane bench ingest``) and the slowest queries' terms.
"""
import json, os, statistics, sys, time
from datetime import UTC, datetime

import numpy as np

from memlane.bench.ingest import _bulk_load, _query, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory
from memlane.retrieve.search import question_terms
from memlane.store.filters import Filters

words = [a for a in sys.argv[1:] if not a.startswith("--")]
flags = set(sys.argv[1:]) - set(words)
if len(words) != 2 or flags - {"--bulk-build"}:
    sys.exit("usage: python tools/scale/lexprof.py DB N [--bulk-build]")
db, n = words[0], int(words[1])
if "--bulk-build" not in flags and "://" not in db and not os.path.exists(db):
    sys.exit(f"lexprof.py: {db} does not exist: pass --bulk-build to build it")
turns = synthetic_turns(n)
config = load_config(environ={}, overrides={"db": db, "embedding": {"backend": "static"},
                                            "indexing": {"enabled": False}})
mem = Memory(config=config)
row = mem.store.db.execute("SELECT count(*) FROM items").fetchone()
if row[0] == 0 and "--bulk-build" not in flags:
    sys.exit(f"lexprof.py: {db} holds no items: pass --bulk-build to load {n} synthetic turns")
if row[0] == 0:
    t = time.perf_counter()
    _bulk_load(mem, turns, "bench", datetime(2024, 1, 1, tzinfo=UTC), 10, 100)
    print(f"bulk load {n}: {time.perf_counter() - t:.0f} s", flush=True)
print(os.popen("uptime").read().strip(), flush=True)
rng = np.random.default_rng(11)
qs = [_query(turns, rng) for _ in range(200)]
limit = 200  # the retrieval config's default candidates
store = mem.store
for label, scoped in (("all", False), ("scoped", True)):
    lat = []
    for i, q in enumerate(qs):
        terms = question_terms(q)
        f = Filters(scope=f"bench-conv-{i % 100}" if scoped else None)
        store.lexical_search(terms, f, limit)  # warm
        t = time.perf_counter()
        store.lexical_search(terms, f, limit)
        lat.append(((time.perf_counter() - t) * 1e3, q))
    ms = [x for x, _ in lat]
    print(json.dumps({"items": n, "which": label, "limit": limit,
                      "p50": round(statistics.median(ms), 2), "p95": round(float(np.percentile(ms, 95)), 2),
                      "max": round(max(ms), 2)}), flush=True)
    for x, q in sorted(lat, reverse=True)[:5]:
        print(f"   {x:8.2f} ms  {q!r}")
print(os.popen("uptime").read().strip(), flush=True)
