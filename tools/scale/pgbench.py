# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""Run memlane bench ingest on a fresh PostgreSQL database per size (test server, fsync off).

    python tools/scale/pgbench.py 10000,100000 [BATCH]

BATCH > 1 stores the messages with add_messages in batches of that size.
"""
import json, os, sys, uuid
from memlane.testing.postgres import create_database, postgres_server
from memlane.bench.ingest import run_ingest

sizes = [int(x) for x in sys.argv[1].split(",")]
batch = int(sys.argv[2]) if len(sys.argv) > 2 else 1
with postgres_server() as url:
    for n in sizes:
        dburl = create_database(url, f"bench_{n}_{uuid.uuid4().hex[:6]}")
        print(os.popen("uptime").read().strip(), flush=True)
        row = run_ingest(n, "static", db=dburl, batch=batch)
        print(json.dumps(row), flush=True)
        print(os.popen("uptime").read().strip(), flush=True)
