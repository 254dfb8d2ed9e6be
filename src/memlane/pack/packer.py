"""Packing: a token-budgeted context from memory, with a decision for every candidate.

Hard slots come first and are always kept while they fit: caller instructions, then
pinned items. Soft slots follow in ``[memory.pack] slot_order`` (default: current facts,
session summaries (at most 3, each at most 420 characters, with time window and topics),
relevant turns, recent verbatim turns), each under its cap. A candidate is dropped when
its slot is full, when it repeats something kept, or when it would overrun the budget;
the trace says which. Token counts use the target model's tokenizer when one is
available offline (see ``pack.tokens``), and the final text is re-counted so ``used``
never exceeds the budget.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from memlane.clip import clip
from memlane.config import PackConfig
from memlane.pack.phrase import fact_sentence
from memlane.protocols import TokenCounter
from memlane.retrieve.explain import figure
from memlane.types import Hit, Item, Message

__all__ = ["Candidate", "Pack", "PackEntry", "build_pack"]

STALE = " (since superseded: see current facts)"
PARTLY_STALE = " (partly superseded since: see current facts)"

HEADERS = {
    "instructions": "Instructions:",
    "pinned": "Pinned:",
    "facts": "Current facts:",
    "summaries": "Relevant earlier session summaries:",
    "relevant_turns": "Relevant earlier conversation:",
    "recent_turns": "Recent messages:",
}


@dataclass(frozen=True, slots=True)
class PackEntry:
    """The decision about one candidate."""

    item_id: int | None
    kind: str
    slot: str
    tokens: int
    kept: bool
    reason: str
    score: float = 0.0
    scores: dict[str, float] = field(default_factory=dict)
    message_id: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """Plain data, as journaled (``dataclasses.asdict`` deep-copies every value: it
        was 40% of a pack's time)."""
        return {"item_id": self.item_id, "kind": self.kind, "slot": self.slot,
                "tokens": self.tokens, "kept": self.kept, "reason": self.reason,
                "score": self.score, "scores": dict(self.scores), "message_id": self.message_id}


@dataclass(frozen=True, slots=True)
class Pack:
    """The context text and its explanation."""

    query: str
    budget: int
    used: int
    text: str
    entries: tuple[PackEntry, ...]
    token_counter: str
    shares: dict[str, float] = field(default_factory=dict)
    """Each slot's share of the used tokens."""
    id: int | None = None
    """The journal id (``memlane packs show ID``), when journaled."""
    notice: str | None = None
    """Why the pack is empty, when it is: nothing was found, or nothing fit the budget
    (with the budget the smallest candidate needs). None when something was kept."""


@dataclass(slots=True)
class Candidate:
    slot: str
    line: str
    key: str
    kind: str
    item_id: int | None = None
    message_id: int | None = None
    score: float = 0.0
    scores: dict[str, float] = field(default_factory=dict)
    sort: tuple[Any, ...] = ()
    """When it was said, ``(at, seq, id)``: a total order (two messages of one scope can share
    a time and a seq in different sessions)."""
    whole: int = 0
    """The characters of a text cut to fit its line (a session summary over
    ``summary_chars``), 0 when it is whole: the decision says so."""


def _verbatim(text: str) -> str:
    """A message's text on its pack line: a text of one line with its whitespace runs as
    one space; one of several lines (a code block, a config, a list) keeps them, each after
    the first as written (its indentation too) and indented under the bullet, the blank ones
    left out (a blank line ends a section of the pack). Every line was collapsed into one
    before session 26, so a Python or YAML block no longer parsed."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return " ".join(text.split())
    return "\n  ".join([" ".join(lines[0].split()), *lines[1:]])


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _clip(text: str, limit: int) -> str:
    return clip(" ".join(text.split()), limit, words=True)


def _summary_line(item: Item, limit: int) -> tuple[str, int]:
    """The line, and the length of the body it cut (0: not cut)."""
    s = item.extra.get("summary") or {}
    start, end = s.get("time_start"), s.get("time_end")
    window = item.at.strftime("%Y-%m-%d")
    if start:
        window = start[:10] + (f" → {end[:10]}" if end and end[:10] != start[:10] else "")
    topics = ", ".join((s.get("topic_tags") or list(item.keywords))[:4])
    body = s.get("context") or item.text
    if s.get("decisions"):
        body += " Decisions: " + "; ".join(s["decisions"])
    head = f"[{window}" + (f" · topics: {topics}" if topics else "") + "]"
    body = " ".join(body.split())
    short = _clip(body, limit)
    return f"- {head} {short}", (len(body) if short != body else 0)


def _fact_line(item: Item) -> str:
    """A fact as a person reads it (``user's cat is Miso``), from its stored parts; the
    stored text (``user cat Miso``) when they are missing."""
    x = item.extra or {}
    parts = x.get("subject"), x.get("predicate"), x.get("object")
    if all(isinstance(v, str) and v.strip() for v in parts):
        return " ".join(fact_sentence(*parts).split())  # type: ignore[arg-type]
    return " ".join(item.text.split())


def _turn_line(item: Item, session_label: bool = True) -> str:
    who = (item.extra or {}).get("speaker") or item.role or item.kind
    when = item.at.strftime("%Y-%m-%d %H:%M")
    where = f" · session {item.session_id}" if session_label and item.session_id else ""
    return f"- [{when}{where}] {who}: {_verbatim(item.text)}"


def candidates_from(hits: Sequence[Hit], recent: Sequence[Message], pinned: Sequence[Item],
                    cfg: PackConfig, fact_confidence: dict[int, float],
                    stale_messages: Collection[int] = (),
                    stale_items: Collection[int] = (),
                    partly_stale: Collection[int] = ()) -> list[Candidate]:
    """Turn hits, recent messages and pinned items into slot candidates, best first.

    A turn or message whose stated facts were all superseded since is marked as such, so
    a pack never passes an old value off as current; one of which only some were
    (``partly_stale``) is marked partly so.
    """

    def mark(message_id: int | None) -> str:
        if message_id in stale_messages:
            return STALE
        return PARTLY_STALE if message_id in partly_stale else ""

    out: list[Candidate] = []
    for item in pinned:
        out.append(Candidate("pinned", f"- {_verbatim(item.text)}", _norm(item.text),
                             item.kind, item.id))
    for rank, h in enumerate(hits, start=1):
        it = h.item
        if it.kind == "entity":
            continue  # graph nodes: their facts and turns carry the content
        whole = 0
        if it.kind == "fact":
            conf = fact_confidence.get(it.id)
            extra = f" (confidence {figure(conf, 2)}, since {it.at:%Y-%m-%d})" if conf is not None else ""
            slot, line = "facts", f"- {_fact_line(it)}{extra}"
        elif it.kind in ("summary", "decision"):
            line, whole = _summary_line(it, cfg.summary_chars)
            slot, line = "summaries", line + (STALE if it.id in stale_items else "")
        elif it.kind == "turn":
            slot, line = "relevant_turns", _turn_line(it) + mark(it.message_id)
        else:
            slot, line = "relevant_turns", f"- [{it.kind}] {_verbatim(it.text)}"
        out.append(Candidate(slot, line, _norm(it.text), it.kind, it.id, it.message_id, h.score,
                             {**h.scores, "rank": float(rank)}, (it.at, it.seq or 0, it.id), whole))
    for m in recent:
        out.append(Candidate("recent_turns", f"- {m.speaker or m.role}: {_verbatim(m.text)}{mark(m.id)}",
                             _norm(m.text), "message", None, m.id, 0.0, {}, (m.at, m.seq, m.id)))
    return out


def build_pack(query: str, budget: int, cands: list[Candidate], cfg: PackConfig,
               counter: TokenCounter, instructions: str | None = None) -> Pack:
    """Fill hard then soft slots under ``budget`` tokens; render; explain every decision."""
    caps = {"facts": cfg.max_facts, "summaries": cfg.max_summaries,
            "relevant_turns": cfg.max_relevant_turns, "recent_turns": cfg.recent_turns,
            "pinned": 10**9, "instructions": 1}
    if instructions:
        cands = [Candidate("instructions", instructions.strip(), _norm(instructions), "instructions"),
                 *cands]
    order = ["instructions", "pinned", *cfg.slot_order]
    by_slot: dict[str, list[Candidate]] = {s: [] for s in order}
    for c in cands:
        by_slot.setdefault(c.slot, []).append(c)
    # the newest message first: the recent slot is the conversation's tail, so under a tight
    # budget it keeps the last messages and never skips one to fit an older one
    by_slot.get("recent_turns", []).sort(key=lambda c: c.sort, reverse=True)
    kept: list[Candidate] = []
    decisions: dict[int, tuple[bool, str, int]] = {}
    seen_keys: dict[str, str] = {}
    seen_messages: set[int] = set()
    in_slot: dict[str, int] = {s: 0 for s in order}
    used = 0
    tail_cut = False  # a recent message did not fit: older ones would leave a gap

    def consider(c: Candidate) -> None:
        nonlocal used, tail_cut
        cost = counter.count(c.line) + 1
        header = 0 if in_slot[c.slot] else counter.count(HEADERS[c.slot]) + 2
        repeat = c.kind in ("turn", "message") and c.message_id in seen_messages
        if c.slot == "recent_turns" and tail_cut:  # before the duplicate test: an older "ok"
            decisions[id(c)] = (False, "older than a recent message left out", cost)  # is no tail
        elif c.key in seen_keys or repeat:
            decisions[id(c)] = (False, f"duplicate of a kept {seen_keys.get(c.key, 'turn')}", cost)
        elif in_slot[c.slot] >= caps[c.slot]:
            decisions[id(c)] = (False, f"{c.slot} slot full ({caps[c.slot]})", cost)
        elif used + cost + header > budget:
            decisions[id(c)] = (False, f"over budget ({used + cost + header} > {budget} tokens)", cost)
            tail_cut = tail_cut or c.slot == "recent_turns"
        else:
            used += cost + header
            in_slot[c.slot] += 1
            kept.append(c)
            seen_keys[c.key] = c.slot
            if c.message_id is not None and c.kind in ("turn", "message"):
                seen_messages.add(c.message_id)
            why = "hard slot" if c.slot in ("instructions", "pinned") else (
                f"{c.slot} #{in_slot[c.slot]}"
                + (f", search rank {int(c.scores['rank'])}" if "rank" in c.scores else "")
                + (f", cut to {cfg.summary_chars} of {c.whole} characters" if c.whole else ""))
            decisions[id(c)] = (True, why, cost + header)

    # hard slots, then the best candidate of each soft slot in priority order, then the
    # rest by search rank (recent messages after every hit), slot priority breaking ties
    for slot in ("instructions", "pinned"):
        for c in by_slot.get(slot, []):
            consider(c)
    soft = [c for slot in cfg.slot_order for c in by_slot.get(slot, [])]
    firsts = [by_slot[slot][0] for slot in cfg.slot_order if by_slot.get(slot)]
    for c in firsts:
        consider(c)
    priority = {slot: i for i, slot in enumerate(cfg.slot_order)}
    rest = [c for c in soft if id(c) not in decisions]
    # a total order: a hit's search rank is its own (the search breaks ties by id), and the
    # candidates without one (recent messages) keep their slot's order, newest first by
    # ``sort`` (time, seq, id)
    place = {id(c): i for slot in cfg.slot_order for i, c in enumerate(by_slot.get(slot, []))}
    rest.sort(key=lambda c: (c.scores.get("rank", 10**6), priority[c.slot], place[id(c)]))
    for c in rest:
        consider(c)
    for c in cands:  # a slot ``slot_order`` leaves out: found, and said so
        if id(c) not in decisions:
            decisions[id(c)] = (False, f"{c.slot} not in pack.slot_order", counter.count(c.line) + 1)
    text = _render(kept, order)
    total = counter.count(text)
    while total > budget and kept:  # a tokenizer may count the whole above its parts
        dropped = kept.pop()
        decisions[id(dropped)] = (False, "over budget after rendering", decisions[id(dropped)][2])
        text = _render(kept, order)
        total = counter.count(text)
    entries = tuple(
        PackEntry(c.item_id, c.kind, c.slot, decisions[id(c)][2], decisions[id(c)][0],
                  decisions[id(c)][1], c.score, dict(c.scores), c.message_id)
        for c in cands if id(c) in decisions
    )
    slot_tokens: dict[str, int] = {}
    for e in entries:
        if e.kept:
            slot_tokens[e.slot] = slot_tokens.get(e.slot, 0) + e.tokens
    spent = sum(slot_tokens.values()) or 1
    shares = {k: round(v / spent, 3) for k, v in slot_tokens.items()}
    notice = None if kept else _empty_notice(entries, budget, counter)
    return Pack(query, budget, total, text, entries, counter.name, shares, notice=notice)


def _empty_notice(entries: Sequence[PackEntry], budget: int, counter: TokenCounter) -> str:
    """Why nothing was kept: no candidate, or none fit ``budget`` (and what would)."""
    if not entries:
        return "nothing in memory matched the query"
    # alone in an empty pack, a candidate costs its line and its slot's heading; only those
    # refused for the budget count (an older recent message waits for the newer ones)
    costs = [e.tokens + counter.count(HEADERS[e.slot]) + 2 for e in entries
             if e.reason.startswith("over budget")]
    need = min(costs, default=0)
    if need > budget:
        return (f"nothing fit the budget of {budget} tokens: {len(entries)} candidate(s) were "
                f"found, the smallest needs {need} tokens with its heading; ask for a budget "
                f"of at least {need}")
    return f"every one of the {len(entries)} candidate(s) was left out: see each entry's reason"


def _render(kept: list[Candidate], order: list[str]) -> str:
    blocks = []
    for slot in order:
        lines = [c for c in kept if c.slot == slot]
        if not lines:
            continue
        if slot in ("relevant_turns", "recent_turns"):
            lines.sort(key=lambda c: c.sort)  # conversation reads in time order
        blocks.append("\n".join([HEADERS[slot], *(c.line for c in lines)]))
    return "\n\n".join(blocks)
