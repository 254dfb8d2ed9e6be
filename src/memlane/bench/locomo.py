"""The LoCoMo retrieval runner.

One fresh memlane database per conversation: its sessions in order, each with its date,
one ``add_message`` per dialog turn (role = the speaker's name, text = the turn's text and
the description of a photo it shares, see ``turn_text``),
``close_session`` after each session, then ``index(now=<last session date>)`` and one
``search`` per question (``now`` = the last session date: LoCoMo questions carry no date).
The ranking is the hits' dia_ids, best first. Scores are evidence recall_any@k,
recall_all@k and ndcg_any@k per category; category 5 (adversarial, unanswerable) is
reported apart and not in "overall". Evidence strings naming no turn of the conversation
are dropped from the gold; a question left without evidence is not scored.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import click

from memlane.bench.baselines import BM25Ranker, DenseRanker
from memlane.bench.datasets import DialogTurn, LoCoMoConversation, LoCoMoQA
from memlane.bench.longmemeval import SystemRun, _add_replayed, _Null, cache_counts
from memlane.bench.memrun import FreshMemory, SessionInput, Timings, TurnInput, tier_of
from memlane.bench.metrics import aggregate, dedupe, score_ranking
from memlane.protocols import Embedder

__all__ = ["HEADLINE", "LoCoMoRun", "evidence_places", "run_locomo", "turn_levels", "turn_text"]

HEADLINE = ("turn", "recall_all@10")
"""LoCoMo headline: evidence recall_all@10 over categories 1-4."""

SCOPE = "locomo"
SEARCH_K = 100
ADVERSARIAL = "category 5 (adversarial)"


def category_label(category: int) -> str:
    return ADVERSARIAL if category == 5 else f"category {category}"


@dataclass
class LoCoMoRun:
    conversations: list[LoCoMoConversation]
    systems: dict[str, SystemRun]
    timings: Timings
    wall_seconds: float
    embedder: str
    role_mode: str
    cache: dict[str, int] = field(default_factory=dict)

    @property
    def questions(self) -> list[LoCoMoQA]:
        return [qa for c in self.conversations for qa in c.qa]

    def summary(self) -> dict[str, Any]:
        qs = self.questions
        labels = {qa.qa_id: category_label(qa.category) for qa in qs}
        systems = {}
        for name, s in self.systems.items():
            levels = turn_levels({q: m["turn"] for q, m in s.scores.items()}, labels)
            by_conv = [(q.rsplit(":", 1)[0], m["turn"]) for q, m in s.scores.items()
                       if labels[q] != ADVERSARIAL]
            systems[name] = {"note": s.note, "levels": levels, "latency_ms": s.latency_summary(),
                             "evidence_places": _places(s, qs, labels),
                             "by_conversation": aggregate(by_conv, overall=False)}
        scored = {q for s in self.systems.values() for q in s.scores}
        return {
            "dataset": "locomo",
            "n_conversations": len(self.conversations),
            "n_questions": len(qs),
            "n_evaluated": len(scored),
            "excluded": {"no_valid_evidence": sum(1 for qa in qs if not qa.evidence)},
            "dropped_evidence": [e for c in self.conversations for e in c.dropped_evidence],
            "headline": {
                "metric": f"evidence {HEADLINE[1]} (categories 1-4)",
                **{
                    name: s["levels"].get(HEADLINE[0], {}).get("overall", {}).get(HEADLINE[1])
                    for name, s in systems.items()
                },
            },
            "systems": systems,
            "indexing": self.timings.as_dict(),
            "embedder": self.embedder,
            "embed_cache": self.cache,
            "role_mode": self.role_mode,
            "turn_text": "text + [shares a photo: <blip_caption>]",
            "search_k": SEARCH_K,
            "wall_seconds": round(self.wall_seconds, 1),
        }


def turn_levels(scores: dict[str, dict[str, float]], labels: dict[str, str]
                ) -> dict[str, dict[str, dict[str, float]]]:
    """``{"turn": {category: means, "overall": means}}`` of per-question scores (qa id ->
    metric -> value): category 5 (adversarial) apart, not in "overall"."""
    normal = [(labels[q], m) for q, m in scores.items() if labels[q] != ADVERSARIAL]
    adv = [(labels[q], m) for q, m in scores.items() if labels[q] == ADVERSARIAL]
    levels = {"turn": aggregate(normal)} if normal else {}
    if adv:
        levels.setdefault("turn", {}).update(aggregate(adv, overall=False))
    return levels


PLACES = ("top 10", "11-100", f"not in the first {SEARCH_K}")


def evidence_places(ranking: Sequence[str], evidence: Sequence[str]) -> dict[str, int]:
    """How many of ``evidence`` (deduplicated) the ranking puts in its first 10, at 11 to
    ``SEARCH_K``, and not among its first ``SEARCH_K`` (docs/retrieval.md, tenth round: the
    place says what could bring a piece in; a final list that covers more sessions can only
    move the middle one)."""
    rank = {d: r for r, d in enumerate(ranking[:SEARCH_K], start=1)}
    out = dict.fromkeys(PLACES, 0)
    for e in dict.fromkeys(evidence):
        r = rank.get(e)
        out[PLACES[0] if r is not None and r <= 10 else PLACES[1] if r is not None
            else PLACES[2]] += 1
    return out


def _places(s: SystemRun, qs: Sequence[LoCoMoQA], labels: dict[str, str]
            ) -> dict[str, dict[str, int]]:
    """``evidence_places`` summed per category over the questions this system scored."""
    out: dict[str, dict[str, int]] = {}
    for qa in qs:
        if qa.qa_id not in s.scores:
            continue
        got = evidence_places(s.turn_rankings.get(qa.qa_id, []), qa.evidence)
        acc = out.setdefault(labels[qa.qa_id], dict.fromkeys(PLACES, 0))
        for k, v in got.items():
            acc[k] += v
    return dict(sorted(out.items()))


def turn_text(turn: DialogTurn) -> str:
    """What a chat client would send for this turn: its text and, when the speaker shared
    a photo, the image's description ("[shares a photo: a photo of a pottery bowl]"). The
    dataset gives the caption apart (``blip_caption``), and the answer is often in it."""
    if turn.blip_caption and turn.blip_caption.strip():
        return f"{turn.text} [shares a photo: {turn.blip_caption.strip()}]"
    return turn.text


def _inputs(conv: LoCoMoConversation, role_mode: str) -> list[SessionInput]:
    def role(speaker: str) -> str:
        if role_mode == "speaker":
            return speaker
        if role_mode == "user":
            return "user"  # both speakers are people; speaker names are kept as speaker
        return "user" if speaker == conv.speaker_a else "assistant"

    return [
        SessionInput(
            s.date,
            [TurnInput(t.dia_id, role(t.speaker), turn_text(t), t.speaker) for t in s.turns],
        )
        for s in conv.sessions
    ]


def _role_mode(embedder: Embedder, config: Any, speaker: str, roles: str = "user") -> str:
    """ "speaker" if add_message takes a speaker's name as role, else ``roles``: "user" (both
    speakers as user, the default: LoCoMo's speakers are two people) or "user/assistant"
    (the first speaker as user, the second as assistant)."""
    from memlane.errors import ValidationError

    with FreshMemory(embedder, config=config) as fm:
        try:
            fm.mem.add_message("probe", speaker, "probe")
        except ValidationError as exc:
            if getattr(exc, "field", None) == "role":
                return roles
            raise
    return "speaker"


def _memlane_conversation(
    conv: LoCoMoConversation, embedder: Embedder, config: Any, timings: Timings, role_mode: str,
    presets: Sequence[str] = (),
    warm: bool = False,
) -> tuple[dict[str | None, dict[str, list[str]]], dict[str, list[float]]]:
    """Rankings per preset (``None``: the configured search) per question id, and each
    preset's search latencies."""
    now = max(s.date for s in conv.sessions)
    with FreshMemory(embedder, config=config) as fm:
        key = fm.ingest(SCOPE, _inputs(conv, role_mode), timings)
        fm.index(now, timings)
        if warm:
            fm.warm(SCOPE, timings)
        out: dict[str | None, dict[str, list[str]]] = {None: {}, **{p: {} for p in presets}}
        side = {p: Timings() for p in presets}
        for qa in conv.qa:
            out[None][qa.qa_id] = dedupe(fm.search(qa.question, SCOPE, SEARCH_K, now, key, timings))
            for p in presets:
                out[p][qa.qa_id] = dedupe(
                    fm.search(qa.question, SCOPE, SEARCH_K, now, key, side[p], preset=p))
        return out, {p: t.search_seconds for p, t in side.items()}


