"""Score the offline summarizer on the check sets, both ways it runs, and print the sums a
rule is kept or dropped by (docs/summary-eval.md, "How a rule is kept").

    PYTHONPATH=src .venv/bin/python tools/summary_check.py [--through heldoutN] \
        [--sets A,B,... | --every] [--target SET ...] [--out FILE.json]
    PYTHONPATH=src .venv/bin/python tools/summary_check.py --diff BEFORE.json AFTER.json [--show]

Both ways: ``default`` (the shipped sentence model joins the patterns) and ``patterns`` (the
patterns alone, ``--no-sentence-model``). For each way it prints the sum over the check sets
of decisions + rationale + open questions + next steps F1 (the bar a rule must not lower),
each field's F1 sum, and how many sentences of small talk entered a field or landed in two;
for each ``--target`` set, its own F1 per field. ``--out`` keeps every figure and every miss
(``memlane bench summaries --json --show-misses`` for each set) to compare two trees.

``--diff`` compares two ``--out`` files of the same sets (before and after a rule) and prints,
per way and field, the labels the rule found and lost ("right") and the wrong items it wrote and
took out ("wrong"), with the sets the right ones lie on: the counts a rule is kept by. ``--show``
lists each item under its conversation.

The check sets are heldout13, heldout14, heldout19 up to ``--through`` (default: the set
before the newest: the newest is untouched until it is measured once at its session's end)
and ``dev_all``; ``--sets`` names others instead, ``--every`` every development set (``dev_all``
and heldout7 up to ``--through``), where a rule's right and wrong items are counted.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
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


def every_set(through: str) -> list[str]:
    """Every development set up to ``through``: dev_all (dev … heldout6) and heldout7 … ``through``."""
    check_sets(through)
    return ["dev_all", *FRESH[FRESH.index("heldout7"):FRESH.index(through) + 1]]


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


def load_dump(path: Path) -> dict[str, Any]:
    """An ``--out`` file, or one error line naming it."""
    try:
        dump = json.loads(path.read_text())
        if not isinstance(dump, dict) or not all(way in dump.get("scores", {}) for way, _ in WAYS):
            raise ValueError("no 'scores' of both ways")
    except (OSError, ValueError) as exc:
        raise SystemExit(f"error: --diff: {path} is not a file written by --out ({exc})") from None
    return dump


def _items(report: dict[str, Any], field: str, kind: str) -> Counter[tuple[str, str]]:
    """The (conversation, text) of one field's misses of one kind in one set's report."""
    return Counter((m["conversation"], m["text"]) for m in report["misses"].get(field, []) if m["kind"] == kind)


def diff_lines(before: dict[str, Any], after: dict[str, Any], show: bool = False) -> list[str]:
    """Right found/lost and wrong added/taken out per way and field, from ``after`` to ``before``.

    A label found is one missed before and not after; a wrong item added is one written wrong
    after and not before (as a multiset, per conversation)."""
    shared = [name for name in before["scores"]["default"] if name in after["scores"]["default"]]
    if not shared:
        raise SystemExit("error: --diff: the two files share no set")
    lines = []
    for way, _ in WAYS:
        for field in FIELDS:
            counts, on, shown = Counter[str](), Counter[str](), []
            for name in shared:
                old, new = before["scores"][way][name], after["scores"][way][name]
                steps = (("+right", _items(old, field, "missed") - _items(new, field, "missed")),
                         ("-right", _items(new, field, "missed") - _items(old, field, "missed")),
                         ("+wrong", _items(new, field, "extra") - _items(old, field, "extra")),
                         ("-wrong", _items(old, field, "extra") - _items(new, field, "extra")))
                for sign, items in steps:
                    counts[sign] += sum(items.values())
                    shown += [f"    {sign} {name} {conv}: {text}" for conv, text in sorted(items.elements())]
                on[name] += sum(steps[0][1].values())
            if +counts:
                sets = ", ".join(f"{name} {n}" for name, n in on.items() if n)
                lines.append(f"{way:8s} {field:14s} right +{counts['+right']} -{counts['-right']}  "
                             f"wrong +{counts['+wrong']} -{counts['-wrong']}  right on: {sets or '-'}")
                lines += shown if show else []
    return lines or ["no item moved"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--through", default=FRESH[-2], help="the last heldout set of the check sets")
    sets = parser.add_mutually_exclusive_group()
    sets.add_argument("--sets", help="comma-separated sets to sum instead of the check sets")
    sets.add_argument("--every", action="store_true", help="every development set up to --through instead")
    parser.add_argument("--target", action="append", default=[], help="a set whose own F1 is printed (repeatable)")
    parser.add_argument("--out", type=Path, help="write every figure and miss here as JSON")
    parser.add_argument("--diff", type=Path, nargs=2, metavar=("BEFORE", "AFTER"),
                        help="compare two --out files instead of scoring: right/wrong per field")
    parser.add_argument("--show", action="store_true", help="with --diff: list every item that moved")
    args = parser.parse_args(argv)
    if args.diff:
        print("\n".join(diff_lines(load_dump(args.diff[0]), load_dump(args.diff[1]), args.show)))
        return 0
    names = args.sets.split(",") if args.sets else every_set(args.through) if args.every else check_sets(args.through)
    scores = score(list(dict.fromkeys([*names, *args.target])))
    print(("sets: " if args.sets or args.every else "check sets: ") + ",".join(names))
    print("\n".join(summary_lines(scores, names, args.target)))
    if args.out:
        args.out.write_text(json.dumps({"sets": names, "scores": scores}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
