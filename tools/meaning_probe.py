"""How much evidence the transformer's own list could bring (docs/retrieval.md, session 15).

    .venv/bin/python tools/meaning_probe.py locomo --data locomo_dev.json \
        --vectors locomo_vectors.npz --out probe_locomo.json
    .venv/bin/python tools/meaning_probe.py longmemeval --data longmemeval_s_dev.json.xz \
        --vectors lme_vectors.npz --out probe_lme.json

Each database is built as the bench builds it and warmed (``MeaningTier.warm``, the
vectors read from ``--vectors``: see ``tools/meaning_vectors.py``). Every question is
searched with the configured (quick) tier and the ``meaning`` preset, 100 hits each, and
the transformer ranks the scope's turns by exact cosine (``MeaningTier.search``). For
each question it records whether any (``any``) and every (``all``) evidence turn is in
the quick tier's first N, in the meaning preset's first N, in the transformer's first M,
and in the union of the quick tier's first N with the transformer's first M: the ceiling
a third list could raise.

    .venv/bin/python tools/meaning_probe.py grid locomo --data locomo_dev.json \
        --vectors locomo_vectors.npz m0= l50w2=meaning_list:50,meaning_list_weight:0.2

``grid`` searches every variant (``NAME=KEY:VALUE,...`` over ``retrieval`` keys, the
meaning tier on) on the same warm databases and prints R_any@10 / R_all@10 overall
(categories 1-4), per category and per conversation.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from memlane.bench.memrun import FreshMemory, SessionInput, Timings, TurnInput, make_embedder
from memlane.bench.metrics import dedupe
from memlane.config import load_config
from memlane.retrieve.meaning import load_vectors, shared_tier
from memlane.retrieve.search import question_terms
from memlane.store.filters import Filters

NS = (10, 30, 50, 100)
MS = (10, 20, 30, 50, 100)
SCOPE = "bench"


def _cases(dataset: str, path: str, limit: int | None):
    """(now, inputs, [(id, group, question, evidence)]) per database."""
    from memlane.bench.memrun import as_utc

    if dataset == "locomo":
        from memlane.bench.datasets import load_locomo
        from memlane.bench.locomo import _inputs

        for conv in load_locomo(path)[:limit]:
            qs = [(qa.qa_id, qa.category, qa.question, list(qa.evidence)) for qa in conv.qa
                  if qa.evidence]
            yield as_utc(max(s.date for s in conv.sessions)), _inputs(conv, "user"), qs
    else:
        from memlane.bench.datasets import load_longmemeval
        from memlane.bench.longmemeval import question_now

        for q in load_longmemeval(path)[:limit]:
            if not q.evaluable:
                continue
            ordered = sorted(q.sessions, key=lambda s: s.date)
            yield as_utc(question_now(q)), [
                SessionInput(s.date, [TurnInput(t.id, t.role, t.content) for t in s.turns])
                for s in ordered], [(q.question_id, q.question_type, q.question,
                                     list(q.gold_turn_ids))]


def _hit(ranking: list[str], evidence: list[str]) -> tuple[bool, bool]:
    got = set(ranking)
    return any(e in got for e in evidence), all(e in got for e in evidence)


def probe(dataset: str, data: str, vectors: str, limit: int | None) -> list[dict[str, Any]]:
    cfg = load_config()
    tier = shared_tier(cfg.retrieval.meaning_max_tokens, cfg.retrieval.meaning_window)
    tier.seed = load_vectors(vectors)
    embedder = make_embedder(None)
    rows = []
    for now, inputs, qs in _cases(dataset, data, limit):
        with FreshMemory(embedder, config=cfg) as fm:
            tm = Timings()
            key = fm.ingest(SCOPE, inputs, tm)
            fm.index(now, tm)
            store = fm.mem.store
            tier.warm(store, [s.id for s in store.list_sessions(limit=100000)])
            for qid, group, question, evidence in qs:
                quick = dedupe(fm.search(question, SCOPE, 100, now, key, tm))
                meaning = dedupe(fm.search(question, SCOPE, 100, now, key, tm, preset="meaning"))
                found = tier.search(store, question, Filters(scope=fm.scope_of(SCOPE)), 100,
                                    question_terms(question))
                items = store.get_items([i for i, _ in found])
                mini = dedupe([e for i, _ in found if (it := items.get(i)) is not None
                               and (e := key.get((it.session_id, it.seq))) is not None])
                row: dict[str, Any] = {"id": qid, "group": group, "q": question}
                for n in NS:
                    row[f"quick@{n}"] = _hit(quick[:n], evidence)
                    row[f"meaning@{n}"] = _hit(meaning[:n], evidence)
                for m in MS:
                    row[f"mini@{m}"] = _hit(mini[:m], evidence)
                    for n in NS:
                        row[f"quick@{n}+mini@{m}"] = _hit(quick[:n] + mini[:m], evidence)
                rows.append(row)
        print(f"{len(rows)} questions", file=sys.stderr, flush=True)
    return rows


def report(rows: list[dict[str, Any]], groups: list[Any] | None = None) -> None:
    cols = [c for c in rows[0] if "@" in c]
    sel = rows if groups is None else [r for r in rows if r["group"] in groups]

    def rate(c: str, i: int) -> float:
        return statistics.mean(float(r[c][i]) for r in sel)

    print(f"n = {len(sel)}")
    for c in cols:
        print(f"{c:24s} any {rate(c, 0):.3f}  all {rate(c, 1):.3f}")


def main() -> None:
    if sys.argv[1:2] == ["grid"]:
        g = argparse.ArgumentParser()
        g.add_argument("grid")
        g.add_argument("dataset", choices=["longmemeval", "locomo"])
        g.add_argument("--data", required=True)
        g.add_argument("--vectors", required=True)
        g.add_argument("--limit", type=int)
        g.add_argument("--out")
        g.add_argument("variants", nargs="+")
        b = g.parse_args()
        res = grid(b.dataset, b.data, b.vectors, b.variants, b.limit)
        if b.out:
            Path(b.out).write_text(json.dumps(res))
        grid_report(res)
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("dataset", choices=["longmemeval", "locomo"])
    ap.add_argument("--data", required=True)
    ap.add_argument("--vectors", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--limit", type=int)
    a = ap.parse_args()
    out = Path(a.out)
    if out.exists():
        rows = json.loads(out.read_text())
    else:
        rows = probe(a.dataset, a.data, a.vectors, a.limit)
        out.write_text(json.dumps(rows))
    if a.dataset == "locomo":
        report(rows, [1, 2, 3, 4])
        by: dict[Any, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            by[r["group"]].append(r)
        for g in sorted(by):
            print(f"-- category {g}")
            report(by[g])
    else:
        report(rows)


def grid(dataset: str, data: str, vectors: str, variants: list[str], limit: int | None
         ) -> dict[str, list[tuple[Any, Any, float, float]]]:
    """Each variant (``name=KEY:VALUE,KEY:VALUE`` over ``retrieval`` keys, the meaning tier
    on) searched on the same warm databases: per question (id, group, any@10, all@10)."""
    import dataclasses

    from memlane.bench.metrics import recall_all, recall_any

    base = load_config()
    tier = shared_tier(base.retrieval.meaning_max_tokens, base.retrieval.meaning_window)
    tier.seed = load_vectors(vectors)
    configs = {}
    for v in variants:
        name, _, spec = v.partition("=")
        kv: dict[str, Any] = {"meaning": True}
        for part in filter(None, spec.split(",")):
            k, _, val = part.partition(":")
            kv[k] = type(getattr(base.retrieval, k))(val)
        configs[name] = dataclasses.replace(base, retrieval=dataclasses.replace(base.retrieval, **kv))
    embedder = make_embedder(None)
    out: dict[str, list[tuple[Any, Any, float, float]]] = {n: [] for n in configs}
    for now, inputs, qs in _cases(dataset, data, limit):
        with FreshMemory(embedder, config=base) as fm:
            tm = Timings()
            key = fm.ingest(SCOPE, inputs, tm)
            fm.index(now, tm)
            fm.warm(SCOPE, tm)
            for name, cfg in configs.items():
                fm.mem.config = cfg
                for qid, group, question, evidence in qs:
                    r = dedupe(fm.search(question, SCOPE, 10, now, key, tm))
                    out[name].append((qid, group, recall_any(r, evidence, 10),
                                      recall_all(r, evidence, 10)))
        print(f"{len(out[next(iter(out))])} questions", file=sys.stderr, flush=True)
    return out


def grid_report(out: dict[str, list[tuple[Any, Any, float, float]]]) -> None:
    for name, rows in out.items():
        main = [r for r in rows if r[1] != 5]
        def fmt(rs: list[Any]) -> str:
            return f"{statistics.mean(r[2] for r in rs):.3f}/{statistics.mean(r[3] for r in rs):.3f}"
        groups = sorted({r[1] for r in rows})
        convs = sorted({str(r[0]).rsplit(':', 1)[0] for r in main})
        print(f"{name:12s} all {fmt(main)} | " + " ".join(
            f"{g}:{fmt([r for r in rows if r[1] == g])}" for g in groups) + " | " + " ".join(
            fmt([r for r in main if str(r[0]).rsplit(':', 1)[0] == c]) for c in convs))


if __name__ == "__main__":
    from memlane.bench.datasets import DatasetError

    try:
        main()
    except DatasetError as exc:  # a data file it cannot read: one line, exit 1
        raise SystemExit(f"error: {exc}") from None
