"""The meaning tier's backfill: CPU per worker round at each ``retrieval.meaning_backfill``
(docs/retrieval.md, "Session 33: the meaning worker's backfill").

    .venv/bin/python tools/meaning_backfill.py --data locomo_dev.json --conversations 2 \
        --limits 8,16,32,64 --passages 256

Each LoCoMo conversation's database is built as the bench builds it (indexed, the tier
off: nothing warmed); then, with ``retrieval.meaning`` on, worker rounds
(``Memory.work_once``, with nothing to index: each round is the backfill's) run at each
limit until ``--passages`` passages are computed (the same passages at every limit: the
newest sessions'), the transformer's rows of the embedding cache deleted and the tier's
walk reset before each limit; the limits' order turns with each conversation. CPU is ``time.process_time`` around ``work_once`` (every thread of the
process, ONNX Runtime's too); wall time beside it. Last, rounds over a cache already full
(what a round costs once the walk has nothing left but the walk itself; the walk's rest
reset before each); then rounds as a restarted worker's after that walk (since session 34 the
walk's place and rest are kept in the store, so a new process finds the walk resting; session
33's walked from the top again, the "cache full" row). Prints p50 / max CPU ms, wall ms, and
passages computed per round.
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--conversations", type=int, default=2)
    ap.add_argument("--limits", default="8,16,32,64")
    ap.add_argument("--passages", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=5, help="rounds over a full cache")
    a = ap.parse_args()
    limits = [int(x) for x in a.limits.split(",")]
    base = load_config()
    r = base.retrieval
    tier = shared_tier(r.meaning_max_tokens, r.meaning_window)
    configs = {n: dataclasses.replace(base, retrieval=dataclasses.replace(
        r, meaning=True, meaning_backfill=n)) for n in limits}
    embedder = make_embedder(None)
    cpu: dict[Any, list[float]] = {n: [] for n in [*limits, "full", "restarted"]}
    wall: dict[Any, list[float]] = {n: [] for n in cpu}
    done: dict[Any, list[int]] = {n: [] for n in cpu}
    for c, conv in enumerate(load_locomo(a.data)[: a.conversations]):
        now = as_utc(max(s.date for s in conv.sessions))
        with FreshMemory(embedder, config=base) as fm:
            tm = Timings()
            fm.ingest(SCOPE, _inputs(conv, "user"), tm)
            fm.index(now, tm)
            fm.mem.work_once(now=now)  # anything left to index or summarize: not timed
            for n in limits[c % len(limits):] + limits[: c % len(limits)]:
                with sqlite3.connect(fm.path) as db:
                    db.execute("DELETE FROM embed_cache WHERE model = ?", (tier.model,))
                tier.reset_walk(fm.mem.store)
                fm.mem.config = configs[n]
                for _ in range(-(-a.passages // n)):
                    before = tier.computed
                    t0, w0 = time.process_time(), time.perf_counter()
                    fm.mem.work_once(now=now)
                    cpu[n].append((time.process_time() - t0) * 1e3)
                    wall[n].append((time.perf_counter() - w0) * 1e3)
                    done[n].append(tier.computed - before)
            tier.warm_all(fm.mem.store)  # every passage cached: the walk's own cost
            for label in ("full", "restarted"):
                for _ in range(a.rounds):
                    if label == "full":
                        tier.reset_walk(fm.mem.store)
                    before = tier.computed
                    t0, w0 = time.process_time(), time.perf_counter()
                    fm.mem.work_once(now=now)
                    cpu[label].append((time.process_time() - t0) * 1e3)
                    wall[label].append((time.perf_counter() - w0) * 1e3)
                    done[label].append(tier.computed - before)
            with sqlite3.connect(fm.path) as db:
                n = db.execute("SELECT count(*) FROM embed_cache WHERE model = ?",
                               (tier.model,)).fetchone()[0]
        print(f"conversation {conv.sample_id}: {n} passages", flush=True)
    for n in cpu:
        label = {"full": "cache full", "restarted": "restarted, resting"}.get(n, f"meaning_backfill={n}")
        per = [c / d for c, d in zip(cpu[n], done[n], strict=True) if d]
        print(f"{label:<20} rounds={len(cpu[n])} CPU ms p50 {statistics.median(cpu[n]):.0f} "
              f"max {max(cpu[n]):.0f}; wall ms p50 {statistics.median(wall[n]):.0f} "
              f"max {max(wall[n]):.0f}; passages a round p50 {statistics.median(done[n]):.0f}"
              + (f"; CPU ms a passage p50 {statistics.median(per):.1f}" if per else ""))


if __name__ == "__main__":
    main()
