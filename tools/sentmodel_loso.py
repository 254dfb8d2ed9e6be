"""Leave one set out: does the sentence model gain from more development sets?
(docs/summary-eval.md, "Session 35: the sentence model learns from every development set").

    PYTHONPATH=src .venv/bin/python tools/sentmodel_loso.py --base SETS... --add SETS... \
        --out DIR [--c 0.001] [--vectors static|meaning|both] [--thresholds decisions=0.5,next_steps=0.8,rationale=0.4]

For each set S of ``--add``: a dense sentence model fitted (the shipped inputs of
``memlane bench summaries --train``: ``dense.CHEAP``, ``NEIGHBOUR``, ``MOST``, ``REACH``, C of
``dense.FIT`` unless ``--c``) on ``--base`` plus every other set of ``--add``, written to
``DIR/S.npz`` with the chosen configuration (``dense.CHOSEN``, or ``--thresholds``), and S
scored with it as ``memlane bench summaries --set S --model DIR/S.npz --json`` scores it. One
JSON line per set: decisions, rationale, open questions, next steps F1, their sum, small talk
in a field and sentences in two fields. The inputs are computed once for every conversation.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path
from typing import Any

from memlane.bench.summaries import dense
from memlane.bench.summaries.run import evaluate, load_set
from memlane.index.offline import OfflineIntelligence
from memlane.index.sentmodel import load_dense

FOUR = ("decisions", "rationale", "open_questions", "next_steps")


def _thresholds(text: str | None) -> dict[str, Any]:
    if not text:
        return dense.CONFIGS[dense.CHOSEN]
    pairs = (item.split("=", 1) for item in text.split(","))
    return {"mode": "add", "thresholds": {k.strip(): float(v) for k, v in pairs}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", nargs="+", default=list(dense.SETS))
    parser.add_argument("--add", nargs="+", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--c", type=float, default=None)
    parser.add_argument("--vectors", choices=("static", "meaning", "both"), default="static",
                        help="the sentence vectors, as --train --vectors")
    parser.add_argument("--thresholds", action="append", default=None,
                        help="field=value,...; repeat to score several on the same fits")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    sets = {name: load_set(name) for name in [*args.base, *args.add]}
    owner = [name for name, convs in sets.items() for _ in convs]
    data = dense.prepare([c for convs in sets.values() for c in convs], cheap=dense.CHEAP,
                         neighbour=dense.NEIGHBOUR, most=dense.MOST, reach=dense.REACH,
                         vectors=args.vectors)
    fit_args = dict(dense.FIT, **({"c": args.c} if args.c is not None else {}))
    configs = [_thresholds(t) for t in (args.thresholds or [None])]
    for held in args.add:
        train = [d for d, name in zip(data, owner, strict=True) if name != held]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = dense.fit(train, **fit_args)
        for k, config in enumerate(configs):
            path = args.out / (f"{held}.npz" if k == 0 else f"{held}.{k}.npz")
            configured = dense.configured(model, config)
            assert configured is not None
            configured.save(path)
            report = evaluate(OfflineIntelligence(load_dense(path)).summarize, sets[held],
                              backend="offline", set_name=held)
            f1 = {f: round(report.fields[f].f1, 3) for f in FOUR}
            print(json.dumps({"set": held, "config": k, "trained_on": len(train),
                              "c": fit_args["c"], "thresholds": config["thresholds"], **f1,
                              "sum": round(sum(f1.values()), 3),
                              "small_talk": len(report.small_talk),
                              "repeats": len(report.repeats)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
