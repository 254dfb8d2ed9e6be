# Scripts behind docs/scaling.md (run with the project venv).
"""Where a single-threaded search waits: wall time against CPU time, search by search.

    python tools/scale/waitprof.py DB N [--scoped-only]

DB holds the bench's N synthetic turns (``tools/scale/lexprof.py DB N``). Runs
``searchonly.py``'s sequence (warm the vector index, freeze the heap, then the bench's 200
queries unscoped and within ``bench-conv-{q % 100}``, so each scope is searched twice:
queries 0-99 meet it first, 100-199 again) and records for each search: wall time, this
thread's CPU (``time.thread_time``), the process's CPU (all threads: OpenBLAS or faiss
threads show as the difference), user and system time, minor and major page faults,
voluntary and involuntary context switches (``getrusage``), and garbage collections.
Prints p50 / p95 / mean of each, for a scope's first and second search apart, the
correlation of the wall-minus-CPU gap with each counter, and the slowest 10 searches.
``--scoped-only`` skips the unscoped searches (and the IVF build: the scoped searches'
vector stage is an exact scan of the scope).
"""
import argparse, gc, os, resource, statistics, threading, time

import numpy as np

from memlane.bench.ingest import _query, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory

ap = argparse.ArgumentParser()
ap.add_argument("db")
ap.add_argument("n", type=int)
ap.add_argument("--scoped-only", action="store_true")
a = ap.parse_args()

turns = synthetic_turns(a.n)
mem = Memory(config=load_config(environ={}, overrides={"db": a.db, "embedding": {"backend": "static"},
                                                       "indexing": {"enabled": False}}))
print(os.popen("uptime").read().strip(), flush=True)
t = time.perf_counter()
if a.scoped_only:
    mem.store._sync_index(mem.embeddings.model, mem.embedder.dim)
else:
    mem.store.warm_vector_index(mem.embeddings.model, mem.embedder.dim, wait=True)
print(f"warm {time.perf_counter() - t:.1f} s; threads {threading.active_count()} python,"
      f" {len(os.listdir('/proc/self/task'))} OS", flush=True)
gc.collect()
gc.freeze()
gc_ms = [0.0]
_gc_t = [0.0]


def _gc(phase: str, info: dict) -> None:
    if phase == "start":
        _gc_t[0] = time.perf_counter()
    else:
        gc_ms[0] += (time.perf_counter() - _gc_t[0]) * 1e3


gc.callbacks.append(_gc)


def measure(query: str, scope: str | None) -> dict:
    gc_ms[0] = 0.0
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    th0, p0, w0 = time.thread_time(), time.process_time(), time.perf_counter()
    mem.search(query, scope=scope, k=10)
    w1, p1, th1 = time.perf_counter(), time.process_time(), time.thread_time()
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    wall, thread = (w1 - w0) * 1e3, (th1 - th0) * 1e3
    return {"wall": wall, "thread": thread, "process": (p1 - p0) * 1e3, "gap": wall - thread,
            "user": (r1.ru_utime - r0.ru_utime) * 1e3, "sys": (r1.ru_stime - r0.ru_stime) * 1e3,
            "minflt": r1.ru_minflt - r0.ru_minflt, "majflt": r1.ru_majflt - r0.ru_majflt,
            "vcsw": r1.ru_nvcsw - r0.ru_nvcsw, "ivcsw": r1.ru_nivcsw - r0.ru_nivcsw, "gc": gc_ms[0],
            "query": query, **{k: v for k, v in mem.last_timings.items()}}


rng = np.random.default_rng(11)
runs: dict[str, list[dict]] = {"all": [], "scoped first": [], "scoped again": []}
for q in range(200):
    query = _query(turns, rng)
    if not a.scoped_only:
        runs["all"].append(measure(query, None))
    runs["scoped first" if q < 100 else "scoped again"].append(measure(query, f"bench-conv-{q % 100}"))
print(os.popen("uptime").read().strip(), flush=True)
keys = ("wall", "thread", "process", "gap", "user", "sys", "minflt", "majflt", "vcsw", "ivcsw", "gc")
for mode, rs in runs.items():
    if not rs:
        continue
    print(f"\n== {mode} ({len(rs)} searches)")
    for k in keys:
        v = [r[k] for r in rs]
        print(f"  {k:8s} p50 {np.percentile(v, 50):8.2f}  p95 {np.percentile(v, 95):8.2f}  mean {statistics.mean(v):8.2f}"
              f"  max {max(v):8.2f}")
    gap = np.array([r["gap"] for r in rs])
    for k in ("minflt", "majflt", "vcsw", "ivcsw", "sys", "gc"):
        x = np.array([r[k] for r in rs], dtype=float)
        if x.std() > 0 and gap.std() > 0:
            print(f"  corr(gap, {k}) {np.corrcoef(gap, x)[0, 1]:+.2f}")
    for r in sorted(rs, key=lambda r: -r["wall"])[:10]:
        st = " ".join(f"{k.removesuffix('_ms')}={v:.1f}" for k, v in r.items() if k.endswith("_ms") and v >= 0.5)
        print(f"  wall {r['wall']:6.1f} thread {r['thread']:5.1f} proc {r['process']:5.1f} sys {r['sys']:4.1f}"
              f" minflt {r['minflt']:4d} majflt {r['majflt']:3d} vcsw {r['vcsw']:3d} ivcsw {r['ivcsw']:3d}"
              f" gc {r['gc']:4.1f}  {r['query']!r}\n        {st}")
mem.close()
