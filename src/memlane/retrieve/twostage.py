"""Session-aware two-stage retrieval, and the flat search it generalises.

Stage one ranks sessions: every candidate item (turns, summaries, facts, entities) of
the fused lexical + vector lists votes for its session; a session's score is its best
turns' relevance plus their per-kind bonus (the best counts fully, the next ones decay),
plus its summary and facts' relevance (``intel_weight``), scaled up by how well its time
matches dates named in the query and by the share of the entities the query names that it
holds (``entity_boost``).
Stage two ranks the turns inside each of the top S sessions (those in the candidate
lists, or, when these hold fewer than T of its turns, by lexical and vector search
restricted to the session) and keeps T of them. The S×T turns (and candidate summaries
and facts of those sessions) are reranked with the signals of ``memlane.retrieve.rerank``
into the first K hits; the ranking then continues session by session in stage-one order,
so a long ``k`` still lists sessions as stage one ranked them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memlane.retrieve.candidates import Candidate
from memlane.retrieve.order import by_session
from memlane.retrieve.rerank import time_match
from memlane.retrieve.timeparse import TimeWindow
from memlane.types import Item

__all__ = ["SessionScore", "StageParams", "dated_sessions", "rank_sessions"]

SessionKey = Any
"""A session id, or ``("item", id)`` for an item outside any session."""


@dataclass(frozen=True, slots=True)
class StageParams:
    """Knobs of stage one that are structural rather than weights."""

    depth: int = 3
    """How many of a session's best turns count toward its score."""
    decay: float = 0.3
    """Weight of the j-th best turn is ``decay ** j`` (j from 0)."""
    intel_weight: float = 0.5
    """Weight of the session's best summary / fact / entity candidate."""
    time_boost: float = 1.0
    """A session fully inside a named window scores ``× (1 + time_boost)``."""
    entity_boost: float = 0.0
    """A session holding every entity the query names (other than the speakers) scores
    ``× (1 + entity_boost)``, one holding a share of them ``× (1 + entity_boost × share)``."""
    lift: float = 1.0
    """A fact or observation candidate lifts its source turn to ``lift ×`` its relevance."""
    bonus: Mapping[str, float] = field(default_factory=dict)
    """Added to a candidate's relevance by kind (``turn.user`` for user turns)."""


@dataclass(slots=True)
class SessionScore:
    key: SessionKey
    score: float = 0.0
    turns: float = 0.0
    intel: float = 0.0
    time: float = 0.0
    rank: int = 0
    turn_relevance: list[float] = field(default_factory=list)


def kind_key(item: Item) -> str:
    """``turn.user`` / ``turn.assistant`` for turns with a role, else the item's kind."""
    return f"turn.{item.role}" if item.kind == "turn" and item.role else item.kind


def session_key(item: Item) -> SessionKey:
    return item.session_id if item.session_id is not None else ("item", item.id)


def local(at: datetime, now: datetime) -> datetime:
    """``at`` as a naive datetime in ``now``'s zone (how time windows are expressed)."""
    if at.tzinfo is not None and now.tzinfo is not None:
        at = at.astimezone(now.tzinfo)
    return at.replace(tzinfo=None)


def dated_sessions(cands: Sequence[Candidate], items: dict[int, Item],
                   windows: Sequence[TimeWindow], now: datetime | None) -> dict[SessionKey, float]:
    """Sessions holding an observation dated by the event it tells ("last weekend", see
    ``memlane.index.eventdate``), with how well that date matches the query's windows."""
    dated: dict[SessionKey, float] = {}
    if not windows or now is None:
        return dated
    for c in cands:
        it = items.get(c.id)
        if it is not None and it.kind == "observation" and "event_date" in it.extra:
            key = session_key(it)
            dated[key] = max(dated.get(key, 0.0), time_match(local(it.at, now), windows))
    return dated


def rank_sessions(
    cands: Sequence[Candidate],
    items: dict[int, Item],
    params: StageParams,
    windows: Sequence[TimeWindow] = (),
    now: datetime | None = None,
    time_of: dict[SessionKey, datetime] | None = None,
    dated: dict[SessionKey, float] | None = None,
    entities: Mapping[SessionKey, float] | None = None,
) -> list[SessionScore]:
    """Stage one: sessions by the candidates that fall in them, best first.

    ``time_of`` gives each session's time for matching query windows (default: the time
    of its first candidate); ``dated`` a better match some of its items' own dates give
    (default: ``dated_sessions`` of the candidates); ``entities`` the share of the query's
    entities each session holds (``params.entity_boost``). Equal scores are ordered by session id
    (``memlane.retrieve.order.by_session``), whatever order the candidates came in.
    """
    out: dict[SessionKey, SessionScore] = {}
    first_at: dict[SessionKey, datetime] = {}
    bonus = params.bonus
    # the bonus of a turn by its role, of another item by its kind: ``bonus.get(kind_key(it),
    # 0.0)`` without building the key for each of a search's ~400 candidates (about 200
    # sessions each at 1M items)
    turn_bonus: dict[str | None, float] = {}
    kind_bonus: dict[str, float] = {}
    get = items.get
    out_get = out.get
    for c in cands:
        it = get(c.id)
        if it is None:
            continue
        sid = it.session_id
        key = sid if sid is not None else ("item", it.id)  # session_key(it)
        s = out_get(key)
        if s is None:  # SessionScore(key), its defaults given (no default factory to call)
            s = out[key] = SessionScore(key, 0.0, 0.0, 0.0, 0.0, 0, [])
            first_at[key] = it.at
        kind = it.kind
        if kind == "turn":
            role = it.role
            b = turn_bonus.get(role)
            if b is None:
                b = turn_bonus[role] = bonus.get(kind_key(it), 0.0)
            s.turn_relevance.append(c.relevance + b)
            continue
        b = kind_bonus.get(kind)
        if b is None:
            b = kind_bonus[kind] = bonus.get(kind_key(it), 0.0)
        rel = c.relevance + b
        if sid is None:
            s.turn_relevance.append(rel)
        elif rel > s.intel:  # max(s.intel, rel)
            s.intel = rel
    dated = dated_sessions(cands, items, windows, now) if dated is None else dated
    depth, decay, intel_weight = params.depth, params.decay, params.intel_weight
    timed = bool(windows) and now is not None
    for key, s in out.items():
        if len(s.turn_relevance) == 1 and depth > 0:
            # most sessions have one candidate turn: the sum below of that one term,
            # ``0 + r * decay**0``, is ``0.0 + r`` to the bit
            s.turns = 0.0 + s.turn_relevance[0]
        else:
            rel = sorted(s.turn_relevance, reverse=True)[:depth]
            s.turns = sum(r * decay**j for j, r in enumerate(rel))
        s.score = s.turns + intel_weight * s.intel
        if timed:
            at = (time_of or {}).get(key) or first_at[key]
            if at is not None:
                s.time = max(time_match(local(at, now), windows), dated.get(key, 0.0))
                s.score *= 1.0 + params.time_boost * s.time
        if entities and (share := entities.get(key)):
            s.score *= 1.0 + params.entity_boost * share
    # best first, equal scores by session id (``order.session_order``), not by the order
    # the candidates came in: that differs between stores (session 36)
    ranked = sorted(out.values(), key=by_session)
    for r, s in enumerate(ranked, start=1):
        s.rank = r
    return ranked
