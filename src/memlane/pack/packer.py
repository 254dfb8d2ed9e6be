"""A token-budgeted context from search hits, with a decision per candidate.

This is the first packer: relevant turns, best first, grouped by session and shown in
time order, until the budget is spent. Every candidate records whether it was kept and
why, its token cost and its scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memlane.protocols import TokenCounter
from memlane.types import Hit

__all__ = ["Pack", "PackEntry", "pack_hits"]

HEADER = "Relevant earlier conversation:"


@dataclass(frozen=True, slots=True)
class PackEntry:
    item_id: int
    kind: str
    tokens: int
    kept: bool
    reason: str
    score: float
    scores: dict[str, float] = field(default_factory=dict)
    slot: str = "relevant_turns"


@dataclass(frozen=True, slots=True)
class Pack:
    query: str
    budget: int
    used: int
    text: str
    entries: tuple[PackEntry, ...]
    token_counter: str


def _line(hit: Hit) -> str:
    it = hit.item
    who = (it.extra or {}).get("speaker") or it.role or it.kind
    return f"- {who}: {' '.join(it.text.split())}"


def _session_head(hit: Hit) -> str:
    s = hit.session
    when = (s.started_at if s else hit.item.at).strftime("%Y-%m-%d %H:%M")
    return f"[{when} · {hit.item.scope} · session {hit.item.session_id}]"


def pack_hits(query: str, hits: list[Hit], budget: int, counter: TokenCounter) -> Pack:
    """Keep hits best-first while they fit; render them grouped by session, in time order."""
    used = counter.count(HEADER) + 1
    entries: list[PackEntry] = []
    kept: list[Hit] = []
    heads: set[Any] = set()
    seen_text: set[str] = set()
    for hit in hits:
        cost = counter.count(_line(hit)) + 1
        head_cost = 0 if hit.item.session_id in heads else counter.count(_session_head(hit)) + 1
        norm = " ".join(hit.item.text.lower().split())
        if norm in seen_text:
            reason, ok = "duplicate of a kept item", False
        elif used + cost + head_cost > budget:
            reason, ok = f"over budget ({used + cost + head_cost} > {budget} tokens)", False
        else:
            reason, ok = f"relevant (rank {int(hit.scores.get('rank', 0))})", True
            used += cost + head_cost
            heads.add(hit.item.session_id)
            seen_text.add(norm)
            kept.append(hit)
        entries.append(PackEntry(hit.item.id, hit.item.kind, cost + head_cost, ok, reason,
                                 hit.score, dict(hit.scores)))
    lines: list[str] = []
    if kept:
        lines.append(HEADER)
        by_session: dict[Any, list[Hit]] = {}
        for h in sorted(kept, key=lambda h: (h.item.at, h.item.seq or 0)):
            by_session.setdefault(h.item.session_id, []).append(h)
        for group in by_session.values():
            lines.append(_session_head(group[0]))
            lines.extend(_line(h) for h in group)
    text = "\n".join(lines)
    return Pack(query, budget, counter.count(text) if text else 0, text, tuple(entries), counter.name)
