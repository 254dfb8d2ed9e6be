"""A learned final order over the quick tier's own signals (docs/retrieval.md, session 16).

    .venv/bin/python tools/ltr_probe.py collect locomo --data locomo_dev.json \
        --out ltr_locomo.pkl [--vectors locomo_vectors.npz]
    .venv/bin/python tools/ltr_probe.py collect longmemeval --data longmemeval_s_dev.json.xz \
        --out ltr_lme.pkl
    .venv/bin/python tools/ltr_probe.py cv --locomo ltr_locomo.pkl [--lme ltr_lme.pkl] \
        [--depth 100] [--no-meaning]

``collect`` builds each database as the benches do and searches every question once with
``explain`` (the configured, quick tier; 100 hits), keeping each hit's ranks and signals
(``Hit.scores``), its session and place in it, and the question's shape (gathering, named
things, doing, when, newest, advice). With ``--vectors`` (``tools/meaning_vectors.py``) it
also keeps the transformer's cosine of each turn to the question, with and without the
speakers' names. ``cv`` (needs the ``train`` extra: scikit-learn) fits a gradient-boosted
classifier of "is an evidence turn" on those features (the hit's signals, its two
neighbours on each side, the question's shape) and re-orders each question's first
``--depth`` turns by it, cross-validated: LoCoMo leaves one conversation out, LongMemEval's
questions fall in five folds by id (with ``--lme`` both are trained together, fold i being
LoCoMo's i-th conversation and LongMemEval's i-th fifth). It prints R_any@10 / R_all@10 per
LoCoMo category and conversation and LongMemEval's session R_all@5 / nDCG@5 and turn
R_all@10, before and after.
"""

from __future__ import annotations

import argparse
import math
import pickle
import re
import statistics
import sys
import zlib
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from meaning_probe import SCOPE, _cases  # noqa: E402

RANKS = ("rank", "session_rank", "candidate_rank", "turn_rank", "lexical_rank", "vector_rank",
         "feedback_rank")
VALUES = ("score", "relevance", "session", "bm25", "cosine", "recency", "overlap", "rrf",
          "lexical", "vector", "reaction", "other_speaker", "time", "newest", "coverage", "graph",
          "confidence", "newest_place", "kind")
SHAPES = ("gathers", "named", "doing", "when", "newest", "advice")


def collect(dataset: str, data: str, out: str, vectors: str | None, limit: int | None) -> None:
    from memlane.bench.memrun import FreshMemory, Timings, make_embedder
    from memlane.config import load_config
    from memlane.retrieve.advice import asks_advice
    from memlane.retrieve.answerform import asks_doing, asks_named
    from memlane.retrieve.gather import gathers
    from memlane.retrieve.newest import asks_newest
    from memlane.retrieve.search import question_terms
    from memlane.retrieve.speaker import speakers_of
    from memlane.retrieve.timeparse import asks_when

    cfg = load_config()
    embedder = make_embedder(None)
    tier = None
    if vectors:
        from memlane.retrieve.meaning import load_vectors, shared_tier

        tier = shared_tier(cfg.retrieval.meaning_max_tokens, cfg.retrieval.meaning_window)
        tier.seed = load_vectors(vectors)
    rows: list[dict[str, Any]] = []
    for db, (now, inputs, qs) in enumerate(_cases(dataset, data, limit)):
        with FreshMemory(embedder, config=cfg) as fm:
            tm = Timings()
            key = fm.ingest(SCOPE, inputs, tm)
            fm.index(now, tm)
            for qid, group, q, evidence in qs:
                hits = fm.mem.search(q, scope=SCOPE, k=100, now=now, explain=True)
                turns = [h.item for h in hits if h.item.kind == "turn"]
                mc: dict[int, float] = {}
                mc_bare: dict[int, float] = {}
                if tier is not None:
                    terms = question_terms(q)
                    mc = tier.cosines(fm.mem.store, q, turns, terms)
                    bare = q
                    for name in speakers_of(turns):
                        bare = re.sub(rf"\b{re.escape(name)}('s)?\b", "", bare)
                    mc_bare = tier.cosines(fm.mem.store, bare, turns, terms) if bare != q else mc
                rows.append({
                    "id": qid, "group": group, "db": str(qid).split(":")[0] if dataset == "locomo"
                    else db, "evidence": list(evidence),
                    "shape": {"gathers": gathers(q), "named": asks_named(q), "doing": asks_doing(q),
                              "when": asks_when(q), "newest": asks_newest(q),
                              "advice": asks_advice(q), "words": len(q.split())},
                    "hits": [{
                        "ext": key.get((h.item.session_id, h.item.seq))
                        if h.item.kind == "turn" else None,
                        "session": h.item.session_id, "seq": h.item.seq,
                        "words": len(h.item.text.split()),
                        "scores": {k: v for k, v in h.scores.items() if not k.startswith("contrib.")},
                        "mc": mc.get(h.item.id), "mc_bare": mc_bare.get(h.item.id),
                    } for h in hits],
                })
        print(f"{len(rows)} questions", file=sys.stderr, flush=True)
    Path(out).write_bytes(pickle.dumps(rows))


def _turns(row: dict[str, Any], depth: int) -> list[dict[str, Any]]:
    """The question's first ``depth`` distinct turns, in memlane's order."""
    out, seen = [], set()
    for h in row["hits"]:
        if h["ext"] and h["ext"] not in seen:
            seen.add(h["ext"])
            out.append(h)
    return out[:depth]


