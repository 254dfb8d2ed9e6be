"""``memlane bench compare A B``: two runs of one data file, metric by metric.

A and B are finished ``--out`` folders or rankings files (``read_rankings`` reads both). The
gold comes from the data file the runs ran on (``report.json``'s ``data``, or ``--data``);
each question is scored with ``memlane.bench.metrics.score_ranking`` and the means taken
with ``aggregate``, as the report does, so A's and B's means are their reports' means. Per
metric and group (LongMemEval: question type; LoCoMo: category, 5 apart and not in
"overall"), the questions B scores higher than A (gained) and lower (lost).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlane.bench.datasets import DatasetError
from memlane.bench.metrics import aggregate, metric_names, score_ranking

__all__ = ["Side", "compare_runs", "read_side", "render"]


@dataclass
class Side:
    """One run: where it is, its rankings per level, and the data it says it ran on."""

    path: Path
    dataset: str | None
    levels: dict[str, dict[str, list[str]]]
    """"session" / "turn" -> question id -> ranked ids (a file: one level, told later)."""
    data: str | None
    data_sha256: str | None


def _report(folder: Path) -> dict[str, Any] | None:
    try:
        return json.loads((folder / "report.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{folder / 'report.json'}: cannot read ({exc})") from None


def read_side(path: Path) -> Side:
    """A run's rankings: every level of a finished ``--out`` folder, or one file."""
    from memlane.bench.report import read_rankings

    path = Path(path)
    if path.is_dir():
        read_rankings(path, "locomo" if (path / "rankings-locomo.jsonl").is_file()
                      else "session")  # refuses a folder no run finished, naming why
        report = _report(path) or {}
        dataset = report.get("dataset")
        kinds = {"turn": "locomo"} if dataset == "locomo" else {"session": "session",
                                                                "turn": "turn"}
        levels = {level: read_rankings(path, kind) for level, kind in kinds.items()}
    else:
        ranked = read_rankings(path)
        report = _report(path.parent) or {}
        dataset = report.get("dataset") or _dataset_of_file(path)
        levels = {"?": ranked}
    return Side(path, dataset, levels, report.get("data"), report.get("data_sha256"))


def _dataset_of_file(path: Path) -> str | None:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                return "locomo" if "qa_id" in json.loads(line) else "longmemeval"
    return None


def _data_file(a: Side, b: Side, data: Path | None) -> Path:
    """The data file both runs ran on; runs of different data are refused, naming them."""
    from memlane.bench.progress import file_sha256

    if a.dataset and b.dataset and a.dataset != b.dataset:
        raise DatasetError(f"{a.path} is a {a.dataset} run, {b.path} a {b.dataset} run")
    if a.data_sha256 and b.data_sha256 and a.data_sha256 != b.data_sha256:
        raise DatasetError(f"runs of different data: {a.path} ran on {a.data} (sha256 "
                           f"{a.data_sha256[:12]}), {b.path} on {b.data} (sha256 "
                           f"{b.data_sha256[:12]})")
    if data is None:
        named = [s.data for s in (a, b) if s.data]
        found = [Path(n) for n in named if Path(n).is_file()]
        if not found:
            said = f" ({', '.join(dict.fromkeys(named))}, from report.json, is not here)" \
                if named else ""
            raise DatasetError(f"which data file did the runs run on?{said}: give --data")
        data = found[0]
    sha = file_sha256(data) if any(s.data_sha256 for s in (a, b)) else None
    for s in (a, b):
        if sha and s.data_sha256 and s.data_sha256 != sha:
            raise DatasetError(f"{data} is not the data {s.path} ran on ({s.data}, sha256 "
                               f"{s.data_sha256[:12]}; this file's is {sha[:12]})")
    return data


def _level_of(ranked: dict[str, list[str]], sessions: dict[str, set[str]]) -> str:
    """A LongMemEval rankings file's level: sessions when every id is a haystack session."""
    return "session" if all(set(r) <= sessions.get(q, set()) for q, r in ranked.items()) \
        else "turn"


