# Scripts behind docs/scaling.md (run with the project venv; it starts its own test PostgreSQL).
"""CPU time of one ``add_message`` on PostgreSQL: the client's and the server backend's
(read from /proc, so the server must run on this machine, as the test server does). Each
run is a fresh database: 500 warm-up messages, then 5,500 timed, over 20 scopes, no
indexing (the workload of ``addcpu.py``).

    python tools/scale/pgaddcpu.py LABEL [RUNS] [BATCH]

BATCH > 1 stores the timed messages with ``add_messages`` in batches of that size (the 20
scopes round-robin, so each batch advances each scope's session 2-3 times: the worst case
for the records a batch writes, one per run of a session's messages).

Compare two trees with ``PYTHONPATH=OTHER/src python tools/scale/pgaddcpu.py other``.
"""
import os, sys, time
from datetime import UTC, datetime, timedelta

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing.postgres import create_database, postgres_server


def backend_cpu(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


label = sys.argv[1] if len(sys.argv) > 1 else "this tree"
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
batch = int(sys.argv[3]) if len(sys.argv) > 3 else 1
n = 5500
t0 = datetime(2025, 1, 1, tzinfo=UTC)
texts = [f"message number {i} about the garden and the {i % 17} tomatoes we planted" for i in range(500 + n)]
with postgres_server() as server:
    for run in range(runs):
        mem = Memory(create_database(server, f"addcpu_{run}", replace=True), config=load_config(
            environ={}, overrides={"embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
        pid = mem.store.db.execute("SELECT pg_backend_pid()").fetchone()[0]
        for i in range(500):
            mem.add_message(f"scope-{i % 20}", "user", texts[i], at=t0 + timedelta(seconds=i))
        c, w, b = time.process_time(), time.perf_counter(), backend_cpu(pid)
        if batch > 1:
            rows = [{"scope": f"scope-{i % 20}", "role": "user" if i % 2 else "assistant",
                     "text": texts[i], "at": t0 + timedelta(seconds=i)} for i in range(500, 500 + n)]
        for i in range(500, 500 + n, batch):
            if batch > 1:
                mem.add_messages(rows[i - 500:i - 500 + batch])
            else:
                mem.add_message(f"scope-{i % 20}", "user" if i % 2 else "assistant", texts[i],
                                at=t0 + timedelta(seconds=i))
        cpu, wall, server_cpu = time.process_time() - c, time.perf_counter() - w, backend_cpu(pid) - b
        assert mem.store.db.execute("SELECT pg_backend_pid()").fetchone()[0] == pid
        mem.close()
        print(f"{label}{f' (batches of {batch})' if batch > 1 else ''}: client CPU {cpu / n * 1e6:.0f} us, server CPU {server_cpu / n * 1e6:.0f} us"
              f" a message, {n / wall:.0f} messages/s", flush=True)
