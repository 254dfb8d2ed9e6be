"""Train the offline backend's learned facts reader (``src/memlane/index/sentmodel_facts.npz``).

Session 49 (docs/summary-eval.md, "facts, the learned reader shipped"). Each sentence the dense
sentence model reads (:func:`memlane.index.sentmodel.candidates`) of every conversation of
``dense.SETS`` is one row: its static vector and :func:`memlane.index.factmodel.fact_names`;
it is positive when its content tokens match a labelled fact's object at the matching rule's
Dice ≥ 0.5. A class-balanced logistic regression (scikit-learn, the ``train`` extra) on
standardised inputs, C 0.003 (``dense.FIT``'s). The threshold is chosen by 5-fold
leave-conversations-out cross-validation (``dense.folds``) on the training sets, scoring the
facts field as the summarizer writes it: today's facts plus the sentences over the threshold
that none covers (:meth:`memlane.index.offline.OfflineIntelligence._with_stated`'s rule).

    PYTHONPATH=src python tools/train_facts_model.py --out src/memlane/index/sentmodel_facts.npz
    PYTHONPATH=src python tools/train_facts_model.py --out /tmp/x.npz --measure heldout13,heldout14

``--measure SETS``: also print the facts right / written / labelled (F1) of those sets (never
trained on) for today's facts and with the reader, at the chosen threshold, both as the
summarizer writes them and (``sentences``) the reader's sentences alone.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from memlane.bench.summaries import dense
from memlane.bench.summaries.run import load_set, messages_of
from memlane.bench.summaries.score import dice, match
from memlane.bench.summaries.score import tokens as score_tokens
from memlane.bench.summaries.train import _turns
from memlane.index import factmodel, sentmodel
from memlane.index.cues import _content, is_courtesy, read_cues
from memlane.index.offline import OfflineIntelligence, _sentences, _trim

GRID = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)


def prepare(names: list[str]) -> list[dict[str, Any]]:
    today = OfflineIntelligence()
    today.facts_model = None  # the readers' facts alone
    model = sentmodel.shipped()
    emb = sentmodel.default_embedder()
    out = []
    for name in names:
        t0 = time.time()
        for conv in load_set(name):
            msgs = messages_of(conv)
            _, ex = today.summarize(conv.id, msgs)
            turns = _turns(conv)
            placed = dict(read_cues([(t.who, t.role, t.sentences) for t in turns], model).placed)
            where = sentmodel.candidates(turns)
            names_ = factmodel.fact_names(turns, where, placed)
            texts = [turns[ti].sentences[si] for ti, si in where]
            vecs = emb.embed_batch(texts) if texts else np.zeros((0, emb.dim), np.float32)
            gold = [str(f.get("object", "")) for f in conv.expected.get("facts", [])]
            gtok = [score_tokens(g) for g in gold]
            label = np.array([max((dice(score_tokens(t), g) for g in gtok), default=0.0) >= 0.5 for t in texts])
            # the message each turn is (as the summarizer's turns: messages with a sentence)
            firsts = [m for m in msgs if _sentences(m.text)]
            small = [is_courtesy(t) or len(_content(t)) < 2 for t in texts]
            out.append(dict(set=name, gold=gold, where=where, names=names_, vecs=vecs.astype(np.float32),
                            label=label, small=small, texts=texts,
                            seqs=[firsts[ti].seq for ti, _ in where],
                            facts=[(f.object, f.seq, f.text) for f in ex.facts]))
        print(f"{name}: {sum(1 for d in out if d['set'] == name)} conversations, {time.time() - t0:.0f}s", flush=True)
    return out


def design(ds: list[dict[str, Any]], vocab: list[str]) -> np.ndarray:
    idx = {n: i for i, n in enumerate(vocab)}
    rows = []
    for d in ds:
        oh = np.zeros((len(d["where"]), len(vocab)), np.float32)
        for r, row in enumerate(d["names"]):
            for n in row:
                j = idx.get(n)
                if j is not None:
                    oh[r, j] = 1
        rows.append(np.hstack([d["vecs"], oh]) if len(d["where"]) else np.zeros((0, d["vecs"].shape[1] + len(vocab))))
    return np.vstack(rows)


def fit(ds: list[dict[str, Any]], c: float) -> factmodel.FactsHead:
    from collections import Counter

    from sklearn.linear_model import LogisticRegression

    cnt = Counter(n for d in ds for row in d["names"] for n in set(row))
    vocab = sorted(n for n, k in cnt.items() if k >= dense.MIN_COUNT)
    x = design(ds, vocab)
    y = np.concatenate([d["label"] for d in ds])
    mu, sd = x.mean(0), x.std(0)
    sd[sd < 1e-6] = 1
    clf = LogisticRegression(C=c, max_iter=3000, class_weight="balanced").fit((x - mu) / sd, y)
    dim = ds[0]["vecs"].shape[1]
    arrays = {"mean": mu.astype(np.float32), "scale": sd.astype(np.float32),
              "w": clf.coef_[0].astype(np.float32), "b": np.array([clf.intercept_[0]], np.float32)}
    return factmodel.FactsHead(vocab, arrays, {"dim": dim, "c": c, "vectors": "static", "threshold": 0.6})


def probs(head: factmodel.FactsHead, d: dict[str, Any]) -> np.ndarray:
    if not d["where"]:
        return np.zeros(0)
    return head.probabilities_of(head.inputs(d["vecs"], d["names"]))


def written(d: dict[str, Any], p: np.ndarray, t: float, mode: str = "add") -> list[str]:
    """The facts field's objects: today's plus the reader's (``add``), or the reader's alone."""
    objs = [o for o, _, _ in d["facts"]] if mode == "add" else []
    toks = [factmodel.tokens(o) for o in objs]
    said = {(s, x) for _, s, x in d["facts"]} if mode == "add" else set()
    for i, q in enumerate(p):
        if q < t or d["small"][i]:
            continue
        s = d["texts"][i]
        key = (d["seqs"][i], _trim(s, 200))
        own = factmodel.tokens(s)
        if key in said or factmodel.covered(own, toks):
            continue
        objs.append(_trim(s.rstrip("."), 220))
        toks.append(own)
        said.add(key)
    return objs


def score(ds: list[dict[str, Any]], ps: list[np.ndarray] | None, t: float, mode: str = "add") -> tuple[int, int, int, float]:
    tp = pr = ex = 0
    for i, d in enumerate(ds):
        o = [x for x, _, _ in d["facts"]] if ps is None else written(d, ps[i], t, mode)
        tp += len(match(o, d["gold"]))
        pr += len(o)
        ex += len(d["gold"])
    return tp, pr, ex, (2 * tp / (pr + ex) if pr + ex else 0.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--c", type=float, default=float(dense.FIT["c"]))
    ap.add_argument("--measure", default="", help="comma-separated untrained sets to score")
    a = ap.parse_args()
    tr = prepare(list(dense.SETS))
    print(f"train: {len(tr)} conversations, {sum(len(d['where']) for d in tr)} sentences, "
          f"{sum(int(d['label'].sum()) for d in tr)} positive", flush=True)
    cvp: list[np.ndarray] = [np.zeros(0)] * len(tr)
    for held in dense.folds(len(tr), 5):
        hs = set(held)
        head = fit([d for i, d in enumerate(tr) if i not in hs], a.c)
        for i in held:
            cvp[i] = probs(head, tr[i])
    base = score(tr, None, 0)
    print(f"CV today {base[0]}/{base[1]}/{base[2]} F1 {base[3]:.3f}")
    rows = [(t, score(tr, cvp, t)) for t in GRID]
    for t, s in rows:
        print(f"CV add @{t}: {s[0]}/{s[1]}/{s[2]} F1 {s[3]:.3f}")
    best = max(rows, key=lambda r: r[1][3])[0]
    head = fit(tr, a.c)
    head.meta.update(threshold=best, trained_on=len(tr), sets=list(dense.SETS))
    head.threshold = best
    head.save(a.out)
    print(f"threshold {best}; {len(head.vocab)} names; wrote {a.out}")
    if a.measure:
        ev = prepare(a.measure.split(","))
        tot = {k: [0, 0, 0] for k in ("today", "add", "sentences")}
        for name in a.measure.split(","):
            ds = [d for d in ev if d["set"] == name]
            ps = [probs(head, d) for d in ds]
            cells = []
            for k, s in (("today", score(ds, None, 0)), ("add", score(ds, ps, best)),
                         ("sentences", score(ds, ps, best, "alone"))):
                for j in range(3):
                    tot[k][j] += s[j]
                cells.append(f"{k} {s[0]}/{s[1]} ({s[3]:.3f})")
            print(f"{name} labels {ds and sum(len(d['gold']) for d in ds)}: " + ", ".join(cells))
        print("all: " + ", ".join(f"{k} {v[0]}/{v[1]}/{v[2]} ({2 * v[0] / (v[1] + v[2]):.3f})" for k, v in tot.items()))


if __name__ == "__main__":
    main()
