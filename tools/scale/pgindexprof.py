# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""Where an indexing run's time goes on PostgreSQL: N messages (batches of 50), then one
``Memory.index`` timed step by step.

    python tools/scale/pgindexprof.py 100000 [--cprofile]

Each store call the indexer makes is wrapped: its wall time, and the server's CPU meanwhile
(from /proc/<pid>/stat: the store's backend and the postmaster's reaped children, such as
the HNSW build's parallel workers; the run's total counts every server process). ``embed`` is the embedder itself;
``python (other)`` is the rest of the run (building rows, keys, the loop). The indexer
prepares the next batch in a thread while it writes the last, so calls overlap: their
wall times add up to more than the run, and the server CPU of one call includes the
other thread's statements meanwhile. The run's totals are exact.
"""
import cProfile, json, os, pstats, sys, time, uuid
from datetime import UTC, datetime

from memlane.bench.ingest import add_synthetic, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing.postgres import create_database, postgres_server

TICK = os.sysconf("SC_CLK_TCK")


def cpu(pid: int, children: bool = False) -> float:
    with open(f"/proc/{pid}/stat") as fh:
        f = fh.read().rsplit(")", 1)[1].split()
    t = int(f[11]) + int(f[12]) + ((int(f[13]) + int(f[14])) if children else 0)
    return t / TICK


def postmaster(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as fh:
        return int(fh.read().rsplit(")", 1)[1].split()[1])


n = int(sys.argv[1])
profile = "--cprofile" in sys.argv
with postgres_server() as url:
    db = create_database(url, f"prof_{uuid.uuid4().hex[:6]}")
    mem = Memory(config=load_config(environ={}, overrides={
        "db": db, "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
    end = add_synthetic(mem, synthetic_turns(n), datetime(2024, 1, 1, tzinfo=UTC))
    store = mem.store
    for stmt in filter(None, os.environ.get("PGINDEXPROF_SQL", "").split(";")):
        store.db.execute(stmt)  # an experiment's setting (see docs/scaling.md)
    backend = int(store.db.execute("SELECT pg_backend_pid()").fetchone()[0])
    master = postmaster(backend)
    stats: dict[str, list[float]] = {}

    def server_cpu() -> float:
        """A call's share: the store's backend and the postmaster's reaped children
        (parallel build workers, autovacuum); cheap enough to read around every call."""
        return cpu(backend) + cpu(master, children=True) - cpu(master)

    def all_server_cpu() -> float:
        """The run's total: every server process, live ones (the indexer's prefetch
        connection among them) and reaped ones. Reads all of /proc: once a run."""
        total = cpu(master, children=True)
        for p in os.listdir("/proc"):
            if p.isdigit():
                try:
                    if postmaster(int(p)) == master:
                        total += cpu(int(p))
                except (OSError, IndexError, ValueError):
                    continue
        return total

    def wrap(obj, name, label=None):
        fn = getattr(obj, name)

        def timed(*a, **k):
            w, c = time.perf_counter(), server_cpu()
            try:
                return fn(*a, **k)
            finally:
                s = stats.setdefault(label or name, [0, 0.0, 0.0])
                s[0] += 1
                s[1] += time.perf_counter() - w
                s[2] += server_cpu() - c
        setattr(obj, name, timed)

    for name in ("sessions_to_index", "sessions_messages", "cached_vectors", "cache_vectors",
                 "claim_sessions_for_index", "insert_items", "put_vectors", "bump",
                 "ensure_vector_index", "_merge_pending_text"):
        wrap(store, name)
    from memlane.store.postgres import search as pgsearch
    wrap(pgsearch, "ensure_hnsw", "ensure_hnsw (HNSW build)")
    wrap(mem.embeddings, "_embed", "embed")
    orig_atomic = store.db.atomic
    from contextlib import contextmanager

    @contextmanager
    def atomic():
        with orig_atomic() as c:
            yield c
            w, sc = time.perf_counter(), server_cpu()
        s = stats.setdefault("commit", [0, 0.0, 0.0])
        s[0] += 1
        s[1] += time.perf_counter() - w
        s[2] += server_cpu() - sc
    store.db.atomic = atomic
    print(os.popen("uptime").read().strip(), flush=True)
    prof = cProfile.Profile() if profile else None
    w0, c0, p0 = time.perf_counter(), all_server_cpu(), time.process_time()
    if prof:
        prof.enable()
    rep = mem.index(now=end)
    if prof:
        prof.disable()
    wall, scpu, pcpu = time.perf_counter() - w0, all_server_cpu() - c0, time.process_time() - p0
    print(os.popen("uptime").read().strip(), flush=True)
    print(f"{rep.items_indexed} turns in {wall:.1f} s = {rep.items_indexed / wall:,.0f} turns/s;"
          f" client CPU {pcpu:.1f} s, server CPU {scpu:.1f} s")
    inner = {"ensure_hnsw (HNSW build)", "_merge_pending_text"}
    accounted = sum(v[1] for k, v in stats.items() if k not in inner)
    print("| step | calls | wall s | share | server CPU s |")
    print("|---|---:|---:|---:|---:|")
    for k, (calls, w, c) in sorted(stats.items(), key=lambda kv: -kv[1][1]):
        print(f"| {k} | {calls} | {w:.2f} | {100 * w / wall:.0f}% | {c:.2f} |")
    print(f"| python (other) | | {wall - accounted:.2f} | {100 * (wall - accounted) / wall:.0f}% | |")
    print(json.dumps({"n": n, "turns_per_s": rep.items_indexed / wall, "wall": wall}))
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(35)
    mem.close()
