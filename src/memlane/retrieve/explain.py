"""Human-readable explanations of a hit's score, from what ``search`` put in ``Hit.scores``.

``search(..., explain=True)`` stores, per hit, each signal's value (its name), each
signal's weighted contribution (``contrib.<signal>``), and the rank the hit had at every
stage: ``candidate_rank`` (fused lexical + vector list), ``session_rank`` (stage one),
``turn_rank`` (stage two, inside its session), ``rank`` (final), with the raw components
``lexical``/``lexical_rank`` (BM25) and ``vector``/``vector_rank`` (cosine).
"""

from __future__ import annotations

import math
from typing import Any

from memlane.retrieve.rerank import SIGNALS

__all__ = ["STAGE_RANKS", "explain", "explain_lines", "figure", "notes"]

STAGE_RANKS = ("candidate_rank", "lexical_rank", "vector_rank", "hyde_rank", "feedback_rank",
               "meaning_rank", "speaker_rank", "session_rank", "turn_rank", "rank")
"""Rank keys a hit may carry, in pipeline order (absent when the hit skipped that stage)."""
ADJUSTMENTS = ("newest", "superseded")
"""Score terms outside the preset's signals (``memlane.retrieve.newest``), weighted by
``retrieval.newest_weight``; present only on the hits they moved."""


def explain(hit: Any) -> dict[str, Any]:
    """``{"score", "signals": {name: {"value", "contribution"}}, "ranks": {...}}`` of a hit,
    and ``"notes"``: what the search did not do for it (``notes``)."""
    s = hit.scores
    signals = {
        name: {"value": s[name], "contribution": s.get(f"contrib.{name}", 0.0)}
        for name in (*SIGNALS, *ADJUSTMENTS) if name in s
    }
    ranks = {k: int(s[k]) for k in STAGE_RANKS if s.get(k)}
    out: dict[str, Any] = {"score": hit.score, "signals": signals, "ranks": ranks}
    if found := notes(hit):
        out["notes"] = found
    return out


def notes(hit: Any) -> list[str]:
    """Sentences on what the search left undone for this hit: the meaning tier did not
    re-score it when its vector was not cached and the query had embedded
    ``retrieval.meaning_cold`` passages already (``meaning_skipped``: the lift it got). Its
    vector is computed later by a worker round (queued there by a serving process's query,
    or by the backfill) or at once by ``memlane index --warm-meaning``: session 32's note
    said "the index worker computes its vector for the next query", which a CLI search,
    whose queue ends with its process, did not make true (session 33)."""
    s = hit.scores
    if "meaning_skipped" not in s:
        return []
    return [f"meaning: not re-scored this time (its vector was not cached and the query "
            f"embedded its retrieval.meaning_cold passages already); it got the median lift "
            f"{figure(s['meaning_skipped'], 4, signed=True)}; a worker round (memlane serve, "
            f"memlane worker) computes its vector later, memlane index --warm-meaning now"]


def figure(value: float, places: int, *, signed: bool = False) -> str:
    """A score with ``places`` decimals, as every listing prints one (the CLI, the MCP
    tools' text, the inspector, a pack's text). A value that is not zero but would print as
    zero (``0.00``) prints ``<0.01`` (``-<0.01`` below zero, ``+<0.0001`` when ``signed``):
    a scope of one item's BM25 is about 1e-6 (SQLite's idf floor of a word every row
    holds), and ``bm25=0.00`` read as no match."""
    text = f"{value + 0.0:{'+' if signed else ''}.{places}f}"  # -0.0 as 0
    if value == 0 or not math.isfinite(value) or any(ch in "123456789" for ch in text):
        return text
    unit = f"0.{'0' * (places - 1)}1" if places else "1"
    return f"{'-' if value < 0 else '+' if signed else ''}<{unit}"


def explain_lines(hit: Any) -> list[str]:
    """The explanation as text lines: ranks by stage, then signals by contribution."""
    e = explain(hit)
    lines = ["ranks: " + ", ".join(f"{'final' if k == 'rank' else k.removesuffix('_rank')} #{v}"
                                   for k, v in e["ranks"].items())]
    rows = sorted(e["signals"].items(), key=lambda kv: (-abs(kv[1]["contribution"]), kv[0]))
    for name, v in rows:
        lines.append(f"{name:<10} value {figure(v['value'], 3)}  "
                     f"contributes {figure(v['contribution'], 4, signed=True)}")
    return lines + e.get("notes", [])
