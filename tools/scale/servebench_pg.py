# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""Run memlane bench serve on a fresh PostgreSQL database (test server, fsync off).

    python tools/scale/servebench_pg.py [--mix search] [--workers 2] [--seconds 15]
    python tools/scale/servebench_pg.py --profile 300

Every option is passed to ``run_serve_bench``; the result prints as one JSON line.

``--profile N`` fills a database as the bench does, then runs N searches (two of the
bench's words, a random scope) in this process instead and prints, per search, the
statements sent, this process's CPU, the server backend's CPU (its ``/proc`` entry: the
test server runs on this machine) and the wall-clock p50/p95, plus the statements by kind.
"""
import argparse, collections, json, os, random, time, uuid
import memlane.bench.serve as bench_serve
from memlane.bench.serve import _fill, _process_tree, parse_mix, run_serve_bench
from memlane.testing.postgres import create_database, postgres_server

ap = argparse.ArgumentParser()
ap.add_argument("--mix", default="search=0.6,pack=0.2,add=0.2")
ap.add_argument("--workers", type=int, default=1)
ap.add_argument("--seconds", type=float, default=15.0)
ap.add_argument("--clients", type=int, default=8)
ap.add_argument("--profile", type=int, default=0, metavar="N")
args = ap.parse_args()


def profile(db: str, n: int) -> dict:
    from memlane.config import load_config
    from memlane.memory import Memory
    from memlane.store.postgres.db import Database

    key, words = _fill(db, 50, 40)
    kinds: collections.Counter = collections.Counter()
    execute = Database.execute

    def counting(self, sql, params=None, **kw):
        kinds[(sql if isinstance(sql, str) else repr(sql))[:70]] += 1
        return execute(self, sql, params, **kw)

    def backend_cpu(pid: int) -> float:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    mem = Memory(config=load_config(environ={}, overrides={"db": db}))
    rng = random.Random(1)
    queries = [(" ".join(rng.sample(words, 2)), f"bench-{rng.randrange(50)}") for _ in range(n + 30)]
    for q, scope in queries[:30]:
        mem.search(q, scope=scope)
    pid = mem.store.db.execute("SELECT pg_backend_pid()").fetchone()[0]
    Database.execute = counting
    lat = []
    b0, c0 = backend_cpu(pid), time.process_time()
    for q, scope in queries[30:]:
        t = time.perf_counter()
        mem.search(q, scope=scope)
        lat.append((time.perf_counter() - t) * 1e3)
    b1, c1 = backend_cpu(pid), time.process_time()
    Database.execute = execute
    mem.close()
    lat.sort()
    return {"searches": n, "statements_per_search": round(sum(kinds.values()) / n, 2),
            "client_cpu_ms": round((c1 - c0) * 1e3 / n, 2),
            "server_cpu_ms": round((b1 - b0) * 1e3 / n, 2),
            "p50_ms": round(lat[n // 2], 2), "p95_ms": round(lat[int(n * 0.95)], 2),
            "statements": {k: round(v / n, 2) for k, v in kinds.most_common()}}


def server_cpu(url: str) -> float:
    """CPU seconds of the PostgreSQL server so far: its processes, and the backends it reaped."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        data = conn.execute("SHOW data_directory").fetchone()[0]
    pid = int(open(os.path.join(data, "postmaster.pid")).readline())
    total = 0
    for p in _process_tree(pid):
        try:
            f = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(f[11]) + int(f[12]) + (int(f[13]) + int(f[14]) if p == pid else 0)
    return total / os.sysconf("SC_CLK_TCK")


def with_server_cpu(url: str):
    """``bench.serve._load`` that also reports PostgreSQL's CPU per request."""
    load = bench_serve._load

    def timed(*a, **kw):
        c0 = server_cpu(url)
        r = load(*a, **kw)
        n = sum(x["count"] for x in r["actions"].values()) or 1
        r["postgres_cpu_ms_per_request"] = round((server_cpu(url) - c0) * 1e3 / n, 2)
        return r
    return timed


with postgres_server() as url:
    db = create_database(url, f"serve_{uuid.uuid4().hex[:8]}")
    print(os.popen("uptime").read().strip(), flush=True)
    if args.profile:
        r = profile(db, args.profile)
    else:
        bench_serve._load = with_server_cpu(url)
        r = run_serve_bench(clients=args.clients, seconds=args.seconds, workers=args.workers,
                            db=db, mix=parse_mix(args.mix))
    print(json.dumps(r), flush=True)
    print(os.popen("uptime").read().strip(), flush=True)