def run_locomo(
    conversations: Sequence[LoCoMoConversation],
    *,
    embedder: Embedder,
    baselines: Sequence[str] = (),
    config: Any = None,
    progress: bool = False,
    presets: Sequence[str] = (),
    roles: str = "user",
    warm: bool = False,
    done: dict[str, dict[str, Any]] | None = None,
    on_done: Callable[[dict[str, Any]], None] | None = None,
) -> LoCoMoRun:
    """Rank every question's evidence turns with memlane and the baselines; score them.

    ``on_done`` is given each conversation's entry as it is finished (``progress.jsonl``);
    ``done`` holds the entries an earlier process of the run finished (sample id ->
    entry), recorded instead of running their conversations again.

    Each name in ``presets`` is also searched (system ``memlane:<name>``). ``roles``: how
    speakers become roles when add_message refuses their names (see ``_role_mode``).
    ``warm``: the meaning tier's vectors of every session are computed after indexing, as
    the index worker does (``FreshMemory.warm``), so its queries are warm.
    """
    start = time.perf_counter()
    timings = Timings()
    systems = {"memlane": SystemRun(
        "memlane", note=f"memlane search over dialog turns; tier: {tier_of(config)}")}
    for p in presets:
        systems[f"memlane:{p}"] = SystemRun(
            f"memlane:{p}", note=f"memlane search with preset {p}; tier: {tier_of(config, p)}")
    rankers: dict[str, Any] = {}
    if "bm25" in baselines:
        rankers["bm25"] = BM25Ranker()
        systems["bm25"] = SystemRun("bm25", note="bm25s over single dialog turns")
    if "dense" in baselines:
        rankers["dense"] = DenseRanker(embedder)
        systems["dense"] = SystemRun("dense", note=f"cosine over dialog turns with {embedder.name}")
    speakers = [c.speaker_a for c in conversations if c.speaker_a]
    role_mode = _role_mode(embedder, config, speakers[0], roles) if speakers else "speaker"

    done = done or {}
    replayed: dict[str, Any] = {"seconds": 0.0, "cache": {}}
    with click.progressbar(
        list(conversations),
        label="locomo",
        file=sys.stderr if progress else _Null(),
        show_pos=True,
        item_show_func=lambda c: c.sample_id if c else None,
    ) as bar:
        for conv in bar:
            entry = done.get(conv.sample_id)
            if entry is None:
                entry = _conversation_entry(conv, embedder, config, role_mode, presets, warm,
                                            rankers)
                if on_done is not None:
                    on_done(entry)
            else:
                _add_replayed(replayed, entry)
            for name, sys_run in systems.items():
                for qa in conv.qa:
                    _record(sys_run, qa, entry["rankings"][name][qa.qa_id])
                sys_run.latencies.extend(entry["latency"][name])
            timings.merge(entry["timings"])
    return LoCoMoRun(
        conversations=list(conversations),
        systems=systems,
        timings=timings,
        wall_seconds=time.perf_counter() - start + replayed["seconds"],
        embedder=getattr(embedder, "name", type(embedder).__name__),
        role_mode=role_mode,
        cache=cache_counts(embedder, replayed["cache"]),
    )


