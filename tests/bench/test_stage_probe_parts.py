"""``tools/stage_probe.py``'s ``score_part`` (session 42): which part of the score puts a
class c turn below the pool's first 10. Each case is a pool written for the test: the
scores and relevances the probe records before ``_select`` (``parts``: id -> (score,
relevance)) and the relevance the fused lists gave before the lifts (``fused``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).parents[2]


def _probe() -> ModuleType:
    spec = importlib.util.spec_from_file_location("stage_probe_tool", ROOT / "tools" / "stage_probe.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def _record(first: list[tuple[float, float, float]], piece: tuple[float, float, float]
            ) -> tuple[dict[str, Any], list[int]]:
    """A record of ten hits ``first`` (ids 1-10) and the evidence turn ``piece`` (id 99),
    each as (score, relevance, fused relevance); the score's other parts are the score
    less the relevance."""
    rows = {i: hit for i, hit in enumerate(first, start=1)} | {99: piece}
    rec = {"parts": {i: (s, r) for i, (s, r, _f) in rows.items()},
           "fused": {i: f for i, (_s, _r, f) in rows.items()}}
    return rec, list(range(1, 11))


def test_each_score_part_is_named_by_what_moves_the_turn_past_the_10th() -> None:
    probe = _probe()
    plain = [(1.0 - 0.02 * i, 0.7 - 0.02 * i, 0.7 - 0.02 * i) for i in range(10)]  # 10th: 0.82
    # the speaker focus left the turn 0.6 of its relevance: unlifted it passes the 10th
    rec, first = _record(plain, (0.70, 0.36, 0.60))
    assert probe.score_part(rec, 99, first) == "its own demotion"
    # a fact lifted the 9th from 0.20 to 0.54: unlifted, the turn passes it
    lifted = [*plain[:8], (0.84, 0.54, 0.20), plain[9]]
    rec, first = _record(lifted, (0.70, 0.40, 0.40))
    assert probe.score_part(rec, 99, first) == "a lift of a hit above it"
    # the same turn without the lift on the 9th: the lists themselves put it below
    rec, first = _record(plain, (0.70, 0.40, 0.40))
    assert probe.score_part(rec, 99, first) == "the fused lists"
    # as much relevance as the 10th, its score lower by the session or time signal
    rec, first = _record(plain, (0.70, 0.52, 0.52))
    assert probe.score_part(rec, 99, first) == "another score part"
