# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""Index a backlog of N messages on PostgreSQL with 1, 2 and 4 `memlane worker` processes.

    python tools/scale/workers.py 40000 1,2,4

Each trial copies the backlog from a template database and is timed from the workers'
start until every turn is an item and, for a backlog of HNSW_ABOVE (5,000) messages or
more, the HNSW index exists (start-up and the graph's build included). Beside the rate: the CPU seconds each worker process used and the
server's (every PostgreSQL process: backends, parallel build workers, the rest), from
/proc, so a reader can see whether more workers were held back by the CPU or by waiting.
"""
import os, signal, subprocess, sys, time, uuid
from datetime import UTC, datetime
import psycopg
from memlane.testing.postgres import create_database, postgres_server
from memlane.config import load_config
from memlane.memory import Memory
from memlane.bench.ingest import store_messages, synthetic_messages, synthetic_turns
from memlane.store.postgres.search import HNSW_ABOVE

TICK = os.sysconf("SC_CLK_TCK")


def stat(pid):
    with open(f"/proc/{pid}/stat") as fh:
        f = fh.read().rsplit(")", 1)[1].split()
    return int(f[1]), (int(f[11]) + int(f[12])) / TICK, (int(f[13]) + int(f[14])) / TICK


def server_cpu(master):
    """The postmaster's CPU, its reaped children's, and every live child's."""
    _, own, reaped = stat(master)
    live = 0.0
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                ppid, cpu, _ = stat(p)
            except (OSError, IndexError):
                continue
            if ppid == master:
                live += cpu
    return own + reaped + live


n = int(sys.argv[1]); counts = [int(x) for x in sys.argv[2].split(",")]
B = os.path.join(os.path.dirname(sys.executable), "memlane")  # this venv's
with postgres_server() as url:
    backlog = create_database(url, "backlog")
    mem = Memory(config=load_config(environ={}, overrides={"db": backlog, "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
    store_messages(mem, synthetic_messages(synthetic_turns(n), datetime(2024, 1, 1, tzinfo=UTC)), 50)
    mem.close()
    print(os.popen("uptime").read().strip(), flush=True)
    print("| workers | turns/s | wall s | CPU s of each worker | server CPU s | CPU s / wall s | load avg |")
    print("|---:|---:|---:|---|---:|---:|---|")
    for k in counts:
        db = create_database(url, f"w{k}_{uuid.uuid4().hex[:4]}", template="backlog")
        env = {**os.environ, "MEMLANE_DB": db, "MEMLANE_EMBEDDING_BACKEND": "static",
               "MEMLANE_INDEXING_ENABLED": "false"}
        with psycopg.connect(db, autocommit=True) as c:
            master = stat(c.execute("SELECT pg_backend_pid()").fetchone()[0])[0]
            load0 = os.getloadavg()[0]
            server0 = server_cpu(master)
            start = time.perf_counter()
            procs = [subprocess.Popen([B, "worker", "--poll", "0.5"], env=env, stderr=subprocess.DEVNULL) for _ in range(k)]
            # the graph only once the backlog reaches HNSW_ABOVE vectors (below, it never is:
            # a 500-message run waited for ever); bounded at an hour
            graph = n >= HNSW_ABOVE
            deadline = time.monotonic() + 3600
            while (c.execute("SELECT count(*) FROM items WHERE kind = 'turn'").fetchone()[0] < n
                   or (graph and not c.execute("SELECT count(*) FROM vector_indexes").fetchone()[0])):
                if time.monotonic() > deadline:
                    sys.exit(f"{k} worker(s) did not index {n} messages in an hour")
                time.sleep(0.5)
            secs = time.perf_counter() - start
            workers = [stat(p.pid)[1] for p in procs]
            for p in procs:
                p.send_signal(signal.SIGTERM)
            for p in procs:
                p.wait(timeout=60)
            time.sleep(1.0)  # their backends exit and are reaped
            server = server_cpu(master) - server0
        total = sum(workers) + server
        print(f"| {k} | {n / secs:,.0f} | {secs:.1f} | {' + '.join(f'{w:.1f}' for w in workers)} "
              f"| {server:.1f} | {total / secs:.2f} | {load0:.1f} → {os.getloadavg()[0]:.1f} |", flush=True)