def compare_runs(a_path: Path, b_path: Path, data: Path | None = None,
                 metrics: Sequence[str] = (), listed: bool = False) -> dict[str, Any]:
    """Each metric A -> B per level and group, with the questions gained and lost."""
    from memlane.bench.datasets import load_locomo, load_longmemeval
    from memlane.bench.locomo import ADVERSARIAL, category_label

    a, b = read_side(a_path), read_side(b_path)
    data = _data_file(a, b, data)
    dataset = a.dataset or b.dataset
    gold: dict[str, dict[str, Any]] = {"session": {}, "turn": {}}
    groups: dict[str, str] = {}
    in_overall: set[str] = set()
    if dataset == "locomo":
        for conv in load_locomo(data):
            for qa in conv.qa:
                groups[qa.qa_id] = category_label(qa.category)
                if qa.evidence:
                    gold["turn"][qa.qa_id] = qa.evidence
                if groups[qa.qa_id] != ADVERSARIAL:
                    in_overall.add(qa.qa_id)
    else:
        questions = load_longmemeval(data)
        sessions = {q.question_id: {s.id for s in q.sessions} for q in questions}
        for q in questions:
            groups[q.question_id] = q.question_type
            in_overall.add(q.question_id)
            if q.evaluable:
                gold["session"][q.question_id] = q.gold_session_ids
                gold["turn"][q.question_id] = q.gold_turn_ids
        for side in (a, b):
            if "?" in side.levels:
                side.levels = {_level_of(side.levels["?"], sessions): side.levels["?"]}
    for side in (a, b):
        if "?" in side.levels:
            side.levels = {"turn": side.levels["?"]}
    common = [lv for lv in ("session", "turn") if lv in a.levels and lv in b.levels]
    if not common:
        raise DatasetError(f"{a.path} holds {', '.join(a.levels)} rankings, {b.path} "
                           f"{', '.join(b.levels)}: nothing to compare")
    names = list(metrics) or metric_names()
    out: dict[str, Any] = {"a": str(a.path), "b": str(b.path), "data": str(data),
                           "dataset": dataset, "levels": {}}
    for level in common:
        ra, rb = a.levels[level], b.levels[level]
        for side, ranked in ((a, ra), (b, rb)):
            unknown = [q for q in ranked if q not in groups]
            if unknown:
                raise DatasetError(f"{side.path} ranks {unknown[0]!r}, which {data} has not: "
                                   "a run of other data")
        if set(ra) != set(rb):
            only = sorted(set(ra) ^ set(rb))
            raise DatasetError(f"{a.path} ranks {len(ra)} questions, {b.path} {len(rb)} "
                               f"({len(only)} in one only, e.g. {only[0]}): runs of other "
                               "questions (--limit, --types) are not compared")
        scored = [q for q in ra if q in gold[level]]
        sa = {q: score_ranking(ra[q], gold[level][q]) for q in scored}
        sb = {q: score_ranking(rb[q], gold[level][q]) for q in scored}
        if dataset == "locomo":
            from memlane.bench.locomo import turn_levels

            means = [turn_levels(s, groups).get("turn", {}) for s in (sa, sb)]
        else:
            means = [aggregate([(groups[q], s[q]) for q in scored]) for s in (sa, sb)]
        table: dict[str, Any] = {}
        for group in sorted(means[0], key=lambda g: g != "overall"):  # overall first
            members = [q for q in scored if (q in in_overall if group == "overall"
                                             else groups[q] == group)]
            rows = {}
            for m in names:
                up = [q for q in members if sb[q][m] > sa[q][m]]
                down = [q for q in members if sb[q][m] < sa[q][m]]
                va, vb = means[0][group][m], means[1][group][m]
                rows[m] = {"a": va, "b": vb, "delta": vb - va, "gained": len(up),
                           "lost": len(down),
                           **({"gained_ids": up, "lost_ids": down} if listed else {})}
            table[group] = {"n": int(means[0][group]["n"]), "metrics": rows}
        out["levels"][level] = table
    return out


def render(result: dict[str, Any], listed: bool = False) -> str:
    """The comparison as text: per level and group, a line a metric."""
    lines = [f"A: {result['a']}", f"B: {result['b']}",
             f"data: {result['data']} ({result['dataset']})",
             "gained: questions B scores higher than A; lost: lower"]
    for level, table in result["levels"].items():
        lines += ["", f"{level} level"]
        for group, g in table.items():
            lines.append(f"  {group} (n={g['n']})")
            for m, r in g["metrics"].items():
                lines.append(f"    {m:<14} {r['a']:.3f} -> {r['b']:.3f}  {r['delta']:+.3f}  "
                             f"gained {r['gained']}, lost {r['lost']}")
                if listed:
                    for what in ("gained", "lost"):
                        if r[f"{what}_ids"]:
                            lines.append(f"      {what}: {', '.join(r[f'{what}_ids'])}")
    return "\n".join(lines) + "\n"
