"""The LongMemEval retrieval runner.

For each question, a fresh memlane database (a temporary SQLite file, deleted after)
receives the question's haystack sessions with their real dates (in date order, the order
a live assistant would have seen them): one ``add_message`` per turn, ``close_session``
after each session; then ``index(now=question_date)`` and
``search(question, k=..., now=question_date)``. The turn ranking is the hits' turn ids
``<haystack session id>_<turn index>``; the session ranking is the first-occurrence distinct
sessions of it. One cached embedder is shared by every question, so a session appearing in
many haystacks is embedded once.

Baselines (``bm25``, ``dense``) rank the same haystacks; see ``memlane.bench.baselines``.
Scoring follows ``memlane.bench.metrics`` (the official definitions); abstention questions
and questions without a gold user turn are ranked and written but left out of the averages.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import click

from memlane.bench.baselines import BM25Ranker, DenseRanker
from memlane.bench.datasets import LMEQuestion
from memlane.bench.memrun import (
    FreshMemory,
    SessionInput,
    Timings,
    TurnInput,
    percentile,
    tier_of,
)
from memlane.bench.metrics import KS, aggregate, dedupe, score_ranking, sessions_from_turns
from memlane.protocols import Embedder

__all__ = ["HEADLINE", "LMERun", "SystemRun", "run_longmemeval", "select_questions"]

HEADLINE = ("session", "recall_all@5")
"""The headline metric: session recall_all@5 (every evidence session in the top 5)."""

SCOPE = "longmemeval"
MIN_IDS = 50
MAX_K = 1000
"""Memory.search accepts k up to 1000."""


@dataclass
class SystemRun:
    """One system's rankings, latencies and per-question scores."""

    name: str
    session_rankings: dict[str, list[str]] = field(default_factory=dict)
    turn_rankings: dict[str, list[str]] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    scores: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    """question id -> level ("session" / "turn") -> metric -> value (evaluable questions)."""
    note: str = ""

    def summary(self, types: dict[str, str], ks: Sequence[int] = KS) -> dict[str, Any]:
        levels: dict[str, Any] = {}
        for level in ("session", "turn"):
            rows = [(types[q], s[level]) for q, s in self.scores.items() if level in s]
            if rows:
                levels[level] = aggregate(rows)
        return {"note": self.note, "levels": levels, "latency_ms": self.latency_summary()}

    def latency_summary(self) -> dict[str, Any]:
        lat = self.latencies
        return {
            "p50": round(1000 * percentile(lat, 50), 2) if lat else None,
            "p95": round(1000 * percentile(lat, 95), 2) if lat else None,
            "n": len(lat),
        }


@dataclass
class LMERun:
    questions: list[LMEQuestion]
    systems: dict[str, SystemRun]
    timings: Timings
    wall_seconds: float
    embedder: str
    search_k: str
    now_mode: str = "question"
    cache: dict[str, int] = field(default_factory=dict)

    @property
    def evaluable(self) -> list[LMEQuestion]:
        return [q for q in self.questions if q.evaluable]

    def summary(self) -> dict[str, Any]:
        qs = self.questions
        types = {q.question_id: q.question_type for q in qs}
        n_abs = sum(q.is_abstention for q in qs)
        future = [
            q.question_id
            for q in qs
            if q.evaluable
            and any(s.date > q.question_date for s in q.sessions if s.id in q.gold_session_ids)
        ]
        return {
            "dataset": "longmemeval",
            "n_questions": len(qs),
            "n_evaluated": len(self.evaluable),
            "excluded": {
                "abstention": n_abs,
                "no_gold_user_turn": len(qs) - n_abs - len(self.evaluable),
            },
            "question_types": dict(sorted(_count(q.question_type for q in self.evaluable).items())),
            "gold_after_question_date": len(future),
            "headline": {
                "metric": f"{HEADLINE[0]} {HEADLINE[1]}",
                **{
                    name: s.summary(types)["levels"]
                    .get(HEADLINE[0], {})
                    .get("overall", {})
                    .get(HEADLINE[1])
                    for name, s in self.systems.items()
                },
            },
            "systems": {name: s.summary(types) for name, s in self.systems.items()},
            "knowledge_update_newest_first": {
                name: newest_first_rate(self.evaluable, s.session_rankings)
                for name, s in self.systems.items()
            },
            "indexing": self.timings.as_dict(),
            "embedder": self.embedder,
            "embed_cache": self.cache,
            "search_k": self.search_k,
            "now_mode": self.now_mode,
            "wall_seconds": round(self.wall_seconds, 1),
        }