def _conversation_entry(
    conv: LoCoMoConversation, embedder: Embedder, config: Any, role_mode: str,
    presets: Sequence[str], warm: bool, rankers: dict[str, Any],
) -> dict[str, Any]:
    """One conversation run: every system's ranking of each question and its latencies,
    the counters and times it added (a line of ``progress.jsonl``). The conversation is the
    unit: its questions are searched one after another on one database, and a search
    records when the facts it returned were used (``confidence.touch_on_access``), so a
    question's ranking depends on the searches before it."""
    t_start = time.perf_counter()
    cache0 = cache_counts(embedder)
    timings = Timings()
    ranked, side = _memlane_conversation(conv, embedder, config, timings, role_mode,
                                         presets, warm)
    rankings: dict[str, dict[str, list[str]]] = {"memlane": ranked[None]}
    latency: dict[str, list[float]] = {"memlane": list(timings.search_seconds)}
    for p in presets:
        rankings[f"memlane:{p}"] = ranked[p]
        latency[f"memlane:{p}"] = side[p]
    turns = [t for s in conv.sessions for t in s.turns]
    docs, ids = [turn_text(t) for t in turns], [t.dia_id for t in turns]
    for name, ranker in rankers.items():
        rankings[name], latency[name] = {}, []
        for qa in conv.qa:
            t0 = time.perf_counter()
            rankings[name][qa.qa_id] = dedupe(ranker.rank(docs, ids, qa.question))
            latency[name].append(time.perf_counter() - t0)
    cache = cache_counts(embedder)
    return {"sample_id": conv.sample_id, "rankings": rankings, "latency": latency,
            "timings": timings.state(),
            "cache": {a: n - cache0[a] for a, n in cache.items()},
            "seconds": time.perf_counter() - t_start}


def _record(sys_run: SystemRun, qa: LoCoMoQA, ranking: list[str]) -> None:
    sys_run.turn_rankings[qa.qa_id] = ranking
    if qa.evidence:
        sys_run.scores[qa.qa_id] = {"turn": score_ranking(ranking, qa.evidence)}
