"""Index a backlog of N messages on PostgreSQL with 1, 2 and 4 `memlane worker` processes."""
import os, signal, subprocess, sys, time, uuid
from datetime import UTC, datetime, timedelta
import psycopg
from memlane.testing.postgres import create_database, postgres_server
from memlane.config import load_config
from memlane.memory import Memory
from memlane.bench.ingest import synthetic_turns

n = int(sys.argv[1]); counts = [int(x) for x in sys.argv[2].split(",")]
B = os.path.join(os.path.dirname(sys.executable), "memlane")  # this venv's
with postgres_server() as url:
    backlog = create_database(url, "backlog")
    mem = Memory(config=load_config(environ={}, overrides={"db": backlog, "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    for i, text in enumerate(synthetic_turns(n)):
        s, pos = divmod(i, 10)
        mem.add_message(f"conv-{s % 100}", "user" if pos % 2 == 0 else "assistant", text, t0 + timedelta(hours=s, seconds=pos))
    mem.close()
    print(os.popen("uptime").read().strip(), flush=True)
    for k in counts:
        db = create_database(url, f"w{k}_{uuid.uuid4().hex[:4]}", template="backlog")
        env = {**os.environ, "MEMLANE_DB": db, "MEMLANE_EMBEDDING_BACKEND": "static",
               "MEMLANE_INDEXING_ENABLED": "false"}
        start = time.perf_counter()
        procs = [subprocess.Popen([B, "worker", "--poll", "0.5"], env=env, stderr=subprocess.DEVNULL) for _ in range(k)]
        with psycopg.connect(db, autocommit=True) as c:
            while c.execute("SELECT count(*) FROM items WHERE kind = 'turn'").fetchone()[0] < n:
                time.sleep(0.5)
        secs = time.perf_counter() - start
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            p.wait(timeout=60)
        print(f"workers {k}: {n} turns in {secs:.1f} s = {n/secs:,.0f} turns/s (incl. start-up)", os.popen("uptime").read().strip(), flush=True)
