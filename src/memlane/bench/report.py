"""Writing a benchmark run: rankings files, report.json, report.md and PNG plots.

Rankings files follow the README ("Benchmarks": the rankings file): JSON Lines, one object
per question in dataset order, ``{"question_id": ..., "ranked_ids": [...]}`` (LongMemEval,
``rankings-session.jsonl`` and ``rankings-turn.jsonl``) or ``{"qa_id": ..., "ranked_ids":
[...]}`` (LoCoMo, ``rankings-locomo.jsonl``), best first. A baseline's files carry its name
as a suffix: ``rankings-session.bm25.jsonl``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memlane.bench.memrun import peak_rss_mb
from memlane.bench.metrics import KS, METRICS

__all__ = [
    "rankings_filename",
    "read_rankings",
    "render_markdown",
    "write_lme_report",
    "write_locomo_report",
    "write_rankings",
]

_SHORT = {"recall_any": "R_any", "recall_all": "R_all", "ndcg_any": "nDCG"}


def rankings_filename(kind: str, system: str) -> str:
    """``rankings-<kind>.jsonl`` for memlane, ``rankings-<kind>.<system>.jsonl`` otherwise."""
    return f"rankings-{kind}.jsonl" if system == "memlane" else f"rankings-{kind}.{system}.jsonl"


def write_rankings(
    path: Path,
    rankings: Mapping[str, Sequence[str]],
    order: Sequence[str],
    key: str = "question_id",
) -> int:
    """Write one line per id of ``order`` that has a ranking; return the line count."""
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for qid in order:
            if qid in rankings:
                fh.write(
                    json.dumps({key: qid, "ranked_ids": list(rankings[qid])}, ensure_ascii=False)
                )
                fh.write("\n")
                n += 1
    return n


def read_rankings(path: Path, kind: str | None = None) -> dict[str, list[str]]:
    """Read a rankings file back: ``{question_id or qa_id: ranked_ids}``.

    ``path`` is the file, or a finished bench ``--out`` folder whose
    ``rankings-<kind>.jsonl`` is read (``kind``: session, turn or locomo). A missing file, a
    folder no run finished (no report.json) and a line that is not ``{"question_id" or
    "qa_id": id, "ranked_ids": [ids]}``, or names a question or an id twice, raise
    ``DatasetError`` naming the file and the line."""
    from memlane.bench.datasets import DatasetError

    path = Path(path)
    if path.is_dir():
        if kind is None:
            raise DatasetError(f"{path}: a folder; name the rankings file in it")
        if not (path / "report.json").is_file():
            raise DatasetError(f"{path}: not a finished bench run (no report.json): give the "
                               "--out folder of a run that ended")
        folder, path = path, path / rankings_filename(kind, "memlane")
        if not path.is_file():
            has = sorted(p.name for p in folder.glob("rankings-*.jsonl"))
            raise DatasetError(f"{folder}: no {path.name} (it has {', '.join(has) or 'none'})")
    elif not path.exists():
        raise DatasetError(f"{path}: no such file or folder")
    out: dict[str, list[str]] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                where = f"{path}: line {n}"
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise DatasetError(f"{where}: not JSON ({exc})") from None
                if not isinstance(obj, dict):
                    raise DatasetError(f"{where}: not an object")
                key = "question_id" if "question_id" in obj else "qa_id"
                qid, ranked = obj.get(key), obj.get("ranked_ids")
                if not isinstance(qid, str) or not qid:
                    raise DatasetError(f"{where}: no question_id or qa_id")
                if not isinstance(ranked, list) or not all(isinstance(i, str) for i in ranked):
                    raise DatasetError(f"{where}: ranked_ids must be a list of ids (strings)")
                if len(set(ranked)) != len(ranked):
                    raise DatasetError(f"{where}: ranked_ids names an id twice")
                if qid in out:
                    raise DatasetError(f"{where}: {key} {qid!r} again")
                out[qid] = ranked
    except FileNotFoundError:
        raise DatasetError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path}: cannot read ({exc})") from None
    return out


# ------------------------------------------------------------------------------ markdown


def _fmt(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def _cols(ks: Sequence[int]) -> list[str]:
    return [f"{m}@{k}" for m in METRICS for k in ks]


def _table(
    rows: list[tuple[str, Mapping[str, Any]]], first: str, ks: Sequence[int] = KS
) -> list[str]:
    cols = _cols(ks)
    head = [first, "n"] + [f"{_SHORT[c.split('@')[0]]}@{c.split('@')[1]}" for c in cols]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, m in rows:
        n = m.get("n")
        out.append(
            "| "
            + " | ".join(
                [label, _fmt(int(n) if n is not None else None)] + [_fmt(m.get(c)) for c in cols]
            )
            + " |"
        )
    return out


def render_markdown(summary: Mapping[str, Any], title: str, notes: Sequence[str] = ()) -> str:
    """The human report: headline, overall comparison, per-group tables, performance."""
    lines = [f"# memlane retrieval benchmark: {title}", ""]
    head = summary["headline"]
    values = " · ".join(f"{k} {_fmt(v)}" for k, v in head.items() if k != "metric")
    lines += [f"**headline: {head['metric']}** — {values}", ""]
    lines += [
        f"- data: `{summary.get('data')}`",
        (
            f"- questions: {summary['n_questions']}, evaluated: {summary['n_evaluated']}, "
            f"excluded: {json.dumps(summary.get('excluded', {}))}"
        ),
        (
            f"- embedder: `{summary.get('embedder')}`; wall time: {summary.get('wall_seconds')} s; "
            f"peak RSS: {summary.get('peak_rss_mb')} MB"
        ),
        "",
        (
            "Metrics: LongMemEval's official recall_any@k / recall_all@k / ndcg_any@k "
            "(DCG = rel_1 + Σ_{i=2..k} rel_i / log2 i). R_any = recall_any, R_all = recall_all, "
            "nDCG = ndcg_any."
        ),
        "",
        "## Overall",
        "",
    ]
    rows = []
    for name, s in summary["systems"].items():
        for level, groups in s["levels"].items():
            if "overall" in groups:
                rows.append((f"{name} ({level})", groups["overall"]))
    lines += _table(rows, "system (level)")
    for level in ("session", "turn"):
        for name, s in summary["systems"].items():
            groups = s["levels"].get(level)
            if not groups:
                continue
            lines += ["", f"## {name} — {level} level", "", f"_{s.get('note', '')}_", ""]
            lines += _table(list(groups.items()), "group")
    for name, s in summary["systems"].items():
        if s.get("by_conversation"):
            # a rule tuned on some conversations should gain on the others too
            lines += ["", f"## {name} — by conversation (categories 1-4)", ""]
            lines += _table(list(s["by_conversation"].items()), "conversation")
    qa = summary.get("qa")
    if qa:
        lines += ["", "## Answer quality", "",
                  f"Answers by `{qa['answer_model']}` from memlane's pack; judged by "
                  f"`{qa['judge_model']}` with per-type instructions. Accuracy "
                  f"{_fmt(qa['accuracy'])} over {qa['judged']} judged of {qa['answered']} answered"
                  + (f"; {qa['failed']} failed at the endpoint (their errors in answers.jsonl)."
                     if qa.get("failed") else "."),
                  "", "| question type | accuracy |", "|---|---|"]
        lines += [f"| {t} | {_fmt(a)} |" for t, a in qa["accuracy_by_type"].items()]
    ku = summary.get("knowledge_update_newest_first")
    if ku:
        lines += ["", "## Knowledge updates", "",
                  "How often the newest evidence session ranks above every older (stale) one, over "
                  "knowledge-update questions whose evidence spans sessions of different dates.", "",
                  "| system | newest first | questions | missed |", "|---|---|---|---|"]
        lines += [f"| {n} | {_fmt(v['rate'])} | {v['n']} | {', '.join(v.get('missed', []))} |"
                  for n, v in ku.items()]
    lines += [
        "",
        "## Performance",
        "",
        "| system | queries | latency p50 (ms) | latency p95 (ms) |",
        "|---|---|---|---|",
    ]
    for name, s in summary["systems"].items():
        lat = s["latency_ms"]
        lines.append(f"| {name} | {lat['n']} | {_fmt(lat['p50'])} | {_fmt(lat['p95'])} |")
    ix = summary.get("indexing", {})
    lines += [
        "",
        (
            "memlane latency is the `search()` call alone; a baseline's is its whole per-query "
            "ranking (building its index included)."
        ),
        "",
        (
            f"- memlane ingest: {ix.get('turns_added')} turns added ({ix.get('turns_skipped')} refused), "
            f"add_message {ix.get('add_seconds')} s, index() {ix.get('index_seconds')} s"
        ),
        (
            f"- indexing throughput: {ix.get('index_turns_per_s')} turns/s (index), "
            f"{ix.get('ingest_turns_per_s')} turns/s (add + index)"
        ),
        (
            f"- peak memory (ru_maxrss): {summary.get('peak_rss_mb')} MB "
            f"({summary.get('rss_after_load_mb')} MB already after loading the data file)"
        ),
        f"- embedding cache: {json.dumps(summary.get('embed_cache', {}))}",
        f"- search k: {summary.get('search_k')}; now: {summary.get('now_mode', 'see notes')}",
    ]
    if notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in notes]
    plots = summary.get("plots") or []
    if plots:
        lines += ["", "## Plots", ""] + [f"![{p}]({p})" for p in plots]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------- plots


def _plot_recall(summary: Mapping[str, Any], level: str, path: Path) -> bool:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    systems = {n: s["levels"][level] for n, s in summary["systems"].items() if level in s["levels"]}
    if not systems:
        return False
    groups = list(next(iter(systems.values())).keys())
    ncols = min(4, len(groups))
    nrows = (len(groups) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(4 * ncols, 3.2 * nrows), squeeze=False)
    colors = ["tab:blue", "tab:orange", "tab:green", "tab:red"]
    for ax, g in zip(axes.flat, groups):
        for (name, lv), c in zip(systems.items(), colors):
            m = lv.get(g)
            if not m:
                continue
            ax.plot(
                KS, [m[f"recall_all@{k}"] for k in KS], "-o", color=c, ms=3, label=f"{name} all"
            )
            ax.plot(KS, [m[f"recall_any@{k}"] for k in KS], "--", color=c, label=f"{name} any")
        ax.set_xscale("log")
        ax.set_xticks(list(KS))
        ax.set_xticklabels([str(k) for k in KS])
        ax.set_ylim(0, 1.02)
        ax.set_title(f"{g} (n={int(next(iter(systems.values()))[g]['n'])})", fontsize=9)
        ax.set_xlabel("k")
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(groups) :]:
        ax.set_visible(False)
    axes.flat[0].set_ylabel(f"{level} recall@k")
    # a place named, never matplotlib's default search for the "best" one: that search warns when it
    # takes over a second, which on a loaded machine made a bench run's report fail (session 46)
    axes.flat[0].legend(fontsize=7, loc="lower right")
    fig.suptitle(f"{summary['dataset']}: {level} recall@k (solid: recall_all, dashed: recall_any)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def _plot_latency(latencies: Mapping[str, Sequence[float]], path: Path) -> bool:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = {n: [1000 * x for x in v] for n, v in latencies.items() if v}
    if not data:
        return False
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for name, vals in data.items():
        ax.hist(vals, bins=40, alpha=0.5, label=name)
    ax.set_xlabel("latency per query (ms)")
    ax.set_ylabel("queries")
    ax.set_title("memlane: search() call; baselines: whole per-query ranking")
    ax.legend(loc="upper right")  # a place named: see _plot_recall
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


# ----------------------------------------------------------------------------- writers


def _finish(
    out: Path,
    summary: dict[str, Any],
    latencies: Mapping[str, Sequence[float]],
    levels: Sequence[str],
    title: str,
    notes: Sequence[str],
    rss_after_load_mb: float | None,
) -> dict[str, Any]:
    plots = []
    for level in levels:
        name = f"recall-{level}.png"
        if _plot_recall(summary, level, out / name):
            plots.append(name)
    if _plot_latency(latencies, out / "latency.png"):
        plots.append("latency.png")
    summary["plots"] = plots
    summary["peak_rss_mb"] = peak_rss_mb()
    summary["rss_after_load_mb"] = rss_after_load_mb
    summary["notes"] = list(notes)
    (out / "report.json").write_text(
        json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (out / "report.md").write_text(render_markdown(summary, title, notes), encoding="utf-8")
    return summary


LME_NOTES = (
    (
        "Questions with '_abs' in the id (abstention) and questions without a user turn having "
        "has_answer are ranked and written but left out of every average."
    ),
    (
        "Gold sessions: answer sessions containing a user turn with has_answer; gold turns: user "
        "turns with has_answer. Ranked ids are de-duplicated (first occurrence) before scoring."
    ),
    (
        "memlane and dense session rankings are the first-occurrence distinct sessions of their turn "
        "rankings (a turn maps to its session whatever its role); bm25's session ranking comes from "
        "its own session-granular index."
    ),
    "Haystack sessions are added to memlane in date order; the ids and the gold are unchanged.",
    (
        "Session-level nDCG of a turn ranking is computed over its first k distinct sessions "
        "(the README, Benchmarks); the official evaluate_retrieval_turn2session computes it over turns up to the "
        "cut-off that yields k sessions, so its nDCG can differ; it also credits an evidence session "
        "only through its has_answer turns, where memlane maps every turn to its session."
    ),
)


def _settings_note(summary: dict[str, Any], notes: list[str], settings: Sequence[str]) -> None:
    """Record the ``--set`` overrides memlane ran with (a run must say how it was made)."""
    summary["settings"] = list(settings)
    if settings:
        notes.append("memlane ran with " + " ".join(f"--set {s}" for s in settings) + ".")


def write_lme_report(
    run: Any, out: Path, data: str | Path, *, rss_after_load_mb: float | None = None,
    qa: dict[str, Any] | None = None, settings: Sequence[str] = (),
    data_sha256: str | None = None,
) -> dict[str, Any]:
    """Write rankings, per-question scores, report.json, report.md and plots for a run."""
    out.mkdir(parents=True, exist_ok=True)
    order = [q.question_id for q in run.questions]
    files = []
    for name, s in run.systems.items():
        for kind, rankings in (("session", s.session_rankings), ("turn", s.turn_rankings)):
            if rankings:
                fname = rankings_filename(kind, name)
                write_rankings(out / fname, rankings, order)
                files.append(fname)
    types = {q.question_id: q.question_type for q in run.questions}
    with open(out / "per-question.jsonl", "w", encoding="utf-8") as fh:
        for qid in order:
            for name, s in run.systems.items():
                if qid in s.scores:
                    fh.write(
                        json.dumps(
                            {
                                "question_id": qid,
                                "question_type": types[qid],
                                "system": name,
                                **s.scores[qid],
                            }
                        )
                        + "\n"
                    )
    summary = run.summary()
    summary["data"] = str(data)
    summary["data_sha256"] = data_sha256
    summary["files"] = files + ["per-question.jsonl"] + (["answers.jsonl"] if qa else [])
    if qa:
        summary["qa"] = qa
    notes = list(LME_NOTES)
    if summary.get("gold_after_question_date"):
        notes.append(
            f"{summary['gold_after_question_date']} evaluated questions have an evidence session "
            "dated after question_date (an upstream quirk); search(now=...) is the time of the "
            "question for time-aware ranking and does not filter, so those sessions can be found."
        )
    _settings_note(summary, notes, settings)
    lat = {n: s.latencies for n, s in run.systems.items()}
    return _finish(out, summary, lat, ("session", "turn"), "LongMemEval", notes, rss_after_load_mb)


def write_locomo_report(
    run: Any, out: Path, data: str | Path, *, rss_after_load_mb: float | None = None,
    settings: Sequence[str] = (), data_sha256: str | None = None,
) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    order = [qa.qa_id for qa in run.questions]
    files = []
    for name, s in run.systems.items():
        fname = rankings_filename("locomo", name)
        write_rankings(out / fname, s.turn_rankings, order, key="qa_id")
        files.append(fname)
    summary = run.summary()
    summary["data"] = str(data)
    summary["data_sha256"] = data_sha256
    summary["files"] = files
    notes = [
        "qa_id = '<sample_id>:<qa index>' (0-based); ranked_ids are dia_ids.",
        "Category 5 (adversarial) is reported apart and is not in 'overall' (categories 1-4).",
        (
            f"Evidence normalised ('D8:6; D9:17' split, 'D:11:26' -> 'D11:26'); "
            f"{len(summary['dropped_evidence'])} evidence string(s) naming no turn were dropped: "
            f"{summary['dropped_evidence'][:10]}."
        ),
        f"memlane roles: {summary['role_mode']} (speaker names are kept as speaker).",
        "now = the conversation's last session date (LoCoMo questions have no date).",
    ]
    _settings_note(summary, notes, settings)
    lat = {n: s.latencies for n, s in run.systems.items()}
    return _finish(out, summary, lat, ("turn",), "LoCoMo", notes, rss_after_load_mb)
