# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""Run memlane bench ingest on a fresh PostgreSQL database per size (test server, fsync off).

    python tools/scale/pgbench.py 10000,100000 [BATCH] [--keep DIR]
    python tools/scale/pgbench.py 10000,100000 --reuse DIR [--slowest K] [--statement-ms]

BATCH > 1 stores the messages with add_messages in batches of that size.

``--keep DIR`` keeps the server's data in DIR (database ``bench_N`` for size N, replaced
if there) instead of a temporary folder. ``--reuse DIR`` starts that server again and
runs only the search half of the bench on each ``bench_N``: the bench's 200 queries
unscoped and scoped (the same queries, in the same order), each stage's p50/p95, recall@10
against exact, plus the server backend's CPU and the statements per search; so two
versions of the search code can be compared on one database without indexing it again.
``--set NAME=VALUE`` starts the server with that setting over the test server's.
``--slowest K`` also prints the K slowest searches of each kind with their stages;
``--dump FILE`` writes every search's hits (ids and scores) as JSON, so two versions'
answers can be compared. ``--statement-ms`` also times every statement from the client
(sent, executed and all its rows received: each is fetched at once) and reports each kind's
milliseconds a search (``statement_ms``, 400 searches, unscoped and scoped together).

Every run reports the garbage collector's pauses over the timed searches (``gc_pauses``:
collections by generation, their total and longest milliseconds). Before the timed searches
the process runs ``gc.collect(); gc.freeze()`` (``--gc freeze``, the default since the
eighth round: what a serving process does once started, and what ``searchonly.py`` does
for SQLite; without it a full collection visits every object the loading left, 40-75 ms
three times in 400 searches at 10k items, docs/scaling.md); ``--gc on`` leaves the
collector as it is, ``--gc off`` disables it for the timed searches.
``--patch MODULE.NAME=VALUE`` sets a module constant first (e.g.
``memlane.store.postgres.search.SEARCH_THREADS=0``: the two lists one after the other);
``--profile FILE`` (with ``--reuse``) writes a cProfile of the search loop.
"""
import argparse, ast, collections, gc, importlib, json, os, statistics, time, uuid

import numpy as np

from memlane.bench.ingest import _collect, _pct, _query, _stage_figures, run_ingest, synthetic_turns, vector_recall
from memlane.testing.postgres import create_database, postgres_server

ap = argparse.ArgumentParser()
ap.add_argument("sizes")
ap.add_argument("batch", nargs="?", type=int, default=1)
ap.add_argument("--keep", metavar="DIR")
ap.add_argument("--reuse", metavar="DIR")
ap.add_argument("--slowest", type=int, default=0, metavar="K")
ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                help="a server setting over the test server's (repeatable), e.g. shared_buffers=512MB")
ap.add_argument("--dump", metavar="FILE", help="with --reuse: write each search's hits (id, score) to FILE")
ap.add_argument("--statement-ms", action="store_true",
                help="with --reuse: time each statement from the client (rows fetched at once)")
ap.add_argument("--gc", choices=("on", "freeze", "off"), default="freeze",
                help="the collector over the timed searches (freeze: collect and freeze first)")
ap.add_argument("--patch", action="append", default=[], metavar="MODULE.NAME=VALUE",
                help="set a module constant (a Python literal) before running")
ap.add_argument("--profile", metavar="FILE", help="with --reuse: cProfile the search loop into FILE.N")
args = ap.parse_args()
sizes = [int(x) for x in args.sizes.split(",")]
for spec in args.patch:
    target, value = spec.split("=", 1)
    module, name = target.rsplit(".", 1)
    setattr(importlib.import_module(module), name, ast.literal_eval(value))

# The collector's pauses (gc.callbacks), counted between gc_start() and gc_stop().
_gc = {"on": False, "t": 0.0, "pauses": collections.defaultdict(list)}


def _gc_callback(phase: str, info: dict) -> None:
    if not _gc["on"]:
        return
    if phase == "start":
        _gc["t"] = time.perf_counter()
    else:
        _gc["pauses"][info["generation"]].append((time.perf_counter() - _gc["t"]) * 1e3)


gc.callbacks.append(_gc_callback)


def gc_start() -> None:
    if args.gc == "freeze":
        gc.collect()
        gc.freeze()
    elif args.gc == "off":
        gc.disable()
    _gc["pauses"].clear()
    _gc["on"] = True


def gc_stop() -> dict:
    _gc["on"] = False
    if args.gc == "off":
        gc.enable()
    return {"mode": args.gc, "tracked_objects": len(gc.get_objects()), "frozen": gc.get_freeze_count(),
            **{f"gen{g}": {"n": len(v), "ms": round(sum(v), 1), "max_ms": round(max(v), 2)}
               for g, v in sorted(_gc["pauses"].items())}}


def backend_cpu(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def backends(mem) -> list[int]:
    """The server pids of the store's connections (more than one if the store opens several)."""
    row = mem.store.db.execute(
        "SELECT array_agg(pid) FROM pg_stat_activity WHERE datname = current_database()"
        " AND usename = current_user").fetchone()
    return list(row[0] or [])


