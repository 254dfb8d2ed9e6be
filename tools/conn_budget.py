"""The PostgreSQL connections one ``memlane serve`` process opens under load, by
``serve.db_connections`` (session 26; docs/scaling.md).

    PYTHONPATH=src python tools/conn_budget.py --budgets 0,8,16,32 --clients 64 --seconds 15 \
        [--max-connections 200] [--bench [--workers N]]

For each budget, a fresh database on a private server (``max_connections`` as given) filled
as ``memlane bench serve`` fills it (5,500 turns: past HNSW_ABOVE, so searches over every
scope use the search helpers), a ``memlane serve`` with its index worker (``--bench``:
``memlane bench serve`` itself, scoped actions and no worker) and ``--clients`` threads for
``--seconds``: scoped searches, searches over every scope, batched adds, packs and
``/v1/stats``, with four live streams open. ``pg_stat_activity`` is read every 50 ms: the
peak of the process's connections (``application_name`` memlane; with ``--workers``, of
all the service's processes), with requests/s and the
errors. One JSON line a budget.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg

from memlane.bench.serve import _Connection, _fill, _free_port, _wait_ready, run_serve_bench
from memlane.testing.postgres import create_database, postgres_server

SCOPES, PER_SCOPE = 50, 110


class Peak:
    """Samples the memlane connections of one database until stopped."""

    def __init__(self, url: str) -> None:
        self.url, self.peak, self.samples = url, 0, 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        with psycopg.connect(self.url, autocommit=True, application_name="sampler") as conn:
            while not self.stop.is_set():
                n = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname ="
                                 " current_database() AND application_name = 'memlane'"
                                 ).fetchone()[0]
                self.peak, self.samples = max(self.peak, int(n)), self.samples + 1
                self.stop.wait(0.05)

    def done(self) -> int:
        self.stop.set()
        self.thread.join(10)
        return self.peak


def mixed(url: str, key: str, words: list[str], clients: int, seconds: float) -> dict[str, Any]:
    counts = {"ok": 0, "errors": 0}
    first: list[str] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def client(n: int) -> None:
        rng = random.Random(n)
        http = _Connection(url, key)
        seq = 0
        try:
            while time.monotonic() < stop_at:
                kind = rng.choices(["scoped", "all", "add", "pack", "stats"],
                                   [0.4, 0.25, 0.15, 0.1, 0.1])[0]
                query = " ".join(rng.sample(words, 2))
                scope = f"bench-{rng.randrange(SCOPES)}"
                body: dict[str, Any] = {
                    "scoped": {"kind": "memory.search", "input": {"query": query, "scope": scope}},
                    "all": {"kind": "memory.search", "input": {"query": query}},
                    "pack": {"kind": "memory.pack", "input": {"query": query, "scope": scope}},
                    "stats": {"kind": "stats", "input": {}},
                    "add": {"kind": "memory.add", "input": {"messages": [
                        {"scope": f"load-{n}-{seq // 20}", "role": "user",
                         "text": f"{query} number {seq} {i}"} for i in range(10)]}},
                }[kind]
                seq += kind == "add"
                try:
                    status, text = http.post("/actions", body)
                except OSError as e:
                    status, text = 0, str(e)
                    http.close()
                with lock:
                    if status == 200:
                        counts["ok"] += 1
                    else:
                        counts["errors"] += 1
                        if len(first) < 3:
                            first.append(f"{kind}: {status} {text[:160]}")
        finally:
            http.close()

    def stream(n: int) -> None:
        try:
            with httpx.stream("GET", f"{url}/state/memory", params={"scope": f"bench-{n}"},
                              headers={"Authorization": f"Bearer {key}",
                                       "Accept": "text/event-stream"},
                              timeout=httpx.Timeout(10, read=seconds + 10)) as r:
                for _ in r.iter_bytes():
                    if time.monotonic() >= stop_at:
                        return
        except httpx.HTTPError:
            pass

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    threads += [threading.Thread(target=stream, args=(i,), daemon=True) for i in range(4)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 90)
    return {"requests_per_s": round(counts["ok"] / (time.monotonic() - t0), 1),
            "errors": counts["errors"], "first_errors": first}


def one(server: str, budget: int, args: argparse.Namespace, n: int) -> dict[str, Any]:
    db = create_database(server, f"budget_{n}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    env["MEMLANE_SERVE_DB_CONNECTIONS"] = str(budget)
    if args.bench:
        saved = dict(os.environ)
        os.environ.clear()
        os.environ.update(env)
        try:
            peak = Peak(db)
            got = run_serve_bench(clients=args.clients, seconds=args.seconds, db=db,
                                  mix=(("search", 0.6), ("pack", 0.2), ("add", 0.2)),
                                  workers=args.workers)
            top = peak.done()
        finally:
            os.environ.clear()
            os.environ.update(saved)
        return {"budget": budget, "peak_connections": top, "mode": "bench serve",
                "workers": args.workers,
                "requests_per_s": got["requests_per_s"], "errors": got["errors"],
                "first_errors": got["first_errors"][:2]}
    key, words = _fill(db, SCOPES, PER_SCOPE)
    port = _free_port()
    env["MEMLANE_SERVE_WORKER_POLL_SECONDS"] = "0.5"
    with tempfile.TemporaryDirectory() as tmp:
        log = open(Path(tmp) / "serve.log", "w+b")  # noqa: SIM115 - closed below
        proc = subprocess.Popen([sys.executable, "-m", "memlane", "serve", "--db", db, "--port",
                                 str(port)], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_ready(url, proc, timeout=120.0)
            peak = Peak(db)
            got = mixed(url, key, words, args.clients, args.seconds)
            top = peak.done()
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()
    return {"budget": budget, "peak_connections": top, "mode": "mixed, index worker on", **got}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budgets", default="0,8,16,32")
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--max-connections", type=int, default=200)
    ap.add_argument("--bench", action="store_true", help="memlane bench serve's load")
    ap.add_argument("--workers", type=int, default=1, help="with --bench: serve processes")
    args = ap.parse_args()
    with postgres_server({"max_connections": str(args.max_connections)}) as server:
        for n, budget in enumerate(int(b) for b in args.budgets.split(",")):
            print(json.dumps(one(server, budget, args, n)), flush=True)


if __name__ == "__main__":
    main()
