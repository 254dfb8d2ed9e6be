"""The meaning tier's transformer vectors of a benchmark file, computed once into a file
(docs/retrieval.md, session 15).

    .venv/bin/python tools/meaning_vectors.py longmemeval --data longmemeval_s_dev.json.xz \
        --out lme_vectors.npz
    .venv/bin/python tools/meaning_vectors.py locomo --data locomo_dev.json --out locomo_vectors.npz

Each question's (conversation's) database is built as the bench builds it, then
``MeaningTier.warm`` computes every passage of its sessions' items, exactly as the index
worker does with ``retrieval.meaning_worker``. The vectors are keyed by the sha256 of the
text (the store's ``embed_cache`` key), so ``memlane bench ... --warm --vectors FILE``
finds them instead of computing them again: a warm LongMemEval run then costs what a
quick one costs, and the same vectors serve every variant measured. Texts already in the
file are not computed again (the file is rewritten every ``--save-every`` databases, so
an interrupted run resumes).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from memlane.bench.memrun import FreshMemory, SessionInput, Timings, TurnInput, make_embedder
from memlane.config import load_config
from memlane.retrieve.meaning import load_vectors, save_vectors, shared_tier


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dataset", choices=["longmemeval", "locomo"])
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--save-every", type=int, default=10)
    a = ap.parse_args()
    cfg = load_config()
    tier = shared_tier(cfg.retrieval.meaning_max_tokens, cfg.retrieval.meaning_window)
    out = Path(a.out)
    known = load_vectors(out) if out.exists() else {}
    tier.seed = known
    embedder = make_embedder(None)
    t0, c0 = time.perf_counter(), time.process_time()
    for n, (now, inputs) in enumerate(_databases(a.dataset, a.data, a.limit), start=1):
        with FreshMemory(embedder, config=cfg) as fm:
            fm.ingest("bench", inputs, Timings())
            fm.mem.index(now=now)
            sids = [s.id for s in fm.mem.store.list_sessions(limit=100000)]
            tier.warm(fm.mem.store, sids)
        if n % a.save_every == 0:
            save_vectors(out, known)
        print(f"{n} databases, {len(known)} vectors, {tier.computed} computed, "
              f"{time.perf_counter() - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU",
              file=sys.stderr, flush=True)
    save_vectors(out, known)


def _databases(dataset: str, path: str, limit: int | None):
    from memlane.bench.memrun import as_utc

    if dataset == "locomo":
        from memlane.bench.datasets import load_locomo
        from memlane.bench.locomo import _inputs

        for conv in load_locomo(path)[:limit]:
            yield as_utc(max(s.date for s in conv.sessions)), _inputs(conv, "user")
    else:
        from memlane.bench.datasets import load_longmemeval
        from memlane.bench.longmemeval import question_now

        for q in load_longmemeval(path)[:limit]:
            ordered = sorted(q.sessions, key=lambda s: s.date)
            yield as_utc(question_now(q)), [
                SessionInput(s.date, [TurnInput(t.id, t.role, t.content) for t in s.turns])
                for s in ordered]


if __name__ == "__main__":
    from memlane.bench.datasets import DatasetError

    try:
        main()
    except DatasetError as exc:  # a data file it cannot read: one line, exit 1
        raise SystemExit(f"error: {exc}") from None