def features(row: dict[str, Any], turns: list[dict[str, Any]]) -> np.ndarray:
    near = {(h["session"], h["seq"]): h for h in row["hits"] if h["ext"]}
    shape = [float(row["shape"][k]) for k in SHAPES] + [row["shape"]["words"] / 10]
    out = []
    for i, h in enumerate(turns):
        s = h["scores"]
        f = [1 / (5 + i), math.log1p(i)]
        f += [1 / (10 + s.get(k, 1000)) for k in RANKS]
        f += [float(s.get(k, 0.0)) for k in VALUES]
        f += [float(k in s) for k in ("vector_rank", "lexical_rank", "feedback_rank")]
        f += [math.log1p(h["words"]), h["mc"] or 0.0, h["mc_bare"] or 0.0, float(h["mc"] is None)]
        for d in (-2, -1, 1, 2):
            n = near.get((h["session"], (h["seq"] or 0) + d))
            f += [n["scores"].get("relevance", 0.0) if n else 0.0, (n["mc"] or 0.0) if n else 0.0]
        out.append(f + shape)
    return np.array(out)


def _order(row: dict[str, Any], depth: int, model: Any) -> list[str]:
    turns = _turns(row, depth)
    if model is not None and turns:
        p = model.predict_proba(features(row, turns))[:, 1]
        turns = [turns[i] for i in np.argsort(-p, kind="stable")]
    rest = [h["ext"] for h in _turns(row, 10**6)[len(turns):]]
    return [h["ext"] for h in turns] + rest


def _lme_scores(ranking: list[str], evidence: list[str]) -> dict[str, float]:
    def session(t: str) -> str:
        return t.rsplit("_", 1)[0]

    sessions: list[str] = []
    for t in ranking:
        if session(t) not in sessions:
            sessions.append(session(t))
    gold = {session(t) for t in evidence}
    dcg = sum(1 / (1 if i < 2 else math.log2(i + 1)) for i, s in enumerate(sessions[:5]) if s in gold)
    ideal = sum(1 / (1 if i < 2 else math.log2(i + 1)) for i in range(min(5, len(gold))))
    return {"S R_all@5": float(gold <= set(sessions[:5])), "S nDCG@5": dcg / ideal,
            "T R_all@10": float(set(evidence) <= set(ranking[:10]))}


def cv(locomo: str, lme: str | None, depth: int, meaning: bool) -> None:
    from sklearn.ensemble import HistGradientBoostingClassifier

    loc = [r for r in pickle.loads(Path(locomo).read_bytes()) if r["group"] != 5]
    other = pickle.loads(Path(lme).read_bytes()) if lme else []
    for r in other:
        r["lme"] = True
    if not meaning:
        for r in loc + other:
            for h in r["hits"]:
                h["mc"] = h["mc_bare"] = None
    convs = sorted({r["db"] for r in loc})

    def fold(r: dict[str, Any]) -> int:
        return zlib.crc32(str(r["id"]).encode()) % 5 if r.get("lme") else convs.index(r["db"])

    per: dict[Any, list[tuple[float, ...]]] = defaultdict(list)
    lme_rows: dict[str, list[float]] = defaultdict(list)
    for f in range(len(convs)):
        train = [(r, t) for r in loc + other if fold(r) != f and (t := _turns(r, depth))]
        X = np.vstack([features(r, t) for r, t in train])
        y = np.array([int(h["ext"] in set(r["evidence"])) for r, t in train for h in t])
        model = HistGradientBoostingClassifier(
            max_iter=150, learning_rate=0.05, max_leaf_nodes=15, min_samples_leaf=40,
            l2_regularization=1.0, early_stopping=False, random_state=0).fit(X, y)
        for r in (r for r in loc + other if fold(r) == f):
            before, after = _order(r, depth, None), _order(r, depth, model)
            if r.get("lme"):
                for name, v in _lme_scores(before, r["evidence"]).items():
                    lme_rows[f"{name} before"].append(v)
                for name, v in _lme_scores(after, r["evidence"]).items():
                    lme_rows[f"{name} after"].append(v)
                continue
            ev = set(r["evidence"])
            cells = tuple(float(fn(e in set(o[:10]) for e in ev)) for o in (before, after)
                          for fn in (any, all))
            for g in (f"category {r['group']}", r["db"], "categories 1-4"):
                per[g].append(cells)
    for g, cells in sorted(per.items()):
        m = [statistics.mean(c[i] for c in cells) for i in range(4)]
        print(f"{g:16s} n={len(cells):4d}  before {m[0]:.3f} / {m[1]:.3f}  after {m[2]:.3f} / {m[3]:.3f}")
    for name, v in sorted(lme_rows.items()):
        print(f"LongMemEval {name:20s} {statistics.mean(v):.3f} (n={len(v)})")


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("dataset", choices=["longmemeval", "locomo"])
    c.add_argument("--data", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--vectors")
    c.add_argument("--limit", type=int)
    v = sub.add_parser("cv")
    v.add_argument("--locomo", required=True)
    v.add_argument("--lme")
    v.add_argument("--depth", type=int, default=100)
    v.add_argument("--no-meaning", action="store_true")
    a = ap.parse_args()
    if a.cmd == "collect":
        collect(a.dataset, a.data, a.out, a.vectors, a.limit)
    else:
        cv(a.locomo, a.lme, a.depth, not a.no_meaning)


if __name__ == "__main__":
    main()
