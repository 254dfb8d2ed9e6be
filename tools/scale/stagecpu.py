# Scripts behind docs/scaling.md (run with the project venv).
"""Each search stage's CPU time, the best of a few rounds, and the hits to compare trees.

    python tools/scale/stagecpu.py DB N [--rounds R] [--all] [--dump FILE] [--profile FILE]

DB holds the bench's N synthetic turns (``tools/scale/lexprof.py DB N``). Runs the bench's
200 queries (the seed of ``searchonly.py``) within their scopes (``--all``: also over all
scopes, after building the IVF lists), ``R`` rounds (default 3) after one warm-up round,
with ``Memory.last_timings`` counting CPU time instead of wall time; each query's figure
is its least over the rounds (what the code costs, with less of the machine's load in it),
then p50 / p95 over the queries, with the SQL statements a search ran. ``--dump`` writes
every search's hits (ids and ``repr`` of the scores) as JSON, so that two trees' answers
can be compared exactly: run it with ``PYTHONPATH=OTHER/src`` for the other tree, then
``cmp`` the files (or ``--compare FILE`` to print how many searches differ).
``--k K`` asks K hits a search (default 10); ``--full`` also dumps and compares each hit's
``scores`` (every signal and rank). ``--profile FILE`` runs one more round under cProfile, writes it and prints the functions
by their own time.
"""
import argparse, gc, json, os, statistics, time, types

import numpy as np

import memlane.retrieve.search as search_mod
import memlane.store.sql.base as base_mod
from memlane.bench.ingest import _query, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory

ap = argparse.ArgumentParser()
ap.add_argument("db")
ap.add_argument("n", type=int)
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--queries", type=int, default=200)
ap.add_argument("--all", action="store_true")
ap.add_argument("--dump")
ap.add_argument("--compare")
ap.add_argument("--k", type=int, default=10, help="hits a search (default 10)")
ap.add_argument("--full", action="store_true",
                help="--dump/--compare also each hit's scores (every signal and rank, repr)")
ap.add_argument("--profile", metavar="FILE", help="a cProfile of one more round (pstats file)")
a = ap.parse_args()

# the stages' laps in CPU time: one thread, so CPU time is what the search itself spent
cpu_clock = types.SimpleNamespace(perf_counter=time.process_time)
search_mod.time = cpu_clock  # type: ignore[attr-defined]
base_mod.time = cpu_clock  # type: ignore[attr-defined]

turns = synthetic_turns(a.n)
mem = Memory(config=load_config(environ={}, overrides={"db": a.db, "embedding": {"backend": "static"},
                                                       "indexing": {"enabled": False}}))
print(search_mod.__file__, flush=True)
print(os.popen("uptime").read().strip(), flush=True)
if a.all:
    mem.store.warm_vector_index(mem.embeddings.model, mem.embedder.dim, wait=True)
else:
    mem.store._sync_index(mem.embeddings.model, mem.embedder.dim)
rng = np.random.default_rng(11)
queries: list[tuple[str, str | None]] = []
for q in range(a.queries):
    query = _query(turns, rng)
    if a.all:
        queries.append((query, None))
    queries.append((query, f"bench-conv-{q % 100}"))
del turns
gc.collect()
gc.freeze()
statements: list[str] = []
mem.store.db.conn.set_trace_callback(statements.append)
hits: list[list[tuple[int, str]]] = []
for query, scope in queries:  # warm SQLite's page cache; the answers to compare
    found = mem.search(query, scope=scope, k=a.k)
    hits.append([(h.item.id, repr(h.score), *([repr(sorted(h.scores.items()))] if a.full else []))
                 for h in found])
per_search = {True: [], False: []}
n0 = 0
for i, (query, scope) in enumerate(queries):
    n0 = len(statements)
    mem.search(query, scope=scope, k=10)
    per_search[scope is not None].append(len(statements) - n0)
mem.store.db.conn.set_trace_callback(None)
best: list[dict[str, float]] = [{} for _ in queries]
for _ in range(a.rounds):
    for i, (query, scope) in enumerate(queries):
        c = time.process_time()
        mem.search(query, scope=scope, k=10)
        laps = {"total": (time.process_time() - c) * 1e3, **mem.last_timings}
        b = best[i]
        for name, ms in laps.items():
            b[name] = min(b.get(name, float("inf")), ms)
print(os.popen("uptime").read().strip(), flush=True)
if a.profile:
    import cProfile, pstats
    prof = cProfile.Profile()
    prof.enable()
    for query, scope in queries:
        mem.search(query, scope=scope, k=10)
    prof.disable()
    prof.dump_stats(a.profile)
    pstats.Stats(a.profile).sort_stats("tottime").print_stats(25)
for scoped in (True, False):
    rows = [b for b, (_, s) in zip(best, queries) if (s is not None) == scoped]
    if not rows:
        continue
    print(("within a scope" if scoped else "all scopes") +
          f": statements a search p50 {statistics.median(per_search[scoped]):.0f}")
    for name in rows[0]:
        v = [r.get(name, 0.0) for r in rows]
        print(f"  {name.removesuffix('_ms'):>9} CPU p50 {np.percentile(v, 50):6.2f}  p95 {np.percentile(v, 95):6.2f}"
              f"  mean {statistics.mean(v):6.2f} ms")
    slow = sorted(((b["total"], q) for b, (q, s) in zip(best, queries) if (s is not None) == scoped), reverse=True)[:8]
    by_query = {q: b for b, (q, s) in zip(best, queries) if (s is not None) == scoped}
    for ms, q in slow:
        stages = " ".join(f"{k.removesuffix('_ms')} {v:.1f}" for k, v in by_query[q].items() if k != "total")
        print(f"    {ms:5.1f} ms  {q!r}: {stages}")
if a.dump:
    with open(a.dump, "w") as fh:
        json.dump(hits, fh)
if a.compare:
    with open(a.compare) as fh:
        other = json.load(fh)
    differ = sum(1 for x, y in zip(hits, other, strict=True) if [list(h) for h in x] != y)
    print(f"searches whose hits differ from {a.compare}: {differ} of {len(hits)}")
mem.close()
