"""Several worker processes backfilling the meaning tier on one PostgreSQL database: how many
vectors each computes (docs/retrieval.md, "Session 34: the meaning backfill walks once").

    PYTHONPATH=src .venv/bin/python tools/meaning_backfill_workers.py \
        --data locomo_dev.json --conversations 1 --workers 2 --limit 8

A private PostgreSQL (``memlane.testing.postgres``) holds LoCoMo conversations built as the
bench builds them (indexed, the tier off: nothing warmed). Then ``--workers`` processes, each
a ``Memory`` with ``retrieval.meaning`` on and ``retrieval.meaning_backfill = --limit``, start
together and run worker rounds (``Memory.work_once``, nothing to index: each round is the
backfill's) back to back (10 ms apart after one that computed nothing) until ``--idle``
seconds pass without one computing anything. Each prints the
vectors its tier computed (``MeaningTier.computed``: texts sent to the transformer, not rows
written), its rounds and its CPU (``time.process_time``); the tool prints them, their sum and
the transformer's rows in ``embed_cache`` (each vector is written once whoever computes it).
It uses only what session 33's code has too, so the same file measures before and after
(run it with ``PYTHONPATH`` on either tree).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

WORKER = """
import json, statistics, sys, time
from pathlib import Path
from memlane import Memory
from memlane.bench.memrun import make_embedder
from memlane.config import load_config
from memlane.retrieve.meaning import shared_tier
url, go, limit, idle_s = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
config = load_config(overrides={"db": url, "retrieval": {"meaning": True,
                                                         "meaning_backfill": limit}})
m = Memory(url, config=config, embedder=make_embedder(None))
tier = shared_tier(config.retrieval.meaning_max_tokens, config.retrieval.meaning_window)
tier.query_vector("the model loaded before the start")
start = tier.computed
print("ready", flush=True)
while not go.exists():
    time.sleep(0.005)
cpu0, last, rounds, busy, quiet = time.process_time(), time.monotonic(), 0, [], []
while time.monotonic() - last < idle_s:
    before, t0 = tier.computed, time.process_time()
    m.work_once()
    spent = (time.process_time() - t0) * 1e3
    rounds += 1
    if tier.computed > before:
        last, _ = time.monotonic(), busy.append(spent)
    else:
        quiet.append(spent)
        time.sleep(0.01)
print(json.dumps({"computed": tier.computed - start, "rounds": rounds,
                  "computing_rounds": len(busy), "cpu_s": time.process_time() - cpu0,
                  "round_ms_p50": statistics.median(busy) if busy else 0.0,
                  "idle_round_ms_p50": statistics.median(quiet) if quiet else 0.0}), flush=True)
m.close()
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--conversations", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=int, default=8)
    ap.add_argument("--idle", type=float, default=10.0,
                    help="seconds without a round computing anything before a worker stops")
    a = ap.parse_args()

    from memlane.bench.datasets import load_locomo
    from memlane.bench.locomo import _inputs
    from memlane.bench.memrun import FreshMemory, Timings, as_utc, make_embedder
    from memlane.config import load_config
    from memlane.retrieve.meaning import shared_tier
    from memlane.testing.postgres import create_database, postgres_server

    with postgres_server() as server, tempfile.TemporaryDirectory() as tmp:
        url = create_database(server, "backfill")
        base = load_config(overrides={"db": url})
        embedder = make_embedder(None)
        for conv in load_locomo(a.data)[: a.conversations]:
            fm = FreshMemory(embedder, config=base)
            tm = Timings()
            fm.ingest("bench", _inputs(conv, "user"), tm)
            fm.index(as_utc(max(s.date for s in conv.sessions)), tm)
            fm.close()
            print(f"conversation {conv.sample_id} indexed", flush=True)
        go = Path(tmp) / "go"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        procs = [subprocess.Popen([sys.executable, "-c", WORKER, url, str(go), str(a.limit),
                                   str(a.idle)], stdout=subprocess.PIPE, text=True, env=env)
                 for _ in range(a.workers)]
        for p in procs:
            assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        go.touch()
        got = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
        import psycopg

        model = shared_tier(base.retrieval.meaning_max_tokens, base.retrieval.meaning_window).model
        with psycopg.connect(url) as db:
            rows = db.execute("SELECT count(*) FROM embed_cache WHERE model = %s",
                              (model,)).fetchone()[0]
    for i, g in enumerate(got):
        print(f"worker {i}: computed {g['computed']} in {g['computing_rounds']} of "
              f"{g['rounds']} rounds; CPU {g['cpu_s']:.1f} s (a computing round p50 "
              f"{g['round_ms_p50']:.0f} ms, an idle one {g['idle_round_ms_p50']:.1f} ms)")
    print(f"computed by all: {sum(g['computed'] for g in got)}; vectors in embed_cache: {rows}")


if __name__ == "__main__":
    main()
