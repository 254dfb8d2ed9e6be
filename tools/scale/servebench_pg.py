# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""Run memlane bench serve on a fresh PostgreSQL database (test server, fsync off).

    python tools/scale/servebench_pg.py [--mix search] [--workers 2] [--seconds 15]

Every option is passed to ``run_serve_bench``; the result prints as one JSON line.
"""
import argparse, json, uuid
from memlane.bench.serve import parse_mix, run_serve_bench
from memlane.testing.postgres import create_database, postgres_server

ap = argparse.ArgumentParser()
ap.add_argument("--mix", default="search=0.6,pack=0.2,add=0.2")
ap.add_argument("--workers", type=int, default=1)
ap.add_argument("--seconds", type=float, default=15.0)
ap.add_argument("--clients", type=int, default=8)
args = ap.parse_args()
with postgres_server() as url:
    db = create_database(url, f"serve_{uuid.uuid4().hex[:8]}")
    r = run_serve_bench(clients=args.clients, seconds=args.seconds, workers=args.workers,
                        db=db, mix=parse_mix(args.mix))
    print(json.dumps(r), flush=True)