def search_only(dburl: str, n: int) -> dict:
    """The search half of ``run_ingest`` on a database it built before."""
    from memlane.config import load_config
    from memlane.memory import Memory
    from memlane.store.postgres.db import Database

    turns = synthetic_turns(n)
    mem = Memory(config=load_config(environ={}, overrides={
        "db": dburl, "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
    scope0 = mem.store.db.execute(
        "SELECT scope FROM sessions WHERE scope LIKE '%%-conv-0' LIMIT 1").fetchone()[0]
    run = scope0.removesuffix("-conv-0")
    mem.store.warm_vector_index(mem.embeddings.model, mem.embedder.dim, wait=True)
    kinds: collections.Counter = collections.Counter()
    execute = Database.execute

    spent: collections.Counter = collections.Counter()

    class Fetched:
        """A cursor's rows, fetched when the statement ran (``--statement-ms``)."""

        def __init__(self, rows):
            self.rows = rows

        def fetchall(self):
            return self.rows

        def fetchone(self):
            return self.rows[0] if self.rows else None

        def __iter__(self):
            return iter(self.rows)

    def counting(self, sql, params=None, **kw):
        kind = (sql if isinstance(sql, str) else repr(sql))[:90]
        kinds[kind] += 1
        if not args.statement_ms:
            return execute(self, sql, params, **kw)
        t = time.perf_counter()
        cur = execute(self, sql, params, **kw)
        rows = cur.fetchall() if cur.description is not None else []
        spent[kind] += time.perf_counter() - t
        return Fetched(rows)

    rng = np.random.default_rng(11)
    lat_all, lat_scoped, st_all, st_scoped = [], [], {}, {}
    slow_all, slow_scoped, answers = [], [], []
    Database.execute = counting
    pids = backends(mem)
    gc_start()
    if args.profile:
        import cProfile
        prof = cProfile.Profile()
        prof.enable()
    b0, c0 = sum(backend_cpu(p) for p in pids), time.process_time()
    cpu = {"all": [0.0, 0.0], "scoped": [0.0, 0.0]}  # client, server seconds

    def timed(kind: str, **kw):
        c, b, s = time.process_time(), sum(backend_cpu(p) for p in pids), time.perf_counter()
        hits = mem.search(query, k=10, **kw)
        ms = (time.perf_counter() - s) * 1e3
        cpu[kind][0] += time.process_time() - c
        cpu[kind][1] += sum(backend_cpu(p) for p in pids) - b
        return hits, ms

    for q in range(200):
        query = _query(turns, rng)
        if q == 1:  # the helper threads' connections exist after the first search
            pids = sorted(set(pids) | set(backends(mem)))
        hits, ms = timed("all")
        answers.append([[h.item.id, h.score] for h in hits])
        lat_all.append(ms); _collect(st_all, mem.last_timings)
        slow_all.append((ms, query, dict(mem.last_timings)))
        scope = f"{run}-conv-{q % 100}"
        hits, ms = timed("scoped", scope=scope)
        answers.append([[h.item.id, h.score] for h in hits])
        lat_scoped.append(ms); _collect(st_scoped, mem.last_timings)
        slow_scoped.append((ms, query, dict(mem.last_timings)))
    pids = sorted(set(pids) | set(backends(mem)))
    b1, c1 = sum(backend_cpu(p) for p in pids), time.process_time()
    if args.profile:
        prof.disable()
        prof.dump_stats(f"{args.profile}.{n}")
    pauses = gc_stop()
    Database.execute = execute
    qs = [(mem.embeddings.for_query(_query(turns, rng)), None) for _ in range(50)]
    recall_all = vector_recall(mem.store, mem.embeddings.model, qs)
    qs = [(mem.embeddings.for_query(_query(turns, rng)), f"{run}-conv-{q % 3}") for q in range(50)]
    recall_scoped = vector_recall(mem.store, mem.embeddings.model, qs)
    mem.close()
    if args.dump:
        with open(f"{args.dump}.{n}", "w") as fh:
            json.dump(answers, fh)
    out = {
        "items": n, "search_only": True,
        "search_p50_ms": statistics.median(lat_all), "search_p95_ms": _pct(lat_all, 95),
        "scoped_search_p50_ms": statistics.median(lat_scoped), "scoped_search_p95_ms": _pct(lat_scoped, 95),
        "vector_recall_at_10": recall_all, "scoped_vector_recall_at_10": recall_scoped,
        "statements_per_search": round(sum(kinds.values()) / 400, 2),
        "statements": {k: round(v / 400, 2) for k, v in kinds.most_common(12)},
        "server_cpu_ms_per_search": round((b1 - b0) * 1e3 / 400, 2),
        **({"statement_ms": {k: round(v * 1e3 / 400, 2) for k, v in spent.most_common()}}
           if args.statement_ms else {}),
        "client_cpu_ms_per_search": round((c1 - c0) * 1e3 / 400, 2), "gc_pauses": pauses,
        "cpu_ms_per_search_by_kind": {k: {"client": round(v[0] * 1e3 / 200, 2), "server": round(v[1] * 1e3 / 200, 2)}
                                      for k, v in cpu.items()},
        "search_stages_ms": _stage_figures(st_all), "scoped_search_stages_ms": _stage_figures(st_scoped)}
    for label, rows in (("slowest_all", slow_all), ("slowest_scoped", slow_scoped)):
        if args.slowest:
            out[label] = [{"ms": round(ms, 1), "query": qy, **{k: round(v, 1) for k, v in t.items()}}
                          for ms, qy, t in sorted(rows, key=lambda r: -r[0])[:args.slowest]]
    return out


def full_run(n: int, dburl: str) -> dict:
    """``run_ingest``, the collector's pauses counted over its timed searches only (from
    the vector index's warm-up, which comes right before them, to the recall check after)."""
    from memlane.bench import ingest
    from memlane.store.postgres.store import PostgresStore

    warm, recall, got = PostgresStore.warm_vector_index, ingest.vector_recall, {}

    def warm_then_start(self, *a, **kw):
        out = warm(self, *a, **kw)
        gc_start()
        return out

    def stop_then_recall(*a, **kw):
        if "pauses" not in got:
            got["pauses"] = gc_stop()
        return recall(*a, **kw)

    PostgresStore.warm_vector_index, ingest.vector_recall = warm_then_start, stop_then_recall
    try:
        row = run_ingest(n, "static", db=dburl, batch=args.batch)
    finally:
        PostgresStore.warm_vector_index, ingest.vector_recall = warm, recall
    return {**row, "gc_pauses": got.get("pauses")}


settings = dict(kv.split("=", 1) for kv in args.set)
with postgres_server(settings, keep=args.keep or args.reuse) as url:
    for n in sizes:
        print(os.popen("uptime").read().strip(), flush=True)
        if args.reuse:
            row = search_only(url.rsplit("/", 1)[0] + f"/bench_{n}", n)
        else:
            name = f"bench_{n}" if args.keep else f"bench_{n}_{uuid.uuid4().hex[:6]}"
            dburl = create_database(url, name, replace=bool(args.keep))
            row = full_run(n, dburl)
        print(json.dumps(row), flush=True)
        print(os.popen("uptime").read().strip(), flush=True)