def newest_first_rate(
    questions: Sequence[LMEQuestion], rankings: dict[str, list[str]]
) -> dict[str, Any]:
    """knowledge-update questions with evidence in sessions of different dates: how often
    the newest evidence session ranks above every older one (the stale value); ``missed``
    lists the questions where it did not, to read one by one."""
    hits = total = 0
    missed: list[str] = []
    for q in questions:
        if q.question_type != "knowledge-update" or q.question_id not in rankings:
            continue
        dated = sorted((s.date, s.id) for s in q.sessions if s.id in q.gold_session_ids)
        if len(dated) < 2 or dated[-1][0] == dated[0][0]:
            continue
        ranked = rankings[q.question_id]
        pos = {sid: i for i, sid in enumerate(ranked)}
        newest = pos.get(dated[-1][1], len(ranked))
        older = [pos.get(sid, len(ranked)) for _, sid in dated[:-1]]
        total += 1
        hits += newest < min(older)
        if newest >= min(older):
            missed.append(q.question_id)
    return {"rate": round(hits / total, 3) if total else None, "n": total, "missed": missed}


def _count(items: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in items:
        out[i] = out.get(i, 0) + 1
    return out


def select_questions(
    questions: Sequence[LMEQuestion], types: Sequence[str] | None = None, limit: int | None = None
) -> list[LMEQuestion]:
    """Keep the given question types (all if None), then the first ``limit``."""
    out = [q for q in questions if not types or q.question_type in types]
    return out[:limit] if limit is not None else out


def _score(
    q: LMEQuestion, session_ranking: list[str] | None, turn_ranking: list[str] | None
) -> dict[str, dict[str, float]]:
    out = {}
    if session_ranking is not None:
        out["session"] = score_ranking(session_ranking, q.gold_session_ids)
    if turn_ranking is not None:
        out["turn"] = score_ranking(turn_ranking, q.gold_turn_ids)
    return out


def _record(
    sys_run: SystemRun, q: LMEQuestion, sessions: list[str] | None, turns: list[str] | None
) -> None:
    if sessions is not None:
        sys_run.session_rankings[q.question_id] = sessions
    if turns is not None:
        sys_run.turn_rankings[q.question_id] = turns
    if q.evaluable:
        sys_run.scores[q.question_id] = _score(q, sessions, turns)


def question_now(q: LMEQuestion, now_mode: str = "question") -> datetime:
    """``question``: the question's date; ``latest``: also no earlier than the last session."""
    if now_mode == "question" or not q.sessions:
        return q.question_date
    if now_mode == "latest":
        return max(q.question_date, max(s.date for s in q.sessions))
    raise ValueError(f"now_mode must be 'question' or 'latest', got {now_mode!r}")


def _memlane_question(
    q: LMEQuestion,
    embedder: Embedder,
    config: Any,
    search_k: int | None,
    timings: Timings,
    now_mode: str = "question",
    qa: Callable[[Any, LMEQuestion, datetime, str], None] | None = None,
    extra: dict[str, list[str]] | None = None,
    extra_latency: dict[str, float] | None = None,
    warm: bool = False,
) -> list[str]:
    """memlane's turn ranking; each preset named in ``extra`` also fills its list there."""
    ordered = sorted(q.sessions, key=lambda s: s.date)  # stable: haystack order on ties
    inputs = [
        SessionInput(s.date, [TurnInput(t.id, t.role, t.content) for t in s.turns]) for s in ordered
    ]
    k = search_k if search_k is not None else min(MAX_K, max(MIN_IDS, q.n_turns))
    with FreshMemory(embedder, config=config) as fm:
        key = fm.ingest(SCOPE, inputs, timings)
        now = question_now(q, now_mode)
        fm.index(now, timings)
        if warm:
            fm.warm(SCOPE, timings)
        ranked = dedupe(fm.search(q.question, SCOPE, k, now, key, timings))
        for name, ranking in (extra or {}).items():
            side = Timings()
            ranking[:] = dedupe(fm.search(q.question, SCOPE, k, now, key, side, preset=name))
            if extra_latency is not None:
                extra_latency[name] = side.search_seconds[-1]
        if qa is not None:
            qa(fm.mem, q, now, fm.scope_of(SCOPE))
        return ranked


def _bm25_question(q: LMEQuestion, bm25: BM25Ranker) -> tuple[list[str], list[str]]:
    sess_docs = [" ".join(t.content for t in s.turns if t.role == "user") for s in q.sessions]
    sessions = dedupe(bm25.rank(sess_docs, [s.id for s in q.sessions], q.question))
    user_turns = [t for s in q.sessions for t in s.turns if t.role == "user"]
    turns = dedupe(
        bm25.rank([t.content for t in user_turns], [t.id for t in user_turns], q.question)
    )
    return sessions, turns


def _dense_question(q: LMEQuestion, dense: DenseRanker) -> list[str]:
    all_turns = [t for s in q.sessions for t in s.turns]
    return dedupe(dense.rank([t.content for t in all_turns], [t.id for t in all_turns], q.question))


def run_longmemeval(
    questions: Sequence[LMEQuestion],
    *,
    embedder: Embedder,
    baselines: Sequence[str] = (),
    config: Any = None,
    search_k: int | None = None,
    now_mode: str = "question",
    progress: bool = False,
    on_question: Callable[[LMEQuestion], None] | None = None,
    qa: Callable[[Any, LMEQuestion, datetime, str], None] | None = None,
    presets: Sequence[str] = (),
    warm: bool = False,
    done: dict[str, dict[str, Any]] | None = None,
    on_done: Callable[[dict[str, Any]], None] | None = None,
) -> LMERun:
    """Rank every question's haystack with memlane and the baselines; score them.

    ``on_done`` is given each question's entry as it is finished (``progress.jsonl``);
    ``done`` holds the entries an earlier process of the run finished (question id ->
    entry), recorded instead of running their questions again.

    Each name in ``presets`` is also searched on the same database (``Memory.search(
    preset=name)``) and reported as system ``memlane:<name>``. ``warm``: the meaning
    tier's vectors of every session are computed after indexing, as the index worker does
    (``FreshMemory.warm``), so its queries are warm.
    """
    start = time.perf_counter()
    timings = Timings()
    memlane = SystemRun(
        "memlane", note="memlane search over turns (configured retrieval); sessions = distinct "
        f"sessions of the turn ranking; tier: {tier_of(config)}"
    )
    systems = {"memlane": memlane}
    for name in presets:
        systems[f"memlane:{name}"] = SystemRun(
            f"memlane:{name}", note=f"memlane search with preset {name}, same database; "
            f"tier: {tier_of(config, name)}")
    bm25 = dense = None
    if "bm25" in baselines:
        bm25 = BM25Ranker()
        systems["bm25"] = SystemRun(
            "bm25", note="bm25s over user turns (turn) and sessions' user turns joined (session)"
        )
    if "dense" in baselines:
        dense = DenseRanker(embedder)
        systems["dense"] = SystemRun(
            "dense",
            note=f"cosine over all turns with {embedder.name}; session = max over its turns",
        )

    done = done or {}
    replayed = {"seconds": 0.0, "cache": {}}
    with click.progressbar(
        list(questions),
        label="longmemeval",
        file=sys.stderr if progress else _Null(),
        show_pos=True,
        item_show_func=lambda q: q.question_id if q else None,
    ) as bar:
        for q in bar:
            entry = done.get(q.question_id)
            if entry is None:
                entry = _question_entry(q, embedder, config, search_k, now_mode, qa, presets,
                                        warm, bm25, dense)
                if on_done is not None:
                    on_done(entry)
            else:
                _add_replayed(replayed, entry)
            _apply_entry(entry, q, systems, timings, qa)
            if on_question is not None:
                on_question(q)
    return LMERun(
        questions=list(questions),
        systems=systems,
        timings=timings,
        wall_seconds=time.perf_counter() - start + replayed["seconds"],
        embedder=getattr(embedder, "name", type(embedder).__name__),
        search_k=str(search_k)
        if search_k is not None
        else f"min({MAX_K}, max({MIN_IDS}, haystack turns))",
        now_mode=now_mode,
        cache=cache_counts(embedder, replayed["cache"]),
    )


def cache_counts(embedder: Any, replayed: dict[str, int] | None = None) -> dict[str, int]:
    """The embedding cache's hits and misses: this process's, and those of the units an
    earlier process of a resumed run finished."""
    return {a: int(getattr(embedder, a)) + (replayed or {}).get(a, 0)
            for a in ("hits", "misses") if hasattr(embedder, a)}


def _add_replayed(acc: dict[str, Any], entry: dict[str, Any]) -> None:
    """Sum the seconds and cache counts of a unit an earlier process finished."""
    acc["seconds"] += entry.get("seconds", 0.0)
    for a, n in entry.get("cache", {}).items():
        acc["cache"][a] = acc["cache"].get(a, 0) + n


def _question_entry(
    q: LMEQuestion, embedder: Embedder, config: Any, search_k: int | None, now_mode: str,
    qa: Callable[[Any, LMEQuestion, datetime, str], None] | None, presets: Sequence[str],
    warm: bool, bm25: BM25Ranker | None, dense: DenseRanker | None,
) -> dict[str, Any]:
    """One question run: every system's rankings and latency, the counters and times it
    added, its answer rows (a line of ``progress.jsonl``, see ``memlane.bench.progress``)."""
    t_start = time.perf_counter()
    cache0 = cache_counts(embedder)
    rows = getattr(qa, "rows", None)
    n_rows = len(rows) if rows is not None else 0
    timings = Timings()
    extra: dict[str, list[str]] = {name: [] for name in presets}
    extra_latency: dict[str, float] = {}
    turns = _memlane_question(q, embedder, config, search_k, timings, now_mode, qa,
                              extra, extra_latency, warm)
    rankings: dict[str, dict[str, list[str]]] = {"memlane": {"turn": turns}}
    latency = {"memlane": timings.search_seconds[-1]}
    for name, ranking in extra.items():
        rankings[f"memlane:{name}"] = {"turn": ranking}
        latency[f"memlane:{name}"] = extra_latency[name]
    if bm25 is not None:
        t0 = time.perf_counter()
        s_rank, t_rank = _bm25_question(q, bm25)
        latency["bm25"] = time.perf_counter() - t0
        rankings["bm25"] = {"session": s_rank, "turn": t_rank}
    if dense is not None:
        t0 = time.perf_counter()
        rankings["dense"] = {"turn": _dense_question(q, dense)}
        latency["dense"] = time.perf_counter() - t0
    answers = []
    if rows is not None:  # the recorder's rows come back in _apply_entry, as a replayed one's
        answers = rows[n_rows:]
        del rows[n_rows:]
    cache = cache_counts(embedder)
    return {"question_id": q.question_id, "rankings": rankings, "latency": latency,
            "timings": timings.state(), "qa": answers,
            "cache": {a: n - cache0[a] for a, n in cache.items()},
            "seconds": time.perf_counter() - t_start}


def _apply_entry(entry: dict[str, Any], q: LMEQuestion, systems: dict[str, SystemRun],
                 timings: Timings, qa: Any) -> None:
    """Record a question's entry, run now or by an earlier process: the same path both
    ways, so a resumed run's report is the one an uninterrupted run writes."""
    for name, sys_run in systems.items():
        got = entry["rankings"][name]
        turns = got["turn"]
        _record(sys_run, q, got["session"] if "session" in got else sessions_from_turns(turns),
                turns)
        sys_run.latencies.append(entry["latency"][name])
    timings.merge(entry["timings"])
    if qa is not None and hasattr(qa, "rows"):
        qa.rows.extend(entry["qa"])


class _Null:
    """A write-only sink for a silent progress bar."""

    def write(self, s: str) -> int:
        return len(s)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False
