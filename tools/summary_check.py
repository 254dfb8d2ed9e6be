"""Score the offline summarizer on the check sets, both ways it runs, and print the sums a
rule is kept or dropped by (docs/summary-eval.md, "How a rule is kept").

    PYTHONPATH=src .venv/bin/python tools/summary_check.py [--through heldoutN] \
        [--sets A,B,...] [--target SET ...] [--out FILE.json]

Both ways: ``default`` (the shipped sentence model joins the patterns) and ``patterns`` (the
patterns alone, ``--no-sentence-model``). For each way it prints the sum over the check sets
of decisions + rationale + open questions + next steps F1 (the bar a rule must not lower),
each field's F1 sum, and how many sentences of small talk entered a field or landed in two;
for each ``--target`` set, its own F1 per field. ``--out`` keeps every figure and every miss
(``memlane bench summaries --json --show-misses`` for each set) to compare two trees.

The check sets are heldout13, heldout14, heldout19 up to ``--through`` (default: the set
before the newest: the newest is untouched until it is measured once at its session's end)
and ``dev_all``; ``--sets`` names others instead.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from memlane.bench.summaries.run import FIELDS, FRESH, load_set, run_backend
from memlane.errors import ValidationError

BAR = ("decisions", "rationale", "open_questions", "next_steps")
"""The fields whose F1 sum decides whether a rule is kept."""
WAYS = (("default", "shipped"), ("patterns", None))
"""Each way the offline backend runs, and the sentence model it runs with."""


def check_sets(through: str) -> list[str]:
    """heldout13, heldout14, heldout19 … ``through``, and dev_all."""
    if through not in FRESH:
        raise SystemExit(f"error: --through: {through!r} is not a registered set ({FRESH[0]} … {FRESH[-1]})")
    first, last = FRESH.index("heldout19"), FRESH.index(through)
    return ["heldout13", "heldout14", *FRESH[first:last + 1], "dev_all"]


def score(names: list[str]) -> dict[str, dict[str, Any]]:
    """Every set's report, per way: F1 and counts per field, small talk, repeats, misses."""
    try:
        sets = [(name, load_set(name)) for name in names]
    except ValidationError as exc:
        raise SystemExit(f"error: --sets/--target: {exc}") from None
    out: dict[str, dict[str, Any]] = {}
    for way, model in WAYS:
        out[way] = {report.set_name: {
            "fields": {field: value.to_dict() for field, value in report.fields.items()},
            "small_talk": len(report.small_talk), "repeats": len(report.repeats),
            "misses": {field: value.misses for field, value in report.fields.items() if value.misses},
        } for report in run_backend("offline", None, sets, model=model)}
    return out


def summary_lines(scores: dict[str, dict[str, Any]], names: list[str], targets: list[str]) -> list[str]:
    """The printed report: one line of sums per way, one line per target set and way."""
    lines = []
    for way, _ in WAYS:
        per = scores[way]
        total = {field: sum(per[name]["fields"][field]["f1"] for name in names) for field in FIELDS}
        bar = sum(total[field] for field in BAR)
        small_talk = sum(per[name]["small_talk"] for name in names)
        repeats = sum(per[name]["repeats"] for name in names)
        lines.append(f"{way:8s} D+R+OQ+NS {bar:.3f}  " + " ".join(f"{field} {total[field]:.3f}" for field in FIELDS)
                     + f"  small_talk {small_talk} repeats {repeats}")
        for target in targets:
            fields = per[target]["fields"]
            lines.append(f"  {target:10s} {way:8s} " + " ".join(f"{field} {fields[field]['f1']:.3f}" for field in FIELDS)
                         + f"  D+R+OQ+NS {sum(fields[field]['f1'] for field in BAR):.3f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--through", default=FRESH[-2], help="the last heldout set of the check sets")
    parser.add_argument("--sets", help="comma-separated sets to sum instead of the check sets")
    parser.add_argument("--target", action="append", default=[], help="a set whose own F1 is printed (repeatable)")
    parser.add_argument("--out", type=Path, help="write every figure and miss here as JSON")
    args = parser.parse_args(argv)
    names = args.sets.split(",") if args.sets else check_sets(args.through)
    scores = score(list(dict.fromkeys([*names, *args.target])))
    print("check sets: " + ",".join(names))
    print("\n".join(summary_lines(scores, names, args.target)))
    if args.out:
        args.out.write_text(json.dumps({"sets": names, "scores": scores}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
