# Scripts behind docs/scaling.md (run with the project venv).
"""The CPU of memlane's own search code, the store's answers replayed (either backend).

    python tools/scale/retrcpu.py DB N [--all] [--rounds R] [--dump F | --compare F]
    python tools/scale/retrcpu.py --pg DIR N [--rounds R] [--dump F | --compare F]

DB holds the bench's N synthetic turns (``tools/scale/lexprof.py DB N``); ``--pg DIR``
starts the PostgreSQL server kept in DIR (``tools/scale/pgbench.py N --keep DIR``) and
searches its ``bench_N``. The bench's 200 queries (``searchonly.py``'s and
``pgbench.py``'s seed) run once against the store, each store call's answer recorded
(within a scope; ``--all`` or ``--pg``: also over all scopes). Then every search runs
``R`` more rounds (default 5) with the store replaced by a replay of its recorded answers
(each a shallow copy, as fresh as the store's), so the CPU time counted is only what
``Memory.search`` and ``memlane.retrieve`` spend between the store's answers: no SQL, no
rows, no PostgreSQL helper threads. Each query's figure is its least over the rounds,
then p50 / p95 / mean over the queries, by kind. A replay that asks the store something
else than the recording did stops with an error (the two trees then differ in behaviour).

``--dump F`` writes every search's hits as recorded (ids, ``repr`` of each score and of
every signal and rank in ``scores``), ``--compare F`` counts the searches whose hits differ
from such a file: run it once with ``PYTHONPATH=OTHER/src`` for the other tree.
``--profile FILE`` runs one more replay round under cProfile and prints the functions by
their own time.
"""
import argparse, contextlib, copy, gc, json, os, statistics, sys, time

import numpy as np

from memlane.bench.ingest import _query, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory

ap = argparse.ArgumentParser()
ap.add_argument("db", nargs="?")
ap.add_argument("n", type=int)
ap.add_argument("--pg", metavar="DIR", help="the kept PostgreSQL server of pgbench.py --keep DIR")
ap.add_argument("--all", action="store_true", help="SQLite: also over all scopes")
ap.add_argument("--rounds", type=int, default=5)
ap.add_argument("--dump")
ap.add_argument("--compare")
ap.add_argument("--profile", metavar="FILE", help="one more replay round under cProfile (pstats file)")
a = ap.parse_args()


class Recorder:
    """The store, each call's answer kept (a shallow copy: the caller may add to it)."""

    def __init__(self, store):
        self._store, self.calls = store, []

    def __getattr__(self, name):
        attr = getattr(self._store, name)
        if not callable(attr):
            return attr

        def call(*args, **kw):
            out = attr(*args, **kw)
            self.calls.append((name, out if hasattr(out, "__enter__") else copy.copy(out)))
            return out
        return call


class Replay:
    """The store's recorded answers, in the recorded order."""

    def __init__(self, store, calls):
        self._store, self._calls, self._i = store, calls, 0

    def __getattr__(self, name):
        attr = getattr(self._store, name)
        if not callable(attr):
            return attr

        def call(*args, **kw):
            want, out = self._calls[self._i]
            if want != name:
                sys.exit(f"the replay asked {name} where the recording asked {want}")
            self._i += 1
            if hasattr(out, "__enter__"):
                return contextlib.nullcontext()
            return copy.copy(out)
        return call


def run(mem: Memory, queries: list[tuple[str, str | None]]) -> None:
    store = mem.store
    print(os.popen("uptime").read().strip(), flush=True)
    recorded, hits = [], []
    for query, scope in queries:  # once against the store: warm, and the answers
        mem.search(query, scope=scope, k=10)
    for query, scope in queries:
        rec = Recorder(store)
        mem.store = rec
        try:
            found = mem.search(query, scope=scope, k=10)
        finally:
            mem.store = store
        recorded.append(rec.calls)
        hits.append([(h.item.id, repr(h.score), repr(sorted(h.scores.items()))) for h in found])
    gc.collect()
    gc.freeze()
    best = [float("inf")] * len(queries)
    for _ in range(a.rounds):
        for i, (query, scope) in enumerate(queries):
            mem.store = Replay(store, recorded[i])
            c = time.process_time()
            mem.search(query, scope=scope, k=10)
            best[i] = min(best[i], (time.process_time() - c) * 1e3)
    if a.profile:
        import cProfile, pstats
        prof = cProfile.Profile()
        for i, (query, scope) in enumerate(queries):
            mem.store = Replay(store, recorded[i])
            prof.enable()
            mem.search(query, scope=scope, k=10)
            prof.disable()
        prof.dump_stats(a.profile)
        pstats.Stats(a.profile).sort_stats("tottime").print_stats(30)
    mem.store = store
    print(os.popen("uptime").read().strip(), flush=True)
    calls = [len(r) for r in recorded]
    for scoped in (False, True):
        v = [b for b, (_, s) in zip(best, queries) if (s is not None) == scoped]
        if v:
            print(f"{'within a scope' if scoped else 'all scopes'}: memlane's own search CPU"
                  f" p50 {np.percentile(v, 50):.3f}  p95 {np.percentile(v, 95):.3f}"
                  f"  mean {statistics.mean(v):.3f} ms  (store calls a search p50"
                  f" {statistics.median(c for c, (_, s) in zip(calls, queries) if (s is not None) == scoped):.0f})")
    if a.dump:
        with open(a.dump, "w") as fh:
            json.dump(hits, fh)
    if a.compare:
        with open(a.compare) as fh:
            other = json.load(fh)
        differ = sum(1 for x, y in zip(hits, other, strict=True) if [list(h) for h in x] != y)
        print(f"searches whose hits differ from {a.compare}: {differ} of {len(hits)}")


def queries_of(n: int, prefix: str, unscoped: bool) -> list[tuple[str, str | None]]:
    turns = synthetic_turns(n)
    rng = np.random.default_rng(11)
    out: list[tuple[str, str | None]] = []
    for q in range(200):
        query = _query(turns, rng)
        if unscoped:
            out.append((query, None))
        out.append((query, f"{prefix}-conv-{q % 100}"))
    return out


def memory(db: str) -> Memory:
    return Memory(config=load_config(environ={}, overrides={
        "db": db, "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))


print(sys.modules["memlane.retrieve.search"].__file__ if "memlane.retrieve.search" in sys.modules
      else __import__("memlane.retrieve.search").retrieve.search.__file__, flush=True)
if a.pg:
    from memlane.testing.postgres import postgres_server

    with postgres_server(keep=a.pg) as url:
        mem = memory(url.rsplit("/", 1)[0] + f"/bench_{a.n}")
        scope0 = mem.store.db.execute(
            "SELECT scope FROM sessions WHERE scope LIKE '%%-conv-0' LIMIT 1").fetchone()[0]
        mem.store.warm_vector_index(mem.embeddings.model, mem.embedder.dim, wait=True)
        run(mem, queries_of(a.n, scope0.removesuffix("-conv-0"), True))
        mem.close()
else:
    mem = memory(a.db)
    if a.all:
        mem.store.warm_vector_index(mem.embeddings.model, mem.embedder.dim, wait=True)
    else:
        mem.store._sync_index(mem.embeddings.model, mem.embedder.dim)
    run(mem, queries_of(a.n, "bench", a.all))
    mem.close()
