# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""What ``memlane gc``'s graph sweeps cost on a store of N turns: the orphan-node sweep
(``remove_unnamed_entities``) and the dangling-relation sweep (``remove_dangling_relations``).

    python tools/scale/graphsweep.py 100000 [--keep DIR] [--rounds 7] [--postgres]

The store: ``synthetic_turns(N)`` as the scale tools fill one (sessions of 10 turns over
100 scopes), every fifth turn replaced by a sentence the offline pipeline reads a graph
from ("My cousin Zqa17 lives in Evora.", "I work at Zqorg17.", "I moved to Porto."), so the
graph has the entity items, nodes, facts and relations of 20,000 such statements at 100k;
then ``index`` (the offline pipeline). SQLite is built in ``DIR/graphsweep-N.db`` (kept and
reused with ``--keep``); ``--postgres`` copies it (``memlane db copy``'s ``copy_store``)
into a private server's database. Each round times both sweeps on a store with nothing to
remove (their reads are the cost a round of the worker would pay), then one more with Python's
peak allocation (tracemalloc) and the process's peak RSS; the median and the
rounds' spread are printed.
"""
import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

from memlane.bench.ingest import add_synthetic, synthetic_turns
from memlane.store import open_store
from memlane.store.copy import copy_store
from memlane.testing import memory

CITIES = ("Evora", "Braga", "Porto", "Faro", "Lisbon", "Coimbra", "Aveiro", "Viseu")


def turns(n: int) -> list[str]:
    """``synthetic_turns(n)`` with every fifth turn a statement the graph is read from."""
    out = synthetic_turns(n)
    for i in range(0, n, 10):  # user turns are the even ones of a session of 10
        k = i // 10
        city = CITIES[k % len(CITIES)]
        out[i] = (f"My cousin Zqa{k} lives in {city}.", f"I work at Zqorg{k}.",
                  f"I moved to {city}.", f"My friend Zqb{k} works at Zqorg{k}.")[k % 4]
        if i + 4 < n:
            out[i + 4] = f"My sister Zqc{k} lives in {CITIES[(k + 3) % len(CITIES)]}."
    return out


def build(path: Path, n: int) -> None:
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    began = time.perf_counter()
    with memory(path) as mem:
        end = add_synthetic(mem, turns(n), t0)
        mem.index(now=end)
    print(f"built {path} in {time.perf_counter() - began:.0f} s", file=sys.stderr)


def counts(store) -> dict[str, int]:
    run = store._run
    return {"items": run("SELECT count(*) FROM items").fetchone()[0],
            "entity items": run("SELECT count(*) FROM items WHERE kind = 'entity'").fetchone()[0],
            "nodes": run("SELECT count(*) FROM entities").fetchone()[0],
            "facts": run("SELECT count(*) FROM facts").fetchone()[0],
            "relations": run("SELECT count(*) FROM relations").fetchone()[0]}


def measure(store, rounds: int) -> None:
    print(" ".join(f"{k}={v}" for k, v in counts(store).items()))
    for name, sweep in (("nodes", store.remove_unnamed_entities),
                        ("relations", store.remove_dangling_relations)):
        times = []
        for _ in range(rounds):
            began = time.perf_counter()
            removed = sweep()
            times.append((time.perf_counter() - began) * 1000)
            assert removed == 0, removed
        tracemalloc.start()  # a round of its own: tracing slows the sweep several times
        sweep()
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        print(f"{name}: median {statistics.median(times):.1f} ms (min {min(times):.1f}, max"
              f" {max(times):.1f}; {rounds} rounds), Python peak {peak:.1f} MiB,"
              f" RSS peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("turns", type=int)
    ap.add_argument("--keep", default=None, help="folder for the SQLite store (reused)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--postgres", action="store_true")
    args = ap.parse_args()
    with ExitStack() as stack:
        folder = Path(args.keep or stack.enter_context(tempfile.TemporaryDirectory()))
        path = folder / f"graphsweep-{args.turns}.db"
        if not path.exists():
            build(path, args.turns)
        source = open_store(path)
        stack.callback(source.close)
        if not args.postgres:
            print(f"SQLite, {args.turns} turns, load {os.getloadavg()[0]:.1f}")
            measure(source, args.rounds)
            return
        from memlane.testing.postgres import create_database, postgres_server

        server = stack.enter_context(postgres_server())
        target = open_store(create_database(server, "graphsweep"))
        stack.callback(target.close)
        began = time.perf_counter()
        copy_store(source, target)
        print(f"copied in {time.perf_counter() - began:.0f} s", file=sys.stderr)
        print(f"PostgreSQL, {args.turns} turns, load {os.getloadavg()[0]:.1f}")
        measure(target, args.rounds)


if __name__ == "__main__":
    main()
