"""Human-readable explanations of a hit's score, from what ``search`` put in ``Hit.scores``.

``search(..., explain=True)`` stores, per hit, each signal's value (its name), each
signal's weighted contribution (``contrib.<signal>``), and the rank the hit had at every
stage: ``candidate_rank`` (fused lexical + vector list), ``session_rank`` (stage one),
``turn_rank`` (stage two, inside its session), ``rank`` (final), with the raw components
``lexical``/``lexical_rank`` (BM25) and ``vector``/``vector_rank`` (cosine).
"""

from __future__ import annotations

from typing import Any

from memlane.retrieve.rerank import SIGNALS

__all__ = ["STAGE_RANKS", "explain", "explain_lines"]

STAGE_RANKS = ("candidate_rank", "lexical_rank", "vector_rank", "hyde_rank", "feedback_rank",
               "meaning_rank", "speaker_rank", "session_rank", "turn_rank", "rank")
"""Rank keys a hit may carry, in pipeline order (absent when the hit skipped that stage)."""
ADJUSTMENTS = ("newest", "superseded")
"""Score terms outside the preset's signals (``memlane.retrieve.newest``), weighted by
``retrieval.newest_weight``; present only on the hits they moved."""


def explain(hit: Any) -> dict[str, Any]:
    """``{"score", "signals": {name: {"value", "contribution"}}, "ranks": {...}}`` of a hit."""
    s = hit.scores
    signals = {
        name: {"value": s[name], "contribution": s.get(f"contrib.{name}", 0.0)}
        for name in (*SIGNALS, *ADJUSTMENTS) if name in s
    }
    ranks = {k: int(s[k]) for k in STAGE_RANKS if s.get(k)}
    return {"score": hit.score, "signals": signals, "ranks": ranks}


def explain_lines(hit: Any) -> list[str]:
    """The explanation as text lines: ranks by stage, then signals by contribution."""
    e = explain(hit)
    lines = ["ranks: " + ", ".join(f"{'final' if k == 'rank' else k.removesuffix('_rank')} #{v}"
                                   for k, v in e["ranks"].items())]
    rows = sorted(e["signals"].items(), key=lambda kv: -abs(kv[1]["contribution"]))
    for name, v in rows:
        lines.append(f"{name:<10} value {v['value']:.3f}  contributes {v['contribution']:+.4f}")
    return lines
