# Scripts behind docs/scaling.md (run with the project venv).
"""Which searches make the p95 of a large SQLite store, and where their time goes.

    python tools/scale/tailprof.py DB N [QUERIES]

DB holds the bench's N synthetic turns (``tools/scale/lexprof.py DB N`` bulk-loads them).
Warms the vector index, then runs the bench's queries (the same seed as ``memlane bench
ingest`` and ``searchonly.py``) unscoped and scoped, and records for each search its
stages (``Memory.last_timings``), the store calls it made (count and time per method), the
SQL statements it ran and the time of full (generation 2) garbage collections during it. Prints, per mode, the p50/p95 of the whole search and of each
stage, the mean of each stage over the slowest tenth against the rest, and the slowest
ten searches with their shape (terms, lexical hits, stage times, calls).
"""
import functools, gc, os, statistics, sys, time
from collections import Counter, defaultdict

import numpy as np

from memlane.bench.ingest import _query, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory
from memlane.retrieve.search import question_terms

db, n = sys.argv[1], int(sys.argv[2])
nq = int(sys.argv[3]) if len(sys.argv) > 3 else 200
turns = synthetic_turns(n)
mem = Memory(config=load_config(environ={}, overrides={"db": db, "embedding": {"backend": "static"},
                                                       "indexing": {"enabled": False}}))
store = mem.store
print(os.popen("uptime").read().strip(), flush=True)
t = time.perf_counter()
store.warm_vector_index(mem.embeddings.model, mem.embedder.dim, wait=True)
print(f"warm {time.perf_counter() - t:.1f} s", flush=True)

# The bench's 1M turn strings are this script's, not the store's: a full garbage collection
# visits each of them (about 190 ms at 1M, measured with gc.collect()), which a serving
# process does not hold. Freeze what exists now, so collections during the timed searches
# see only what the searches make (docs/scaling.md, fifth round).
gc.collect()
gc.freeze()
calls: Counter = Counter()
call_ms: defaultdict = defaultdict(float)
lex_rows: list[int] = []


def wrap(name: str) -> None:
    fn = getattr(store, name)

    @functools.wraps(fn)
    def timed(*a, **k):
        s = time.perf_counter()
        try:
            out = fn(*a, **k)
        finally:
            calls[name] += 1
            call_ms[name] += (time.perf_counter() - s) * 1e3
        if name == "lexical_search":
            lex_rows.append(len(out))
        return out
    setattr(store, name, timed)


for name in ("lexical_search", "vector_search", "get_items", "get_sessions", "session_items",
             "item_vectors", "superseded_messages", "facts_for_items", "entity_names", "filter_ids"):
    if hasattr(store, name):
        wrap(name)
statements: list[str] = []
gc_ms: list[float] = []  # garbage collections during the current search, by generation 2 or not
_gc_t = [0.0]


def _gc(phase: str, info: dict) -> None:
    if phase == "start":
        _gc_t[0] = time.perf_counter()
    elif info["generation"] == 2:
        gc_ms.append((time.perf_counter() - _gc_t[0]) * 1e3)


gc.callbacks.append(_gc)
store.db.conn.set_trace_callback(statements.append)

rng = np.random.default_rng(11)
runs: dict[str, list[dict]] = {"all": [], "scoped": []}
for q in range(nq):
    query = _query(turns, rng)
    for mode, scope in (("all", None), ("scoped", f"bench-conv-{q % 100}")):
        calls.clear(); call_ms.clear(); statements.clear(); lex_rows.clear(); gc_ms.clear()
        s = time.perf_counter()
        mem.search(query, scope=scope, k=10)
        total = (time.perf_counter() - s) * 1e3
        runs[mode].append({"query": query, "total": total, "stages": dict(mem.last_timings),
                           "calls": dict(calls), "call_ms": {k: round(v, 2) for k, v in call_ms.items()},
                           "statements": len(statements), "gc2_ms": round(sum(gc_ms), 1), "lexical_hits": list(lex_rows),
                           "terms": store._prune_common(question_terms(query))})
print(os.popen("uptime").read().strip(), flush=True)


def pct(v, p):
    return float(np.percentile(v, p))


for mode, rs in runs.items():
    tot = [r["total"] for r in rs]
    cut = pct(tot, 90)
    print(f"\n== {mode}: search p50 {statistics.median(tot):.1f} / p95 {pct(tot, 95):.1f} ms;"
          f" statements a search p50 {statistics.median([r['statements'] for r in rs]):.0f}"
          f" max {max(r['statements'] for r in rs)}")
    g = [r["gc2_ms"] for r in rs]
    print(f"  full (gen 2) garbage collections: in {sum(1 for x in g if x)} searches, {sum(g):.0f} ms in all,"
          f" max {max(g):.0f} ms")
    names = sorted({k for r in rs for k in r["stages"]})
    for name in names:
        v = [r["stages"].get(name, 0.0) for r in rs]
        slow = [r["stages"].get(name, 0.0) for r in rs if r["total"] >= cut]
        fast = [r["stages"].get(name, 0.0) for r in rs if r["total"] < cut]
        print(f"  {name:14s} p50 {pct(v, 50):6.2f} p95 {pct(v, 95):6.2f}  mean slowest tenth {np.mean(slow):6.2f}"
              f" rest {np.mean(fast):6.2f}")
    cm = defaultdict(list)
    for r in rs:
        for k, v in r["call_ms"].items():
            cm[k].append(v)
    for k, v in sorted(cm.items()):
        cnt = [r["calls"].get(k, 0) for r in rs]
        print(f"  call {k:20s} calls/search {np.mean(cnt):5.2f}  ms p50 {pct(v, 50):6.2f} p95 {pct(v, 95):6.2f}")
    for r in sorted(rs, key=lambda r: -r["total"])[:10]:
        st = " ".join(f"{k.removesuffix('_ms')}={v:.1f}" for k, v in r["stages"].items() if v >= 0.5)
        print(f"  {r['total']:6.1f} ms  q={r['query']!r} kept={r['terms']} lexhits={r['lexical_hits']}"
              f" stmts={r['statements']} gc2={r['gc2_ms']}\n           {st}\n           {r['call_ms']}")
mem.close()
