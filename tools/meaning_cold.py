"""The meaning tier's cold query: CPU per query at each ``retrieval.meaning_cold`` limit
(docs/retrieval.md, "Session 32: a bounded cold query for the meaning tier").

    .venv/bin/python tools/meaning_cold.py --data locomo_dev.json --questions 20 \
        --limits 0,4,8,16

Each LoCoMo conversation's database is built as the bench builds it (indexed, not
warmed); ``--questions`` questions of categories 1-4 are taken evenly from the
conversations. For each question the quick tier's search runs first (its CPU is the
reference, and it leaves the static embedder's query vector and SQLite's pages warm), then
the ``meaning`` preset's at each limit, every one truly cold: the transformer's rows of
the store's embedding cache are deleted, and its query-vector cache and pending queue
emptied, before it. CPU is ``time.process_time`` around ``Memory.search`` (every thread
of the process: ONNX Runtime's too), so a shared machine's load shows in wall time, not
here. Last, the scope is warmed (``MeaningTier.warm``, as the worker does) and each
question searched again with the preset (its query vector not cached): the floor under
every limit. Prints p50 / p95 / max CPU ms and the passages embedded per query for each
limit.
"""

from __future__ import annotations

import argparse
import dataclasses
import sqlite3
import statistics
import time
from typing import Any

from memlane.bench.datasets import load_locomo
from memlane.bench.locomo import _inputs
from memlane.bench.memrun import FreshMemory, Timings, as_utc, make_embedder
from memlane.config import load_config
from memlane.retrieve.meaning import shared_tier

SCOPE = "bench"


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(p * (len(xs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--questions", type=int, default=20)
    ap.add_argument("--limits", default="0,4,8,16")
    a = ap.parse_args()
    limits = [int(x) for x in a.limits.split(",")]
    base = load_config()
    configs = {n: dataclasses.replace(base, retrieval=dataclasses.replace(
        base.retrieval, meaning_cold=n)) for n in limits}
    r = base.retrieval
    tier = shared_tier(r.meaning_max_tokens, r.meaning_window)
    convs = load_locomo(a.data)
    per = -(-a.questions // len(convs))
    cpu: dict[Any, list[float]] = {"quick": [], **{n: [] for n in limits}, "warm": []}
    embedded: dict[int, list[int]] = {n: [] for n in limits}
    embedder = make_embedder(None)
    for conv in convs:
        qs = [qa for qa in conv.qa if qa.evidence and qa.category in (1, 2, 3, 4)]
        qs = qs[:: max(1, len(qs) // per)][:per]
        now = as_utc(max(s.date for s in conv.sessions))
        with FreshMemory(embedder, config=base) as fm:
            tm = Timings()
            fm.ingest(SCOPE, _inputs(conv, "user"), tm)
            fm.index(now, tm)
            for i, qa in enumerate(qs):
                t0 = time.process_time()
                fm.mem.search(qa.question, scope=SCOPE, k=10, now=now)
                cpu["quick"].append((time.process_time() - t0) * 1e3)
                for n in limits[i % len(limits):] + limits[: i % len(limits)]:  # rotated
                    with sqlite3.connect(fm.path) as db:
                        db.execute("DELETE FROM embed_cache WHERE model = ?", (tier.model,))
                    tier._lru.clear()
                    tier._pending.pop(fm.mem.store, None)
                    fm.mem.config = configs[n]
                    before = tier.computed
                    t0 = time.process_time()
                    fm.mem.search(qa.question, scope=SCOPE, k=10, now=now, preset="meaning")
                    cpu[n].append((time.process_time() - t0) * 1e3)
                    embedded[n].append(tier.computed - before)
                fm.mem.config = base
            fm.warm(SCOPE, tm)  # the worker caught up: the floor under every limit
            for qa in qs:
                tier._lru.clear()
                t0 = time.process_time()
                fm.mem.search(qa.question, scope=SCOPE, k=10, now=now, preset="meaning")
                cpu["warm"].append((time.process_time() - t0) * 1e3)
        print(f"{len(cpu['quick'])} questions", flush=True)
    for name, xs in cpu.items():
        extra = (f", passages embedded p50 {statistics.median(embedded[name]):.0f} "
                 f"max {max(embedded[name])}" if name in embedded else "")
        label = {"quick": "quick tier", "warm": "meaning, warm"}.get(name, f"meaning_cold={name}")
        print(f"{label:<18} n={len(xs)} CPU ms p50 {statistics.median(xs):.0f} "
              f"p95 {_pct(xs, 0.95):.0f} max {max(xs):.0f}{extra}")


if __name__ == "__main__":
    main()
