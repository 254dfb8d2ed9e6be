"""Per-question signals against the lists' fusion weights on LoCoMo (docs/retrieval.md,
thirteenth round).

    .venv/bin/python tools/fusion_probe.py --data locomo_dev.json --out probe.json

Each conversation is ingested and indexed once, then every question is searched with
the configured retrieval and with the lexical list's share of the fusion weight at 0
(the vector list alone), 0.3, 0.4, 0.5, 0.7, 0.8, 0.9 and 1 (the lexical list alone)
(``retrieval.fusion_lexical`` / ``fusion_vector``, their sum kept). For each question it
records recall_any@10 / recall_all@10 under each weight and, from the configured
search's two candidate lists, the signals a per-question weight could read:

- ``maxidf``: the rarest query word's IDF over the conversation's turns
  (``ln((N - df + 0.5) / (df + 0.5) + 1)``; a word no turn holds counts, ``maxidf_p``
  without those words; ``absent`` how many there are);
- ``cover``: the share of the query's words the lexical list's first item holds;
- ``overlap``: how many of the two lists' first 10 items are the same;
- ``vmargin``: the vector list's first cosine minus its 10th (``vtop`` the first);
- ``nterms``: how many search words the query has.

It then prints each weight's figures, the signals' medians for the questions main misses
that one list alone wins against those main gets right, each signal's AUC between the
questions a lexical-heavy and a vector-heavy weight win, and the best threshold rules
(one signal, one threshold, main's weight on one side), in-sample and chosen on four
conversations and scored on the fifth.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import re
import statistics
import time
from collections import Counter
from typing import Any

import memlane.retrieve.search as search_module
from memlane.bench.datasets import load_locomo
from memlane.bench.locomo import SCOPE, SEARCH_K, _inputs
from memlane.bench.memrun import FreshMemory, Timings, make_embedder
from memlane.bench.metrics import dedupe, recall_all, recall_any
from memlane.config import load_config

SHARES = {"vec": 0.0, "w3": 0.3, "w4": 0.4, "w5": 0.5, "w7": 0.7, "w8": 0.8, "w9": 0.9,
          "lex": 1.0}
SIGNALS = ("maxidf", "maxidf_p", "absent", "cover", "overlap", "vmargin", "vtop", "nterms")
WORD = re.compile(r"[a-z0-9']+")


def probe(data: str) -> list[dict[str, Any]]:
    captured: dict[str, Any] = {}
    original = search_module._candidates

    def capture(ctx: Any, t: Any) -> Any:
        out = original(ctx, t)
        captured.update(lex=list(ctx.lexical), vec=list(ctx.vector), terms=list(ctx.terms))
        return out

    search_module._candidates = capture
    base = load_config()
    total = base.retrieval.fusion_lexical + base.retrieval.fusion_vector
    configs = {"main": base} | {
        name: dataclasses.replace(base, retrieval=dataclasses.replace(
            base.retrieval, fusion_lexical=total * s, fusion_vector=total * (1 - s)))
        for name, s in SHARES.items()}
    cpu: dict[str, float] = dict.fromkeys(configs, 0.0)
    rows: list[dict[str, Any]] = []
    embedder = make_embedder(None)
    for conv in load_locomo(data):
        now = max(s.date for s in conv.sessions)
        with FreshMemory(embedder, config=base) as fm:
            tm = Timings()
            key = fm.ingest(SCOPE, _inputs(conv, "user"), tm)
            fm.index(now, tm)
            turns = [it for sid in {s for s, _ in key}
                     for it in fm.mem.store.session_items(sid, kind="turn")]
            df: Counter[str] = Counter()
            for it in turns:
                df.update(set(WORD.findall(it.text.lower())))
            n = len(turns)
            for qa in conv.qa:
                if not qa.evidence:
                    continue
                row: dict[str, Any] = {"id": qa.qa_id, "cat": qa.category, "q": qa.question}
                for name, cfg in configs.items():
                    fm.mem.config = cfg
                    c0 = time.process_time()
                    r = dedupe(fm.search(qa.question, SCOPE, SEARCH_K, now, key, tm))
                    cpu[name] += time.process_time() - c0
                    row[name] = (recall_any(r, qa.evidence, 10), recall_all(r, qa.evidence, 10))
                    if name == "main":
                        row.update(signals(fm, captured, df, n))
                rows.append(row)
    search_module._candidates = original
    print("search CPU s:", {k: round(v, 2) for k, v in cpu.items()})
    return rows


def signals(fm: FreshMemory, cap: dict[str, Any], df: Counter[str], n: int) -> dict[str, Any]:
    lex, vec = cap["lex"], cap["vec"]
    words = [w.lower() for w in cap["terms"]]

    def idf(w: str) -> float:
        return math.log((n - df[w] + 0.5) / (df[w] + 0.5) + 1)

    cover = 0.0
    if lex:
        top = fm.mem.store.get_items([lex[0][0]])
        held = set(WORD.findall(next(iter(top.values())).text.lower())) if top else set()
        cover = sum(w in held for w in words) / max(1, len(words))
    return {
        "maxidf": max(map(idf, words), default=0.0),
        "maxidf_p": max((idf(w) for w in words if df[w]), default=0.0),
        "absent": sum(1 for w in words if not df[w]),
        "cover": cover,
        "overlap": len({i for i, _ in lex[:10]} & {i for i, _ in vec[:10]}),
        "vmargin": vec[0][1] - vec[9][1] if len(vec) > 9 else 0.0,
        "vtop": vec[0][1] if vec else 0.0,
        "nterms": len(words),
    }


def report(rows: list[dict[str, Any]]) -> None:
    main4 = [r for r in rows if r["cat"] < 5]

    def mean(rs: list[dict[str, Any]], f: Any, i: int) -> float:
        return sum(r[f(r)][i] for r in rs) / len(rs)

    for name in ["main", *SHARES]:
        cats = [f"{mean([r for r in rows if r['cat'] == c], lambda r: name, 0):.3f}/"
                f"{mean([r for r in rows if r['cat'] == c], lambda r: name, 1):.3f}"
                for c in (1, 2, 3, 4, 5)]
        print(f"{name:5s} 1-4 {mean(main4, lambda r: name, 0):.3f}/"
              f"{mean(main4, lambda r: name, 1):.3f}  by category 1-5 {cats}")
    won = [r for r in rows if r["cat"] in (2, 3, 4) and not r["main"][0]
           and (r["lex"][0] or r["vec"][0])]
    right = [r for r in main4 if r["main"][0]]
    groups = {"won by the lexical list alone": [r for r in won if not r["vec"][0]],
              "won by the vector list alone": [r for r in won if not r["lex"][0]],
              "won by either list alone": [r for r in won if r["lex"][0] and r["vec"][0]],
              "main right, both lists alone right": [r for r in right if r["lex"][0] and r["vec"][0]],
              "main right, lexical alone wrong": [r for r in right if not r["lex"][0]],
              "main right, vector alone wrong": [r for r in right if not r["vec"][0]]}
    for label, rs in groups.items():
        meds = " ".join(f"{s}={statistics.median([r[s] for r in rs]):.3f}" for s in SIGNALS) if rs else ""
        print(f"{label:36s} n={len(rs):3d} {meds}")
    for scope, rs in (("1-4", main4), ("1-5", rows)):
        for a, b in (("w8", "w4"), ("lex", "vec")):
            pos = [r for r in rs if r[a][0] > r[b][0]]
            neg = [r for r in rs if r[b][0] > r[a][0]]
            aucs = " ".join(f"{s}={auc([r[s] for r in pos], [r[s] for r in neg]):.2f}" for s in SIGNALS)
            print(f"categories {scope}: {a} wins {len(pos)}, {b} wins {len(neg)}; AUC {aucs}")
        best = max(rules(rs), key=lambda ru: gain(ru, rs))
        print(f"categories {scope}: best rule in-sample {best}: "
              f"{gain(best, rs) / 2:+.1f} questions (mean of R_any and R_all gains)")
        convs = sorted({r["id"].split(":")[0] for r in rs})
        held = 0.0
        for c in convs:
            train = [r for r in rs if not r["id"].startswith(c + ":")]
            test = [r for r in rs if r["id"].startswith(c + ":")]
            ru = max(rules(train), key=lambda x: gain(x, train))
            held += gain(ru, test) / 2
        print(f"categories {scope}: chosen on 4 conversations, scored on the 5th: {held:+.1f}")


def auc(pos: list[float], neg: list[float]) -> float:
    if not pos or not neg:
        return float("nan")
    return sum((p > q) + 0.5 * (p == q) for p in pos for q in neg) / len(pos) / len(neg)


def rules(rs: list[dict[str, Any]]) -> Any:
    names = ["w3", "w4", "w5", "main", "w7", "w8", "w9"]
    for s in SIGNALS:
        vals = sorted({r[s] for r in rs})
        for q in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
            for hi, lo in itertools.permutations(names, 2):
                if "main" in (hi, lo):
                    yield s, vals[int(len(vals) * q)], hi, lo


def gain(rule: tuple[str, float, str, str], rs: list[dict[str, Any]]) -> float:
    s, thr, hi, lo = rule
    return sum(sum(r[hi if r[s] > thr else lo]) - sum(r["main"]) for r in rs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, help="a LoCoMo file (locomo_dev.json)")
    ap.add_argument("--out", help="write the per-question rows here (JSON)")
    ap.add_argument("--rows", help="read the rows from an earlier --out instead of searching")
    args = ap.parse_args()
    if args.rows:
        with open(args.rows) as fh:
            rows = json.load(fh)
    else:
        rows = probe(args.data)
        if args.out:
            with open(args.out, "w") as fh:
                json.dump(rows, fh)
    report(rows)


if __name__ == "__main__":
    from memlane.bench.datasets import DatasetError

    try:
        main()
    except DatasetError as exc:  # a data file it cannot read: one line, exit 1
        raise SystemExit(f"error: {exc}") from None
