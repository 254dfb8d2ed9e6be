"""Compaction: fold a topic's many summaries into one decision record; weekly roll-ups.

A decision record consolidates the decisions, rationale, open questions and references
of the summaries it absorbs, with a short narrative; the absorbed summaries become
``superseded`` and link to it. Weekly roll-ups add one summary per scope and ISO week
over the session summaries of that week (linking them as children, superseding none).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from memlane.clip import clip
from memlane.config import HygieneConfig
from memlane.index.embed import Embeddings, text_hash
from memlane.index.normalize import normalize_name
from memlane.types import Item
from memlane.store.contract import Store

__all__ = ["CompactReport", "compact"]

DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class CompactReport:
    decision_records: int
    summaries_absorbed: int
    weekly_rollups: int
    notice: str = ""
    """Why ``topic`` folded nothing: no active summary holds it, or only one does (empty
    otherwise; session 27: a mistyped topic folded nothing without a word)."""


def _topic(item: Item) -> str | None:
    for k in item.keywords:
        if k.startswith("topic:"):
            return k[len("topic:"):]
    return item.keywords[0] if item.keywords else None


def _topic_key(topic: str) -> str:
    """A topic as compared: case, punctuation, ``-`` and ``_`` folded ("Mental-Health",
    "mental_health" and "mental health" are one; "東京" is itself). Until session 27 the
    request was slugged and compared with a session summary's topic (its first tag, as the
    summarizer wrote it) as it was: "mental health" was never found, and a topic in another
    script was refused as having "no letters or digits", naming a field ``topics``."""
    return " ".join(normalize_name(topic).replace("_", " ").split())


def _merge(items: list[Item], key: str) -> list[str]:
    out: list[str] = []
    for it in items:
        for v in (it.extra.get("summary") or {}).get(key, []) or []:
            if v not in out:
                out.append(v)
    return out


def _day(ts: datetime) -> str:
    return ts.strftime("%Y-%m-%d")


def _decision_record(scope: str, topic: str, items: list[Item]) -> dict[str, Any]:
    decisions, rationale = _merge(items, "decisions"), _merge(items, "rationale")
    open_q, refs = _merge(items, "open_questions"), _merge(items, "references")
    narrative = "; ".join(
        f"{_day(it.at)}: {(it.extra.get('summary') or {}).get('topic', clip(it.text, 80))}" for it in items
    )
    lines = [f"Decision record · {scope} · topic {topic} · {_day(items[0].at)} to {_day(items[-1].at)}"]
    for label, values in (("Decisions", decisions), ("Rationale", rationale),
                          ("Open questions", open_q), ("References", refs)):
        if values:
            lines.append(f"{label}: " + "; ".join(values))
    lines.append(f"Narrative ({len(items)} sessions): {narrative}")
    return {
        "kind": "decision", "text": "\n".join(lines), "at": items[-1].at.timestamp(), "scope": scope,
        "agent": items[-1].agent, "project": items[-1].project, "lane": "semantic",
        "durability": "long", "source": "inferred", "keywords": [f"topic:{topic}"],
        "extra": {"topic": topic, "decisions": decisions, "rationale": rationale,
                  "open_questions": open_q, "references": refs, "absorbed": [i.id for i in items]},
    }


def compact(
    store: Store,
    embeddings: Embeddings,
    cfg: HygieneConfig,
    now: float,
    *,
    scope: str | None = None,
    topic: str | None = None,
) -> CompactReport:
    """Fold over-full or old topics into decision records, then write weekly roll-ups.
    ``topic`` (redacted as text is): fold the summaries of that topic, however it is
    spelled (case, punctuation), whatever their number or age."""
    summaries = [s for s in store.items_of_kind("summary", scope)
                 if not s.extra.get("rollup") and not s.extra.get("on_demand")]
    wanted = None if topic is None else _topic_key(topic)
    groups: dict[tuple[str, str], list[Item]] = defaultdict(list)
    for s in summaries:
        t = _topic(s)
        if t is not None and (wanted is None or _topic_key(t) == wanted):
            groups[(s.scope or "", t)].append(s)
    records = absorbed = 0
    for (sc, t), items in sorted(groups.items()):
        old = len(items) >= 2 and all(now - i.at.timestamp() > cfg.compact_older_than_days * DAY for i in items)
        if len(items) <= cfg.compact_min_summaries and not old and topic is None:
            continue
        if len(items) < 2:
            continue
        row = _decision_record(sc, t, items)
        new: list[tuple[bytes, Any]] = []  # cached with the record: not for one not written
        vec = embeddings.for_index([row["text"]], cache_later=new)
        with store.atomic():
            # read again under the scope's links lock: another compaction (two `memlane
            # compact` at once) may have folded these summaries since they were read, or a
            # worker written one again; each gave a second record of the same summaries.
            # The scope's facts lock first, as every erase takes it: an erase in flight
            # still showed its summary, and the record of it stayed (PostgreSQL)
            store.lock_items_facts([i.id for i in items])
            store.lock_links(sc or None)
            now_stored = store.get_items([i.id for i in items])
            if any(getattr(now_stored.get(i.id), "status", None) != "active" for i in items):
                continue
            store.cache_vectors(embeddings.model, new)
            (rid,) = store.insert_items([row])
            store.put_vectors(embeddings.model, [(rid, vec[0])])
            store.link_items(rid, [i.id for i in items], supersede=True)
            store.bump("decision_records")
            store.bump("summaries_absorbed", len(items))
        records += 1
        absorbed += len(items)
    notice = ""
    if topic is not None and not records:
        held = sum(len(v) for v in groups.values())
        where = f" in scope {scope!r}" if scope is not None else ""
        notice = (f"topic {topic!r}: no active summary holds it{where} (folded already, or "
                  "another spelling: a summary's topics are listed by memlane sessions show)"
                  if not held else f"topic {topic!r}: one summary holds it{where}, nothing to fold")
    return CompactReport(records, absorbed, _weekly(store, embeddings, now, scope), notice)


def _weekly_done(store: Store, scope: str | None) -> set[tuple[str, Any]]:
    """The (scope, ISO week) pairs that have their roll-up."""
    return {(r.scope or "", r.extra.get("week")) for r in store.items_of_kind("summary", scope)
            if r.extra.get("rollup") == "week"}


def _weekly(store: Store, embeddings: Embeddings, now: float, scope: str | None) -> int:
    done = _weekly_done(store, scope)
    weeks: dict[tuple[str, str], list[Item]] = defaultdict(list)
    for s in store.items_of_kind("summary", scope):
        if s.extra.get("rollup") or s.extra.get("on_demand"):
            continue
        year, week_no, _ = s.at.isocalendar()
        weeks[(s.scope or "", f"{year}-W{week_no:02d}")].append(s)
    rows: dict[str, list[tuple[dict[str, Any], list[Item]]]] = defaultdict(list)
    for (sc, week), items in sorted(weeks.items()):
        monday = datetime.fromisocalendar(int(week[:4]), int(week[6:]), 1).replace(tzinfo=UTC)
        if (sc, week) in done or len(items) < 2 or (monday + timedelta(days=7)).timestamp() > now:
            continue
        topics = "; ".join(clip((i.extra.get("summary") or {}).get("topic", ""), 100) for i in items)
        decisions = _merge(items, "decisions")
        text = f"Week {week} in {sc}: {len(items)} sessions. Topics: {topics}"
        if decisions:
            text += "\nDecisions: " + "; ".join(decisions)
        rows[sc].append(({"kind": "summary", "text": text, "at": items[-1].at.timestamp(),
                          "scope": sc, "lane": "episodic", "durability": "long",
                          "source": "inferred", "extra": {"rollup": "week", "week": week,
                                                          "children": [i.id for i in items]}},
                         items))
    made = 0
    for sc, todo in sorted(rows.items()):
        new: list[tuple[bytes, Any]] = []
        vecs = embeddings.for_index([row["text"] for row, _ in todo], cache_later=new)
        with store.atomic():
            # the scope's weeks looked for again under its links lock: two compactions at
            # once each wrote every roll-up (session 27); a week one of whose summaries
            # an erase or a worker took away since is left to the next run (linking it
            # failed the compaction: "item N does not exist"); the scope's facts lock
            # first, as for a decision record
            store.lock_items_facts([i.id for _, items in todo for i in items])
            store.lock_links(sc or None)
            done = _weekly_done(store, sc or None)
            written: set[bytes] = set()
            for (row, items), vec in zip(todo, vecs, strict=True):
                if ((sc, row["extra"]["week"]) in done
                        or len(store.get_items([i.id for i in items])) < len(items)):
                    continue
                written.add(text_hash(row["text"]))
                (rid,) = store.insert_items([row])
                store.put_vectors(embeddings.model, [(rid, vec)])
                store.link_items(rid, [i.id for i in items], supersede=False)
                store.bump("weekly_rollups")
                made += 1
            store.cache_vectors(embeddings.model, [(h, v) for h, v in new if h in written])
    return made
