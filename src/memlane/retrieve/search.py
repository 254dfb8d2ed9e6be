"""Search: candidates, then flat or session-aware (two-stage) ranking, reranked and explained.

``search`` is what ``Memory.search`` calls. Flat: every fused candidate is scored by the
preset's signals. Session-aware: see ``memlane.retrieve.twostage``. Either way each hit's
``scores`` holds every signal's value, the raw components (``lexical``: BM25 with
``lexical_rank``; ``vector``: cosine with ``vector_rank``; ``rrf``) and the rank it had at
each stage (``candidate_rank``, ``session_rank``, ``turn_rank``, ``rank``); with
``explain`` also each signal's weighted contribution (``contrib.<signal>``).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from memlane.config import ConfidenceConfig, SearchConfig
from memlane.index.confidence import base_score
from memlane.index.facts import fact_confidence
from memlane.index.embed import Embeddings
from memlane.retrieve import rerank as sig
from memlane.retrieve.advice import advice_terms, asks_advice
from memlane.retrieve.answerform import asks_doing, asks_named, namer, tells_doing
from memlane.retrieve.candidates import Candidate, fuse_lists
from memlane.retrieve.gather import GATHERS, asks_habit, asks_over_time, asks_plural, gathers
from memlane.retrieve.mmr import mmr_order
from memlane.retrieve.newest import asks_newest, newest_places
from memlane.retrieve.order import best_first, by_relevance, by_score
from memlane.retrieve.presets import Preset
from memlane.retrieve.speaker import (first_named_speaker, focus_speaker, query_without_name, speaker_of,
                                     speaker_words, speakers_of, without_name)
from memlane.retrieve.text import query_terms
from memlane.retrieve.timeparse import TimeWindow, asks_when, day_part_words, says_when, time_windows
from memlane.retrieve.twostage import (
    SessionKey,
    dated_sessions,
    StageParams,
    kind_key,
    local,
    rank_sessions,
    session_key,
)
from memlane.store.filters import Filters
from memlane.types import Hit, Item
from memlane.store.contract import Store

if TYPE_CHECKING:
    from memlane.retrieve.graph import Named

__all__ = ["SearchOptions", "hybrid_search", "search"]

_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class SearchOptions:
    """Everything ``search`` needs beyond the query: resolved from config, preset, caller."""

    preset: Preset
    session_aware: bool = True
    """Two-stage (session-aware) ranking, else flat, whatever ``preset.session_aware`` says:
    ``search_options`` has resolved the call's, the preset's and the config's word into it."""
    top_sessions: int = 5
    turns_per_session: int = 3
    late_turns: int = 0
    """Each shortlisted session's turns ranked after its best ``turns_per_session`` that stage
    two also takes; none takes one of the first ``LATE_HOLD`` places (``_select``)."""
    final_k: int = 10
    candidates: int = 200
    mmr: bool = False
    mmr_lambda: float = 0.7
    explain: bool = False
    kind_bonuses: dict[str, float] = field(default_factory=dict)
    stage: StageParams = field(default_factory=StageParams)
    confidence: ConfidenceConfig = field(default_factory=ConfidenceConfig)
    """The confidence model (``[memory.confidence]``) for the confidence signal."""
    expand: Callable[[str], str | None] | None = None
    """HyDE: returns a hypothetical answer to embed, or None (see ``memlane.retrieve.hyde``)."""
    hyde_threshold: float = 0.5
    meaning: Any = None
    """The meaning tier (``memlane.retrieve.meaning.MeaningTier``), or None: off."""
    meaning_candidates: int = 100
    meaning_weight: float = 0.6
    meaning_cold: int = 0
    """At most this many passages not cached yet are embedded in a query (the best-ranked
    candidates'); the other uncached candidates get the median lift (``_meaning``; 0: no
    limit)."""
    meaning_list: int = 0
    """With the tier on, the transformer's own list over the scope's cached vectors: its
    best this many join the candidates (``_meaning_list``; 0: off)."""
    meaning_list_weight: float = 0.4
    """The RRF weight of that list."""
    meaning_speaker_list: int = 50
    """With the tier on and speaker focus on one speaker, the transformer's list over that
    speaker's cached turns: its best this many join the candidates (``_speaker_list``; 0:
    off)."""
    meaning_speaker_weight: float = 0.3
    """The RRF weight of that list."""
    meaning_speaker_gate: int = 5
    """That list joins only when the named speaker said more than half of the first this
    many candidate turns with a speaker (``_speaker_leads``; 0: always)."""
    meaning_speaker_lead: float = 0.0
    """And only when the named speaker's best candidate turn telling of its speaker has at
    least this many times the relevance of any other speaker's best (``_speaker_leads``;
    0: always)."""
    speaker_list: int = 0
    """With speaker focus on one speaker, the quick tier's list over that speaker's turns
    (the static vectors' cosine to the query without the name): its best this many join the
    candidates (``_static_speaker_list``; 0: off)."""
    speaker_list_weight: float = 0.2
    """The RRF weight of that list."""
    speaker_list_gate: int = 5
    """That list joins only when the named speaker said more than half of the first this
    many candidate turns with a speaker (``_speaker_leads``; 0: always)."""
    speaker_list_lead: float = 0.0
    """And only when the named speaker's best candidate turn telling of its speaker has at
    least this many times the relevance of any other speaker's best (``_speaker_leads``;
    0: always)."""
    pool_candidates: int = 0
    """For a question asking what someone has done over time that does not count
    (``_strays``), the first this many candidate turns by relevance join stage two's pool
    whatever their session's place, below each shortlisted session's best hit (0: off)."""
    min_similarity: float = -1.0
    """A vector list's hit joins only when its cosine to the query is above this
    (``_near``; -1: every hit)."""
    newest_weight: float = 0.0
    """Near-duplicate sessions newest first unless the question names an earlier time
    (``memlane.retrieve.newest``)."""
    graph_hops: int = 0
    """Items of the query's entities and their graph neighbours join the candidates."""
    graph_relevance: float = 0.3
    reply_lift: float = 0.0
    """A matching question between speakers lifts its reply to this × its relevance (0: off)."""
    timeless_factor: float = 1.0
    """For a question asking when, turns with a speaker that place nothing in time keep
    this share of their relevance (1: off; ``_demote_timeless``)."""
    feedback_weight: float = 0.0
    """RRF weight of the feedback list (``memlane.retrieve.feedback``; 0: off)."""
    feedback_depth: int = 1
    """How many of the best candidate turns give their words to the feedback list."""
    gather_sessions: int = 0
    """For a gathering question (``memlane.retrieve.gather``), stage two also takes the
    turns of this many sessions after the ``top_sessions`` best, ranked below the best hit
    of each of those."""
    assistant_factor: float = 1.0
    """For a question about the user (not a request for advice), assistant turns keep this
    share of their relevance (1: off)."""
    reaction_factor: float = 1.0
    """When the query names a speaker, that speaker's turns with no first-person word keep
    this share of their relevance (1: off; ``_demote_reactions``)."""
    named_lift: float = 0.0
    """For a question asking for things known by their names ("What films has Rosa
    seen?"), candidate turns with a speaker that name something gain this share of their
    relevance (0: off; ``_lift_named``)."""
    doing_lift: float = 0.0
    """For a question asking what someone does ("What are Joanna's hobbies?"), candidate
    turns with a speaker that tell of doing something in the first person gain this share
    of their relevance (0: off; ``_lift_doing``)."""
    hedge_words: bool = False
    """Words of likelihood ("likely", "might": ``HEDGE_WORDS``) leave the lexical query."""
    newest_skips_speakers: bool = False
    """A query naming one of a conversation's speakers (``ctx.speaker``) takes no
    newest-first lift (``_newest_first``)."""
    speaker_session_weight: float = 0.0
    """For a query naming one of a conversation's speakers and asking for one thing (not a
    gathering, plural, over-time or habit question), the session signal weighs this much
    more in the final score (0: off; ``_session_focus``)."""
    first_named: bool = False
    """When the query names two speakers apart, speaker focus on the first one named
    (``memlane.retrieve.speaker.first_named_speaker``)."""
    continue_lift: float = 0.0
    """For an advice question, the user's next turn after their best one in each of the
    best sessions scores at least this share of it (0: off; ``_continues``)."""
    impersonal_factor: float = 1.0
    """For a question about the user, user turns with no first-person word keep this share
    of their relevance (1: off; ``_demote_impersonal``)."""
    gather_openers: float = 0.0
    """For a gathering question, the opener of each of the ``top_sessions`` best sessions
    that scores at least this share of the best hit takes a place among the first
    ``final_k`` hits (0: off; ``_spread``)."""
    opener_lift: float = 0.0
    """Session openers: in a chat without speakers, the first user turn of each of the
    best sessions scores at least this share of its session's best hit (0: off)."""
    advice_focus: bool = False
    """Advice questions search by their subject only (``memlane.retrieve.advice``)."""
    day_parts: bool = False
    """A part of the day the query names ("in the evening") also searches for the words of
    its hours ("night", "pm"; ``memlane.retrieve.timeparse.day_part_words``)."""
    speaker_factor: float = 1.0
    """Speaker focus (``memlane.retrieve.speaker``): when the query names one of the
    conversation's speakers, other speakers' turns keep this share of their relevance
    (1: off)."""


@dataclass
class _Ctx:
    store: Store
    embeddings: Embeddings
    scfg: SearchConfig
    opts: SearchOptions
    query: str
    terms: list[str]
    windows: list[TimeWindow]
    now: datetime
    filters: Filters
    qvec: np.ndarray | None = None
    items: dict[int, Item] = field(default_factory=dict)
    top_lexical: float = 0.0
    facts: dict[int, Any] = field(default_factory=dict)
    """Stored facts of the fact items among the candidates (for the confidence signal)."""
    dated: dict[Any, float] = field(default_factory=dict)
    """Sessions whose dated observations match the query's time windows."""
    vector: list[tuple[int, float]] = field(default_factory=list)
    """The vector list of the candidates (kept for the speaker focus)."""
    lexical: list[tuple[int, float]] = field(default_factory=list)
    """The lexical list of the candidates (kept for the speaker focus and feedback)."""
    hyde: bool = False
    """Whether HyDE added a third list (feedback then stays out)."""
    speaker: str | None = None
    """The speaker the query names (``memlane.retrieve.speaker``), when focused."""
    turns: dict[int, list[Item]] = field(default_factory=dict)
    """Each session's turns read so far in this search (``turns_of``)."""
    advice: bool = False
    """Whether the query asks the assistant for advice (``memlane.retrieve.advice``)."""
    subject: list[str] = field(default_factory=list)
    """An advice question's subject words, which its vector list embeds (``terms`` may add
    the words of a part of the day to them)."""
    about_user: bool = False
    """Whether impersonal user turns were demoted (``_demote_impersonal``)."""
    asks_when: bool = False
    """Whether the query asks when (``_demote_timeless``)."""
    openers: dict[Any, int] = field(default_factory=dict)
    """Each top session's opener (``_openers``): session id -> item id."""
    meaning_lift: dict[int, float] = field(default_factory=dict)
    """What the meaning tier added to each re-scored candidate's relevance (``_meaning``);
    empty when the tier is off."""
    meaning_skipped: set[int] = field(default_factory=set)
    """The candidates the tier did not re-score this time, their vectors not cached and
    over ``meaning_cold`` (``_meaning``)."""
    leads: bool = False
    """Whether the focused speaker led the candidate turns before the focus lowered the
    other speakers' (``_speaker_leads`` of the first ``STRAY_GATE``): a question asking
    what someone does (``asks_habit``) takes strays only then (``_strays``)."""
    named: Named | None = None
    """The entities the query names and their items (``named_entities``), read once a search."""

    def turns_of(self, session_id: int) -> list[Item]:
        """The session's turns in order, read from the store once a search (reply lift,
        graph expansion, stage two and session openers all ask). Callers must not modify
        the list."""
        if session_id not in self.turns:
            self.turns[session_id] = self.store.session_items(session_id, kind="turn")
        return self.turns[session_id]

    def named_entities(self, scope: str) -> Named:
        """The entities of ``scope`` the query names, with the items mentioning each, read
        from the store once a search: the graph stage takes those its ``terms`` name, stage
        one's entity boost those the query's words (``query_terms``) name; the lookup takes
        the words of both."""
        if self.named is None:
            from memlane.retrieve.graph import named_entities

            words = [*self.terms, *query_terms(self.query)]
            self.named = named_entities(self.store, scope, words, query=self.query)
        return self.named

    def read_turns(self, session_ids: Iterable[int]) -> None:
        """``turns_of`` of the sessions not read yet, in one statement."""
        missing = [s for s in dict.fromkeys(session_ids) if s not in self.turns]
        if missing:
            got = self.store.sessions_items(missing, kind="turn")
            for s in missing:
                self.turns[s] = got.get(s, [])


def search(
    store: Store,
    embeddings: Embeddings,
    scfg: SearchConfig,
    opts: SearchOptions,
    query: str,
    filters: Filters,
    k: int,
    now: datetime | None = None,
    timings: dict[str, float] | None = None,
) -> list[Hit]:
    """The ``k`` best items for ``query`` as of ``now``; each hit explains itself."""
    if not query or not query.strip():
        return []
    now = now or datetime.now(UTC)
    t = _Timer()
    ctx = _Ctx(store, embeddings, scfg, opts, query, question_terms(query, opts.hedge_words),
               time_windows(query, now), now, filters)
    if opts.advice_focus and asks_advice(query):
        ctx.advice = True
        ctx.terms = advice_terms(ctx.terms)
    ctx.subject = ctx.terms
    if opts.day_parts:
        ctx.terms = [*ctx.terms, *day_part_words(ctx.terms)]
    cands = _candidates(ctx, t)
    ctx.items = store.get_items([c.id for c in cands])
    if opts.speaker_factor < 1.0:
        cands = _speaker(ctx, cands)
    if opts.feedback_weight > 0 and ctx.speaker is not None:
        cands = _feedback(ctx, cands)
    static_list = (opts.speaker_list > 0 and ctx.speaker is not None  # before any list
                   and _speaker_leads(ctx, cands, opts.speaker_list_gate, opts.speaker_list_lead))
    if opts.meaning is not None and opts.meaning_list > 0:
        cands = _meaning_list(ctx, cands)
        t.lap("meaning_list_ms")
    if (opts.meaning is not None and opts.meaning_speaker_list > 0 and ctx.speaker is not None
            and _speaker_leads(ctx, cands, opts.meaning_speaker_gate, opts.meaning_speaker_lead)):
        cands = _speaker_list(ctx, cands, ctx.speaker)
        t.lap("meaning_list_ms")
    if static_list and ctx.speaker is not None:
        cands = _static_speaker_list(ctx, cands, ctx.speaker)
        t.lap("speaker_list_ms")
    if opts.graph_hops > 0 and filters.scope is not None:
        cands = _graph(ctx, cands)
    ctx.dated = dated_sessions(cands, ctx.items, ctx.windows, ctx.now)  # before the lift
    cands = _lift(ctx, cands)
    if opts.reply_lift > 0:
        cands = _replies(ctx, cands)
    if ctx.speaker is not None:
        if opts.pool_candidates and asks_habit(query):
            ctx.leads = _speaker_leads(ctx, sorted(cands, key=by_relevance), STRAY_GATE)
        cands = _demote_others(ctx, cands)
        if opts.reaction_factor < 1.0:
            cands = _demote_reactions(ctx, cands)
    if opts.named_lift > 0 and asks_named(query):
        cands = _lift_named(ctx, cands)
    if opts.doing_lift > 0 and asks_doing(query):
        cands = _lift_doing(ctx, cands)
    if opts.timeless_factor < 1.0 and asks_when(query):
        ctx.asks_when = True
        cands = _demote_timeless(ctx, cands)
    if min(opts.impersonal_factor, opts.assistant_factor) < 1.0 and about_user(query):
        ctx.about_user = True
        cands = _demote_impersonal(ctx, cands)
    t.lap("hydrate_ms")
    if opts.meaning is not None:
        cands = _meaning(ctx, cands)
        t.lap("meaning_ms")
    ctx.top_lexical = max((c.lexical or 0.0 for c in cands), default=0.0)
    if opts.explain or opts.preset.weights["confidence"]:
        ctx.facts = store.facts_for_items([i for i, it in ctx.items.items() if it.kind == "fact"])
    t.lap("hydrate_ms")
    # resolved by search_options (the call's word over the preset's over the config's): a
    # preset ranking flat here too dropped an explicit session_aware true when the config
    # chose the preset (session 35)
    if opts.session_aware:
        ordered = _two_stage(ctx, cands, k, t)
    else:
        ordered = _flat(ctx, cands, k)
    t.lap("rerank_ms")
    hits = _hits(ctx, ordered[:k])
    t.lap("hits_ms")
    if timings is not None:
        timings.update(t.laps)
    return hits


def hybrid_search(
    store: Store, embeddings: Embeddings, cfg: SearchConfig, query: str, filters: Filters, k: int,
    timings: dict[str, float] | None = None,
) -> list[Hit]:
    """Flat hybrid search (RRF of lexical and vector only), as before two-stage retrieval."""
    from memlane.retrieve.presets import FLAT

    opts = SearchOptions(preset=FLAT, session_aware=False, candidates=max(cfg.candidates, k))
    return search(store, embeddings, cfg, opts, query, filters, k, timings=timings)


QUESTION_WORDS = frozenset({
    "many", "much", "total", "different", "times", "ago", "last", "past", "recently",
    "previous", "first", "order", "which", "kind", "type", "days", "weeks", "months", "years",
})
"""Words that shape a question rather than name what it asks about ("how many different
...", "how many days ago ..."); left out of the lexical query, kept if nothing else remains.
Relative dates are read by ``memlane.retrieve.timeparse`` instead."""


HEDGE_WORDS = frozenset({"likely", "potentially", "possibly", "probably", "might"})
"""Words of likelihood that shape a question asking for an inference ("What would Rosa
likely study?", "What career might Omar take up?") rather than name what it asks about:
the answer is what the speaker told of themselves, and it rarely says "likely"; left out
of the lexical query with ``hedge_words`` (docs/retrieval.md, session 54)."""


def question_terms(query: str, hedges: bool = False) -> list[str]:
    """``query_terms`` without question scaffolding (``QUESTION_WORDS``; with ``hedges``,
    ``HEDGE_WORDS`` too)."""
    terms = query_terms(query)
    drop = QUESTION_WORDS | HEDGE_WORDS if hedges else QUESTION_WORDS
    return [t for t in terms if t.lower() not in drop] or terms


# -- candidates ------------------------------------------------------------------------
def _vector_text(ctx: _Ctx) -> str:
    """The text the vector list embeds: the query, or for an advice question its subject
    words (``memlane.retrieve.advice``: a static vector is the sum of its words' rows, and
    the request's words pulled it toward every other request)."""
    return " ".join(ctx.subject) if ctx.advice else ctx.query


def _weights(ctx: _Ctx) -> tuple[float, float]:
    """The lexical and vector lists' fusion weights: the preset's, else the config's."""
    return ctx.opts.preset.fusion or (ctx.scfg.lexical_weight, ctx.scfg.vector_weight)


def _fill_items(ctx: _Ctx, ids: Iterable[int]) -> None:
    """Read the items of ``ids`` that ``ctx.items`` does not hold yet (one query, if any)."""
    missing = [i for i in ids if i not in ctx.items]
    if missing:
        ctx.items.update(ctx.store.get_items(missing))


def _candidates(ctx: _Ctx, t: _Timer) -> list[Candidate]:
    lw, vw = _weights(ctx)
    n = ctx.opts.candidates
    ranks_vec = vw > 0 or ctx.opts.preset.weight("cosine") > 0
    lexical: list[tuple[int, float]] = []
    vector: list[tuple[int, float]] = []
    if lw > 0 and ranks_vec:
        # both lists in one call (PostgreSQL runs their statements at once on two
        # connections): vector_ms is the embedding and the vector list's own time,
        # lexical_ms the rest of the call (all of the lexical list's when they do not overlap)
        t.laps.setdefault("lexical_ms", 0.0)  # the stages' order as below
        qvec = ctx.embeddings.for_query(_vector_text(ctx))
        t.lap("vector_ms")
        own: dict[str, float] = {}
        if qvec.any():
            ctx.qvec = qvec
            lexical, vector = ctx.store.lexical_and_vector_search(
                ctx.terms, ctx.embeddings.model, qvec, ctx.filters, n, timings=own)
        else:
            lexical = ctx.store.lexical_search(ctx.terms, ctx.filters, n)
        t.lap("lexical_ms")
        moved = min(own.get("vector_ms", 0.0), t.laps["lexical_ms"])
        t.laps["lexical_ms"] -= moved
        t.laps["vector_ms"] += moved
    else:
        lexical = ctx.store.lexical_search(ctx.terms, ctx.filters, n) if lw > 0 else []
        t.lap("lexical_ms")
        if ranks_vec or ctx.opts.mmr:
            qvec = ctx.embeddings.for_query(_vector_text(ctx))
            if qvec.any():
                ctx.qvec = qvec
                if ranks_vec:
                    vector = ctx.store.vector_search(ctx.embeddings.model, qvec, ctx.filters, n)
        t.lap("vector_ms")
    hyde: list[tuple[int, float]] = []
    if ctx.opts.expand is not None and _low_confidence(lexical, vector, ctx.opts.hyde_threshold):
        text = ctx.opts.expand(ctx.query)
        if text:
            hvec = ctx.embeddings.for_query(text)
            if hvec.any():
                hyde = ctx.store.vector_search(ctx.embeddings.model, hvec, ctx.filters, n)
        t.lap("hyde_ms")
    said = {i for i, _ in lexical}  # a hit sharing a query word keeps its cosine
    vector, hyde = _near(ctx, _steady(vector), said), _near(ctx, _steady(hyde), said)
    cands = fuse_lists(lexical, vector, (lw, vw), ctx.scfg.rrf_k, hyde, hyde_weight=vw or 1.0)
    ctx.vector, ctx.lexical, ctx.hyde = vector, lexical, bool(hyde)
    t.lap("fusion_ms")
    return cands


COSINE_DIGITS = 6
"""A store's cosine is kept to this many decimals: float32 vectors hold about 7 significant
digits, and SQLite (numpy) and PostgreSQL (pgvector) round apart below them."""


def _steady(hits: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """A vector list with each cosine to ``COSINE_DIGITS`` decimals, equal ones by id. Two
    texts at the same cosine to the query (1/sqrt(27) to both) came back as 0.1924500912 and
    0.1924500970 from SQLite, 0.1924500855 and 0.1924500912 from PostgreSQL: each store's
    rounding noise ordered them, so the same search ranked them apart (session 26)."""
    steady = [(i, round(s, COSINE_DIGITS)) for i, s in hits]
    steady.sort(key=lambda p: (-p[1] if p[1] == p[1] else math.inf, p[0]))  # a NaN last
    return steady


def _near(ctx: _Ctx, hits: list[tuple[int, float]],
          said: set[int] | frozenset[int] = frozenset()) -> list[tuple[int, float]]:
    """A vector list without the hits at or below ``min_similarity``: every item is some
    cosine from the query, so without a floor a scope of a few items fills any k with
    unrelated ones ("I also like tea" for "locker code", session 31). The lists are best
    first, so the floor only cuts their tails and the ranks above it stay. The items of
    ``said`` (the lexical list's: they share a query word) keep their cosine, whatever it
    is: the floor takes far hits, not a word's hit's signal (the flat presets weigh it)."""
    floor = ctx.opts.min_similarity
    if floor <= -1 or ctx.opts.meaning is not None:  # the meaning tier floors its own
        return hits                                  # cosine instead (``_meaning``)
    return [(i, s) for i, s in hits if s > floor or i in said]


def _speaker(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """Speaker focus (``memlane.retrieve.speaker``): the lexical list again without the
    named speaker's name, fused anew (``_demote_others`` lowers the other speakers' turns
    once facts and observations have lifted theirs)."""
    name = focus_speaker(ctx.items.values(), ctx.terms)
    if name is None and ctx.opts.first_named:
        name = first_named_speaker(ctx.items.values(), ctx.query)
    if name is None:
        return cands
    ctx.speaker = name
    lw, vw = _weights(ctx)
    terms = without_name(ctx.terms, name)
    if terms != ctx.terms and lw > 0:
        ctx.terms = terms
        ctx.lexical = ctx.store.lexical_search(terms, ctx.filters, ctx.opts.candidates)
        cands = fuse_lists(ctx.lexical, ctx.vector, (lw, vw), ctx.scfg.rrf_k)
        _fill_items(ctx, [c.id for c in cands])
    return cands


def _feedback(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """Feedback (``memlane.retrieve.feedback``): the lexical list again with the words of
    the best turns (the focused speaker's, when focused) added to the query's, fused as a
    third list of weight ``feedback_weight``."""
    from memlane.retrieve.feedback import feedback_terms

    if ctx.hyde or not ctx.lexical:
        return cands
    top = [c.id for c in cands if (it := ctx.items.get(c.id)) is not None and it.kind == "turn"
           and not _other_speaker(ctx, it)][: ctx.opts.feedback_depth]
    extra = feedback_terms([ctx.items[i].text for i in top], ctx.terms,
                           drop=[ctx.speaker] if ctx.speaker else [])
    if not extra:
        return cands
    flist = ctx.store.lexical_search([*ctx.terms, *extra], ctx.filters, ctx.opts.candidates)
    lw, vw = _weights(ctx)
    cands = fuse_lists(ctx.lexical, ctx.vector, (lw, vw), ctx.scfg.rrf_k, flist,
                       hyde_weight=ctx.opts.feedback_weight)
    for c in cands:  # the third list is feedback here, not HyDE
        c.feedback_rank, c.hyde_rank = c.hyde_rank, None
    _fill_items(ctx, [c.id for c in cands])
    return cands


REPLY_QUESTIONS = 8
"""At most this many of the best candidate questions lift their replies."""


def _replies(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """A question one speaker asked ("What breed is your kitten again?") that matches the
    query well lifts the turn that answers it, the next turn of its session, to
    ``reply_lift ×`` its relevance: the answer often shares no word with the query. Only
    turns with a speaker (conversations between people) ask such questions."""
    lift = ctx.opts.reply_lift
    asks = [c for c in cands[: ctx.opts.candidates]
            if (it := ctx.items.get(c.id)) is not None and it.kind == "turn"
            and it.extra and speaker_of(it) is not None and "?" in it.text][:REPLY_QUESTIONS]
    # (``it.extra and``: a turn without extra has no speaker; most of ~400 candidates)
    if not asks:
        return cands
    by_id = {c.id: c for c in cands}
    by_seq: dict[int, dict[int, Item]] = {}
    for q in asks:
        it = ctx.items[q.id]
        if it.session_id is None or it.seq is None:
            continue
        if it.session_id not in by_seq:
            by_seq[it.session_id] = {t.seq: t for t in ctx.turns_of(it.session_id)
                                     if t.seq is not None}
        nxt = by_seq[it.session_id].get(it.seq + 1)
        if (nxt is None or not ctx.filters.admits_in_session(nxt)
                or speaker_of(nxt) == speaker_of(it)):
            continue  # no next turn, filtered out, or the same speaker going on
        ctx.items.setdefault(nxt.id, nxt)
        c = by_id.get(nxt.id)
        if c is None:
            c = by_id[nxt.id] = Candidate(id=nxt.id, rrf=0.0, relevance=0.0)
            cands.append(c)
        if lift * q.relevance > c.relevance:
            c.relevance, c.lifted_from = lift * q.relevance, q.id
    cands.sort(key=by_relevance)
    return cands


FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself)\b", re.IGNORECASE)
"""A first-person singular word: the text says something about its speaker."""


SPEAKS_OF_SELF = re.compile(r"\b(?:i|m(?:e|y|ine|yself)|we|our|us)\b", re.IGNORECASE)
"""A first-person word, singular or plural: a speaker telling of themselves ("we went
sailing with my cousins"). The forms with an apostrophe ("I'm", "we've") are found by their
"i" or "we", which a word boundary ends: the short pattern takes a third of the time of
one listing them (a question about the user asks of ~200 turns; tested equal)."""


def _reaction(ctx: _Ctx, it: Item | None) -> bool:
    """Whether ``it`` is a turn of the focused speaker with no first-person word."""
    return (ctx.speaker is not None and it is not None and it.kind == "turn"
            and speaker_of(it) == ctx.speaker and SPEAKS_OF_SELF.search(it.text) is None)


def _demote_reactions(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """When the query names a speaker ("What activities does Rosa take part in?"), the
    evidence is what that speaker tells of themselves. Their turns with no first-person
    word are reactions and questions to the other speaker ("Wow, that's so cool!", "What
    breed is your kitten?") and keep ``reaction_factor`` of their relevance."""
    return _demote(ctx, cands, _reaction, ctx.opts.reaction_factor)


def _lift_named(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """A question asking for things known by their names ("What films has Rosa seen?",
    "Which places has Omar been to?": ``memlane.retrieve.answerform``) is answered by turns
    that name one ("I'm reading "Ivanhoe" by Walter Scott"). Each candidate turn with a
    speaker that names something (not a speaker), spoken by the focused speaker when there
    is one, gains ``named_lift`` of its relevance, before stage one ranks the sessions."""
    speakers = speakers_of(it for c in cands if (it := ctx.items.get(c.id)) is not None)
    return _lift_form(ctx, cands, namer(speakers), ctx.opts.named_lift)


def _lift_doing(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """A question asking what someone does ("What activities does Rosa take part in?",
    "What are Lena's hobbies?") is answered by their first-person statements of doing
    ("we went sailing with my cousins", "I took up rowing three years ago"), whose words differ
    from the question's. Each such candidate turn with a speaker (the focused speaker's,
    when there is one) gains ``doing_lift`` of its relevance, before stage one."""
    return _lift_form(ctx, cands, tells_doing, ctx.opts.doing_lift)


def _lift_form(ctx: _Ctx, cands: list[Candidate], test: Callable[[str], bool],
               lift: float) -> list[Candidate]:
    """Each candidate turn with a speaker (the focused speaker, when there is one) whose
    text ``test`` accepts gains ``lift`` of its relevance (``_demote`` with a factor above
    1); the candidates best first again."""

    def formed(ctx: _Ctx, it: Item | None) -> bool:
        return (it is not None and it.kind == "turn" and bool(it.extra)
                and (s := speaker_of(it)) is not None
                and (ctx.speaker is None or s == ctx.speaker) and test(it.text))

    return _demote(ctx, cands, formed, 1.0 + lift)


def _timeless(ctx: _Ctx, it: Item | None) -> bool:
    """Whether ``it`` is a turn with a speaker that places nothing in time, for a question
    asking when."""
    return (ctx.asks_when and it is not None and it.kind == "turn"
            and speaker_of(it) is not None and not says_when(it.text))


def _demote_timeless(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """A question asking when ("When did Ivan win the regional chess cup?") is
    answered by the turn that dates the event ("I won the regional chess cup
    yesterday!"); a turn that places nothing in time ("Chess has given me so much
    joy") speaks of the subject, not of its time, and keeps ``timeless_factor`` of its
    relevance. On LoCoMo's dev questions that start "When", 113 of the 123 evidence turns place
    something in time, against 392 of the 1,078 other turns of their first 10 hits. Only
    turns with a speaker (conversations between people) are demoted."""
    return _demote(ctx, cands, _timeless, ctx.opts.timeless_factor)


def about_user(query: str) -> bool:
    """Whether ``query`` asks about the user ("What was my first job title?") rather
    than recalling what the assistant said (``asks_assistant``)."""
    return FIRST_PERSON.search(query) is not None and not asks_assistant(query)


def _impersonal(it: Item | None) -> bool:
    """Whether ``it`` is a user turn without a speaker that says nothing about the user."""
    return (it is not None and it.kind == "turn" and it.role == "user"
            and speaker_of(it) is None and SPEAKS_OF_SELF.search(it.text) is None)


def _about_user_factor(ctx: _Ctx, it: Item | None) -> float | None:
    """The share of its relevance ``it`` keeps for a question about the user: an impersonal
    user turn ``impersonal_factor``, an assistant turn ``assistant_factor`` (not for requests
    for advice, whose answer sessions the assistant's suggestions help to find); None: all."""
    if _impersonal(it):
        return ctx.opts.impersonal_factor
    if (ctx.opts.assistant_factor < 1.0 and not ctx.advice and it is not None
            and it.kind == "turn" and it.role == "assistant" and speaker_of(it) is None):
        return ctx.opts.assistant_factor
    return None


def _demote_impersonal(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """A question about the user is answered by what the user said about themselves. A
    user turn with no first-person word ("Clause 4 (b) shall be read as...", "Can you
    list the main studies on this topic?") is a task handed to the
    assistant, and keeps ``impersonal_factor`` of its relevance, so sessions of such tasks
    stop outranking the user's own statements in stage one. The assistant's turns, which
    restate the user's subject at length, keep ``assistant_factor``. Turns with a speaker
    (conversations between people) are left alone."""
    for c in cands:
        factor = _about_user_factor(ctx, ctx.items.get(c.id))
        if factor is not None:
            c.relevance *= factor
    cands.sort(key=by_relevance)
    return cands


def _other_speaker(ctx: _Ctx, it: Item | None) -> bool:
    """Whether ``it`` is a turn spoken by someone other than the focused speaker."""
    return (ctx.speaker is not None and it is not None
            and (s := speaker_of(it)) is not None and s != ctx.speaker)


def _demote_others(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """Other speakers' turns keep ``speaker_factor`` of their relevance."""
    return _demote(ctx, cands, _other_speaker, ctx.opts.speaker_factor)


def _demote(ctx: _Ctx, cands: list[Candidate], test: Callable[[_Ctx, Item | None], bool],
            factor: float) -> list[Candidate]:
    """Each candidate whose item ``test`` accepts keeps ``factor`` of its relevance; the
    candidates best first again."""
    for c in cands:
        if test(ctx, ctx.items.get(c.id)):
            c.relevance *= factor
    cands.sort(key=by_relevance)
    return cands


LIFT_KINDS = frozenset({"fact", "observation"})
"""Kinds read from one turn whose hits lift that turn (their ``parents``)."""


def _lift(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """Facts and observations lift the turn they came from: the turn's relevance becomes
    at least ``lift ×`` theirs, and the turn joins the candidates if it was not there.

    They are short, so a passing mention inside a long message ("by the way, I saw it at
    the Met today") is found by its own words and vector and brings its message along.
    An observation whose turn was lifted leaves the candidates: it only repeats the turn.
    """
    lift = ctx.opts.stage.lift
    if lift <= 0 or (ctx.filters.kinds is not None and "turn" not in ctx.filters.kinds):
        return cands
    best: dict[int, Candidate] = {}
    for c in cands:
        it = ctx.items.get(c.id)
        if it is not None and it.kind in LIFT_KINDS and it.parents:
            b = best.get(it.parents[0])
            if b is None or c.relevance > b.relevance:
                best[it.parents[0]] = c
    if not best:
        return cands
    _fill_items(ctx, best)
    by_id = {c.id: c for c in cands}
    lifted: set[int] = set()
    for turn_id, src in best.items():
        it = ctx.items.get(turn_id)
        if it is None or not ctx.filters.admits_in_session(it):
            continue  # the turn itself is filtered out (a fact's lane may pass where it does not)
        lifted.add(turn_id)
        found = by_id.get(turn_id)
        if found is None:
            found = by_id[turn_id] = Candidate(id=turn_id, rrf=0.0, relevance=0.0)
            cands.append(found)
        c = found
        if lift * src.relevance > c.relevance:
            c.relevance, c.lifted_from = lift * src.relevance, src.id
    out = [c for c in cands if not ((it := ctx.items.get(c.id)) is not None
                                    and it.kind == "observation" and it.parents
                                    and it.parents[0] in lifted)]
    out.sort(key=by_relevance)
    return out


GRAPH_SESSIONS = 5
"""At most this many sessions join the candidates through the entity graph per search."""


def _graph(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """One hop through the entity graph (``memlane.retrieve.graph``): the items of the
    query's entities and of their neighbours join the candidates with a floor relevance."""
    from memlane.retrieve.graph import graph_candidates

    if ctx.filters.scope is None:
        return cands  # entities are kept per scope: an unscoped search has none to expand
    zero, one = graph_candidates(ctx.named_entities(ctx.filters.scope).naming(ctx.terms, ctx.query))
    if not zero and not one:
        return cands
    by_id = {c.id: c for c in cands}
    base = ctx.opts.graph_relevance
    voted = {it.session_id for c in cands if (it := ctx.items.get(c.id)) is not None
             and it.kind == "turn"}
    terms = {t.lower() for t in ctx.terms}
    sessions_added = 0
    for hop, items in ((0, zero), (1, one)):
        rel = base * (0.7 if hop else 1.0)
        for it in items:
            if it.kind != "turn" and it.session_id is not None and it.session_id not in voted:
                if sessions_added >= GRAPH_SESSIONS:
                    continue
                # a summary or entity of a session no candidate reached: its best turns
                voted.add(it.session_id)
                sessions_added += 1
                turns = sorted(ctx.turns_of(it.session_id),
                               key=lambda x: (-len(terms & _lower_words(x.text)), x.seq or 0, x.id))
                items_to_add = turns[:2]
            elif it.kind == "turn":
                items_to_add = [it]
            else:
                continue
            for x in items_to_add:
                if not ctx.filters.admits_in_session(x) or (
                        ctx.filters.kinds is not None and x.kind not in ctx.filters.kinds):
                    continue
                ctx.items.setdefault(x.id, x)
                if x.id not in by_id:
                    c = by_id[x.id] = Candidate(id=x.id, rrf=0.0, relevance=rel, graph_hop=hop)
                    cands.append(c)
    cands.sort(key=by_relevance)
    return cands


def _meaning_list(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """The transformer as a candidate source: it ranks the scope's turns whose vectors
    are cached (``MeaningTier.search``: exact cosine, nothing computed but the query's
    vector) and its best ``meaning_list`` join the fused lists as a third list of RRF
    weight ``meaning_list_weight`` (``_join_list``). Speaker focus, lifts and demotions
    then apply to every candidate alike; ``_meaning`` re-scores the best of them as before."""
    o = ctx.opts
    found = o.meaning.search(ctx.store, ctx.query, ctx.filters, o.meaning_list, ctx.terms)
    return _join_list(ctx, cands, found, o.meaning_list_weight)


def _speaker_leads(ctx: _Ctx, cands: list[Candidate], depth: int, lead: float = 0.0) -> bool:
    """Whether the focused speaker said more than half of the first ``depth`` candidate
    turns with a speaker (always, for ``depth`` 0), and, among the candidate turns that
    tell of their speaker (a first-person word, ``SPEAKS_OF_SELF``), their best has at
    least ``lead`` times the relevance of every other speaker's best (always, for ``lead``
    0). An adversarial question names the wrong speaker for what the other one told, so
    its words lead to the other's turns: by count when only the other told of the topic,
    by the best match when both did. A partner's question or reaction ("What sport
    are you training for?") repeats the question's words but tells of no one, so it does not
    count (session 29)."""
    said = [(s, c.relevance, it.text) for c in cands if (it := ctx.items.get(c.id)) is not None
            and (s := speaker_of(it)) is not None]
    if depth > 0:
        first = [s for s, _, _ in said[:depth]]
        if 2 * sum(s == ctx.speaker for s in first) <= len(first):
            return False
    if lead > 0:
        telling = [(s, r) for s, r, text in said if SPEAKS_OF_SELF.search(text)]
        named = max((r for s, r in telling if s == ctx.speaker), default=None)
        other = max((r for s, r in telling if s != ctx.speaker), default=None)
        if named is None or (other is not None and named < lead * other):
            return False
    return True


def _speaker_list(ctx: _Ctx, cands: list[Candidate], name: str) -> list[Candidate]:
    """The transformer's list over the turns the focused speaker said, its query vector
    of the question without the name (``query_without_name``): its best
    ``meaning_speaker_list`` join as a list of weight ``meaning_speaker_weight``."""
    o = ctx.opts
    found = o.meaning.search(ctx.store, query_without_name(ctx.query, name), ctx.filters,
                             o.meaning_speaker_list, ctx.terms, speaker=name)
    return _join_list(ctx, cands, found, o.meaning_speaker_weight)


def _static_speaker_list(ctx: _Ctx, cands: list[Candidate], name: str) -> list[Candidate]:
    """The quick tier's list over the turns the focused speaker said: their stored static
    vectors ranked by cosine to the question without the name (``query_without_name``: a
    turn's text does not hold its own speaker's name), its best ``speaker_list`` joining as
    a list of weight ``speaker_list_weight`` (``speaker_rank``)."""
    o = ctx.opts
    if ctx.filters.kinds is not None and "turn" not in ctx.filters.kinds:
        return cands
    ids = ctx.store.filter_ids(replace(ctx.filters, kinds=("turn",)))
    said = {i: it for i, it in ctx.store.get_items(ids).items() if speaker_of(it) == name}
    vecs = ctx.store.item_vectors(ctx.embeddings.model, said)
    q = ctx.embeddings.for_query(query_without_name(ctx.query, name))
    if not vecs or not q.any():
        return cands
    have = sorted(vecs)
    m = np.stack([vecs[i] for i in have])
    norms = np.linalg.norm(m, axis=1) * float(np.linalg.norm(q))
    cos = (m @ q) / np.where(norms > 0, norms, 1.0)
    found = _near(ctx, _steady([(i, float(c)) for i, c in zip(have, cos, strict=True)]))[
        : o.speaker_list]
    for i, _ in found:
        ctx.items.setdefault(i, said[i])
    return _join_list(ctx, cands, found, o.speaker_list_weight, rank="speaker_rank")


def _join_list(ctx: _Ctx, cands: list[Candidate], found: list[tuple[int, float]],
               w: float, rank: str = "meaning_rank") -> list[Candidate]:
    """A list joins the fused lists as one more list of RRF weight ``w``, on the scale of
    the other two (the relevance gains ``w / (rrf_k + rank)`` over the best fused score an
    item could have had from them), so the quick candidates keep their relevance and an
    item only this list found joins (``rank``, ``meaning_rank`` for a transformer's list:
    its best rank in such a list)."""
    if not found:
        return cands
    lw, vw = _weights(ctx)
    k = ctx.scfg.rrf_k
    best = ((lw if ctx.lexical else 0) + (vw if ctx.vector else 0)) / (k + 1) or 1.0
    by_id = {c.id: c for c in cands}
    for r, (i, _cos) in enumerate(found, start=1):
        c = by_id.get(i)
        if c is None:
            c = by_id[i] = Candidate(id=i, rrf=0.0, relevance=0.0)
            cands.append(c)
        had = getattr(c, rank)
        setattr(c, rank, r if had is None else min(r, had))
        c.rrf += w / (k + r)
        c.relevance += w / (k + r) / best
    _fill_items(ctx, [c.id for c in cands])
    cands.sort(key=by_relevance)
    return cands


def _meaning(ctx: _Ctx, cands: list[Candidate]) -> list[Candidate]:
    """The cascade: the transformer's cosine to the query joins the relevance of the best
    ``meaning_candidates`` candidates (``meaning_weight ×`` its excess over the lowest of
    them, so the tier only reorders the pool it saw)."""
    from memlane.retrieve.meaning import RESCORED_KINDS

    o = ctx.opts
    top = [c for c in cands if (it := ctx.items.get(c.id)) is not None
           and it.kind in RESCORED_KINDS and it.text.strip()][: o.meaning_candidates]
    if o.meaning_list > 0 or o.meaning_speaker_list > 0:  # a transformer's list: re-scored
        seen = {c.id for c in top}                            # whatever its place
        top += [c for c in cands if c.meaning_rank is not None and c.id not in seen]
    if not top or (len(top) < 2 and o.min_similarity <= -1):
        return cands
    cos = o.meaning.cosines(ctx.store, ctx.query, [ctx.items[c.id] for c in top], ctx.terms,
                            o.meaning_cold)
    if not cos:
        return cands
    floor = min(cos.values())
    lifts = {c.id: o.meaning_weight * (cos[c.id] - floor) for c in top if c.id in cos}
    skipped = [c for c in top if c.id not in cos]
    if skipped:  # over meaning_cold, uncached: ranked as a typical re-scored one this time
        fill = _cold_lifts(top, lifts, COLD_LIFT)
        for c in skipped:
            lifts[c.id] = fill[c.id]
            ctx.meaning_skipped.add(c.id)
    for c in top:
        c.meaning = cos.get(c.id)
        lift = ctx.meaning_lift[c.id] = lifts[c.id]
        c.relevance += lift
    if o.min_similarity > -1:  # the floor on the transformer's scale (``_near``)
        far = {c.id for c in top if c.lexical_rank is None and c.vector_rank is not None
               and c.id in cos and cos[c.id] <= o.min_similarity}
        cands = [c for c in cands if c.id not in far]
    cands.sort(key=by_relevance)
    return cands


COLD_LIFT = "median"
"""How ``_meaning`` lifts a candidate it left uncached (``retrieval.meaning_cold``): one of
``_cold_lifts``' rules, the one measured best (docs/retrieval.md, "Session 32")."""


def _cold_lifts(top: list[Candidate], lifts: dict[int, float],
                rule: str = "median") -> dict[int, float]:
    """The lift of each of ``top`` (best first) the transformer did not score (not in
    ``lifts``): ``median``, the median of the scored ones' lifts, so that a candidate is
    not pushed below the pool for being uncached (nor above it for luck); ``zero``, none
    (as a candidate past ``meaning_candidates``); ``carry``, the lift of the nearest scored
    candidate above it (it keeps its place under that one)."""
    scored = sorted(lifts.values())
    if rule == "zero":
        return {c.id: 0.0 for c in top if c.id not in lifts}
    if rule == "carry":
        out, last = {}, max(scored)
        for c in sorted(top, key=by_relevance):
            if c.id in lifts:
                last = lifts[c.id]
            else:
                out[c.id] = last
        return out
    mid = float(np.median(scored))
    return {c.id: mid for c in top if c.id not in lifts}


def _low_confidence(lexical: Sequence[tuple[int, float]], vector: Sequence[tuple[int, float]],
                    threshold: float, depth: int = 10) -> bool:
    """The lists agree on fewer than ``threshold`` of their top ``depth`` (or one is empty)."""
    if not lexical or not vector:
        return True
    a = {i for i, _ in lexical[:depth]}
    b = {i for i, _ in vector[:depth]}
    return len(a & b) / min(depth, len(a), len(b)) < threshold


# -- scoring ---------------------------------------------------------------------------
def _signals(ctx: _Ctx, c: Candidate | None, it: Item, session: float, top_lexical: float,
             session_entities: Sequence[str] = ()) -> dict[str, float]:
    """Every signal the preset weighs (all of them when explaining), for one item."""
    w = ctx.opts.preset.weights
    want = (lambda s: True) if ctx.opts.explain else (lambda s: w[s] != 0)
    out: dict[str, float] = {"relevance": c.relevance if c else 0.0, "session": session}
    if want("bm25"):
        out["bm25"] = (c.lexical or 0.0) / top_lexical if c and top_lexical > 0 else 0.0
    if want("cosine"):
        out["cosine"] = max(0.0, c.vector or 0.0) if c else 0.0
    if want("recency"):
        age = (ctx.now - it.at).total_seconds() / 3600
        out["recency"] = sig.recency(age, sig.half_life_hours(it.kind, it.durability))
    if want("confidence"):
        out["confidence"] = _confidence(ctx, it)
    if want("graph"):
        out["graph"] = sig.graph_relevance(ctx.terms, (*it.entities, *session_entities))
    if want("overlap"):
        out["overlap"] = sig.token_overlap(ctx.terms, _lower_words(it.text))
    if want("summary"):
        out["summary"] = sig.summary_bonus(it.kind)
    if want("trust"):
        out["trust"] = sig.trust(it.trust)
    if want("pin"):
        out["pin"] = 1.0 if it.pinned else 0.0
    if want("kind"):
        out["kind"] = sig.kind_bonus(kind_key(it), ctx.opts.kind_bonuses)
    if want("time"):
        out["time"] = sig.time_match(local(it.at, ctx.now), ctx.windows) if ctx.windows else 0.0
    return out


def _confidence(ctx: _Ctx, it: Item) -> float:
    """DESIGN.md's confidence for facts (source, reinforcements, staleness since last
    access, 0 when superseded); the base score of its source for any other item."""
    cfg = ctx.opts.confidence
    fact = ctx.facts.get(it.id)
    if fact is None:
        return base_score(it.source, cfg)
    return fact_confidence(fact, cfg, ctx.now.timestamp())


def _total(weights: Any, signals: dict[str, float], coverage: float = 0.0) -> float:
    s = sum([weights[k] * v for k, v in signals.items() if k != "coverage"])
    return s - weights["coverage"] * coverage


@dataclass
class _Scored:
    id: int
    score: float
    signals: dict[str, float]
    cand: Candidate | None
    key: SessionKey = None
    ranks: dict[str, float] = field(default_factory=dict)
    earned: float | None = None
    """The score its own signals gave it, when a floor raised it (``_openers``,
    ``_continues``) or a cap lowered it (``_below_top``) to a score other hits share: the
    second key of ``order.by_score``. None: no floor or cap set its score."""

    def floor_or_cap(self, score: float) -> None:
        """Set the score to a floor (raised to it) or a cap (lowered to it), keeping the
        first score it earned (``earned``)."""
        if self.earned is None:
            self.earned = self.score
        self.score = score


def _flat(ctx: _Ctx, cands: list[Candidate], k: int) -> list[_Scored]:
    top_lex = max((c.lexical or 0.0 for c in cands), default=0.0)
    out = []
    for r, c in enumerate(cands, start=1):
        it = ctx.items.get(c.id)
        if it is None:
            continue  # deleted between the two reads
        s = _signals(ctx, c, it, 0.0, top_lex)
        out.append(_Scored(c.id, _total(ctx.opts.preset.weights, s), s, c, session_key(it),
                           {"candidate_rank": float(r)}))
    out.sort(key=by_score)
    head = _select(ctx, out[: max(ctx.opts.final_k, 1) * 3], ctx.opts.final_k) if (
        ctx.opts.mmr or ctx.opts.preset.weight("coverage") > 0) else []
    chosen = {x.id for x in head}
    return head + [x for x in out if x.id not in chosen]


def _entity_shares(ctx: _Ctx) -> dict[SessionKey, float]:
    """The share of the entities the query names (the entity graph's names, not the
    speakers of the candidate turns: every session of theirs names them) that each session
    holding any of them mentions (``memlane.retrieve.graph.entity_sessions``): stage one's
    ``entity_boost``."""
    if ctx.filters.scope is None:
        return {}  # entities are kept per scope
    from memlane.retrieve.graph import entity_sessions

    named = entity_sessions(ctx.named_entities(ctx.filters.scope).naming(query_terms(ctx.query), ctx.query),
                            skip=speaker_words(speakers_of(ctx.items.values())))
    shares: dict[SessionKey, float] = {}
    for held in named.values():
        for sid in held:
            shares[sid] = shares.get(sid, 0.0) + 1.0 / len(named)
    return shares


def _session_focus(ctx: _Ctx) -> float:
    """The session signal's extra weight in stage two's score (``speaker_session_weight``):
    a question naming one of a conversation's speakers and asking for one thing ("Where
    did Ivan leave his bike?") is most often answered in the session stage one ranks
    first, whose further turns the other sessions' best turns outscore by a little;
    a question asking for several things ("What activities ...", "How many times ...",
    "What has Ivan painted?", "What does Ivan do to unwind?") gathers them from several
    sessions (``gathers``, ``asks_plural``, ``asks_over_time``, ``asks_habit``: the last two
    take ``pool_candidates``' strays, which rank below the top sessions) and takes none."""
    w = ctx.opts.speaker_session_weight
    if w <= 0 or ctx.speaker is None:
        return 0.0
    q = ctx.query
    return 0.0 if gathers(q) or asks_over_time(q) or asks_habit(q) or asks_plural(q) else w


def _two_stage(ctx: _Ctx, cands: list[Candidate], k: int, t: _Timer) -> list[_Scored]:
    o = ctx.opts
    sessions = rank_sessions(cands, ctx.items, o.stage, ctx.windows, ctx.now, dated=ctx.dated,
                             entities=_entity_shares(ctx) if o.stage.entity_boost > 0 else None)
    t.lap("stage1_ms")
    by_key = {s.key: s for s in sessions}
    top_score = sessions[0].score if sessions and sessions[0].score > 0 else 1.0
    wide = o.gather_sessions if o.gather_sessions and gathers(ctx.query) else 0
    top = [s for s in sessions[: o.top_sessions + wide]]
    # one pass over the ~400 candidates: each one's record and rank, the candidates of
    # each session in their order (each top session scanned all of them twice), how many
    # of those are turns, and the entities of the sessions' summaries
    cand_of: dict[int, Candidate] = {}
    cand_rank: dict[int, int] = {}
    by_session: dict[int, list[Candidate]] = {}
    turns_in: dict[int, int] = {}
    entities: dict[SessionKey, tuple[str, ...]] = {}
    get = ctx.items.get
    for r, c in enumerate(cands, start=1):
        cid = c.id
        cand_of[cid] = c
        cand_rank[cid] = r
        it = get(cid)
        if it is None or (sid := it.session_id) is None:
            continue
        own_list = by_session.get(sid)
        if own_list is None:
            by_session[sid] = [c]
        else:
            own_list.append(c)
        kind = it.kind
        if kind == "turn":
            turns_in[sid] = turns_in.get(sid, 0) + 1
        elif kind == "summary":
            entities[sid] = entities.get(sid, ()) + it.entities
    strays = _strays(ctx, cands, {s.key for s in top}) if o.pool_candidates else []
    per_session = o.turns_per_session + o.late_turns
    if ctx.filters.kinds is None or "turn" in ctx.filters.kinds:
        # in one statement, the turns _session_turns reads: of each top session with fewer
        # than turns_per_session turns among the candidates
        ctx.read_turns(s.key for s in top if isinstance(s.key, int)
                       and turns_in.get(s.key, 0) < per_session)
    pool_ids: dict[int, float] = {}  # item id -> rank inside its session (stage two)
    late: set[int] = set()  # a session's turns past its best turns_per_session
    for s in top:
        if isinstance(s.key, tuple):
            pool_ids[s.key[1]] = 1.0
            continue
        own = by_session.get(s.key, [])
        first = _session_turns(ctx, s.key, o.turns_per_session, own, o.late_turns)
        for r, item_id in enumerate(first, start=1):
            pool_ids[item_id] = float(r)
            if r > o.turns_per_session:
                late.add(item_id)
        for c in own:  # the session's summaries and facts that were candidates themselves
            if ctx.items[c.id].kind != "turn":
                pool_ids.setdefault(c.id, 0.0)
    for item_id in strays:  # no place in stage two's ranking (their scores say "below_top")
        pool_ids.setdefault(item_id, 0.0)
    _fill_items(ctx, pool_ids)
    t.lap("stage2_ms")
    top_lex = ctx.top_lexical  # of these candidates (search)
    focus = _session_focus(ctx)
    pool = []
    for item_id, turn_rank in pool_ids.items():
        it = ctx.items.get(item_id)
        if it is None:
            continue
        key = session_key(it)
        ss = by_key[key]
        sig_ = _signals(ctx, cand_of.get(item_id), it, ss.score / top_score, top_lex,
                        entities.get(key, ()))
        ranks = {"session_rank": float(ss.rank), "candidate_rank": float(cand_rank.get(item_id, 0))}
        if turn_rank:
            ranks["turn_rank"] = turn_rank
        score = _total(o.preset.weights, sig_)
        if focus:
            sig_["session_focus"] = focus * sig_["session"]
            score += sig_["session_focus"]
        pool.append(_Scored(item_id, score, sig_, cand_of.get(item_id), key, ranks))
    # the late turns have no say in the lifts below (each reads the pool's best hit of
    # each session): the pool without them is T's alone, so are its first LATE_HOLD
    if o.opener_lift > 0 and not asks_assistant(ctx.query):
        pool, late = _join(pool, _openers(ctx, _early(pool, late), top, cand_of, cand_rank,
                                          top_lex, entities, top_score), late)
        pool_ids.update({x.id: x.ranks.get("turn_rank", 0.0) for x in pool})
    if o.continue_lift > 0 and ctx.advice:
        pool, late = _join(pool, _continues(ctx, _early(pool, late), top, cand_of, cand_rank,
                                            top_lex, entities, top_score), late)
        pool_ids.update({x.id: x.ranks.get("turn_rank", 0.0) for x in pool})
    if (o.newest_weight > 0 and asks_newest(ctx.query)
            and not (o.newest_skips_speakers and ctx.speaker is not None)):
        _newest_first(ctx, _early(pool, late), o.newest_weight)
    if wide or strays:
        _below_top(pool, {s.key for s in top[: o.top_sessions]})
    pool.sort(key=by_score)
    if wide and o.gather_openers > 0 and ctx.openers:
        pool = _spread(ctx, pool, [s.key for s in top[: o.top_sessions]], o.final_k)
        head = _select(ctx, pool[: o.final_k], o.final_k, late)  # _spread chose the first ones
    else:
        head = _select(ctx, pool, o.final_k, late)
    if len(head) >= k:  # the caller keeps the first k: the rest need not be ranked
        return head     # (about 400 candidates a search; docs/scaling.md, sixth round)
    chosen = {x.id for x in head}
    # The rest: session by session in stage-one order, each by relevance.
    rest: list[_Scored] = [x for x in pool if x.id not in chosen]
    for c in cands:
        it = ctx.items.get(c.id)
        if it is None or c.id in chosen or c.id in pool_ids:
            continue
        ss = by_key[session_key(it)]
        rest.append(_Scored(c.id, c.relevance, {"relevance": c.relevance,
                                                "session": ss.score / top_score}, c,
                            ss.key, {"session_rank": float(ss.rank),
                                     "candidate_rank": float(cand_rank[c.id])}))
    rest.sort(key=lambda x: (by_key[x.key].rank, *by_score(x)))
    return head + rest


STRAY_GATE = 5
"""A question asking what someone does takes strays only when the person it names said more
than half of the first this many candidate turns with a speaker (``_speaker_leads``, as the
meaning tier's ``meaning_speaker_gate``): an adversarial question names the wrong person."""


def _strays(ctx: _Ctx, cands: list[Candidate], shortlisted: set[SessionKey]) -> list[int]:
    """The turns among the first ``pool_candidates`` candidate turns by relevance whose
    session stage one did not shortlist, for a question asking what someone has done over
    time ("What has Rosa painted?", "Where has Rosa camped?": ``asks_over_time``),
    or what the one person it names does ("What does Ivan do to unwind?":
    ``asks_habit``, when that person leads the candidates, ``_Ctx.leads``), that does not
    count ("How many ... have I ...?"): its answer is told in more sessions than stage one
    keeps (docs/retrieval.md, sessions 31 and 39)."""
    o = ctx.opts
    if not (asks_over_time(ctx.query) or ctx.leads) or GATHERS.search(ctx.query):
        return []  # a counting question reads gather_sessions more sessions already
    turns = sorted((c for c in cands if (it := ctx.items.get(c.id)) is not None
                    and it.kind == "turn"), key=by_relevance)[: o.pool_candidates]
    return [c.id for c in turns if session_key(ctx.items[c.id]) not in shortlisted]


ASKS_ASSISTANT = re.compile(
    r"\b(?:our (?:previous|last|earlier|past) (?:conversation|chat|discussion)"
    r"|you (?:said|told|mentioned|recommended|suggested|gave|listed|remember(?:ed)?)"
    r"|did you (?:say|tell|mention|recommend|suggest|give|list))\b",
    re.IGNORECASE)
"""A question about what the assistant said ("our previous conversation", "what did you
suggest"): its answer is an assistant's turn, so user openers are not lifted."""


def asks_assistant(query: str) -> bool:
    """Whether ``query`` recalls what the assistant said (``ASKS_ASSISTANT``)."""
    return ASKS_ASSISTANT.search(query) is not None


def _best_of_each(hits: Iterable[_Scored]) -> dict[SessionKey, _Scored]:
    """Each session's best hit by ``by_score`` (score, then what it earned, then id): the
    same hit whatever order ``hits`` come in. The pool is not sorted when ``_openers``,
    ``_continues`` and ``_newest_first`` ask, and a strict ``>`` on the score kept the first
    of two equal hits seen, i.e. the order the store's lists brought them in (session 38)."""
    best: dict[SessionKey, _Scored] = {}
    keys: dict[SessionKey, tuple[float, float, int]] = {}
    for x in hits:
        k = by_score(x)
        if x.key not in keys or k < keys[x.key]:
            best[x.key], keys[x.key] = x, k
    return best


def _openers(ctx: _Ctx, pool: list[_Scored], top: list[Any], cand_of: dict[int, Candidate],
             cand_rank: dict[int, int], top_lex: float,
             entities: dict[SessionKey, tuple[str, ...]], top_score: float) -> list[_Scored]:
    """Session openers: in a chat between a user and an assistant, the user's first turn
    states what the session is about ("I'm looking into a new shade for my desk
    lamp"), and a question that gathers over sessions ("How many lamps did I repair?")
    needs it even when a later turn matched the words better. Each of the best sessions'
    first user turn scores at least ``opener_lift ×`` its session's best hit. Sessions with
    speakers (conversations between people) are left alone: their first turn is a
    greeting. Returns the openers that were not in the pool yet."""
    if ctx.filters.kinds is not None and "turn" not in ctx.filters.kinds:
        return []  # the caller asked for other kinds
    lift = ctx.opts.opener_lift
    best = {key: x.score for key, x in _best_of_each(pool).items()}
    in_pool = {x.id: x for x in pool}
    added: list[_Scored] = []
    wanted = [s.key for s in top if not isinstance(s.key, tuple) and s.key in best]
    # one statement for the sessions whose turns this search has not read yet
    asked = {k for k in wanted if k not in ctx.turns}
    firsts = ctx.store.first_turns(sorted(asked), "user") if asked else {}
    for s in top:
        if isinstance(s.key, tuple) or s.key not in best:
            continue
        first = firsts.get(s.key)
        if first is None and s.key in asked:
            continue  # no user turn in that session
        if first is None or not ctx.filters.admits_in_session(first):
            # turns read already, or the first one filtered out: the first admitted one
            turns = [it for it in ctx.turns_of(s.key)
                     if it.role == "user" and ctx.filters.admits_in_session(it)]
            if not turns:
                continue
            first = min(turns, key=lambda it: (it.seq if it.seq is not None else 0, it.id))
        if speaker_of(first) is not None:
            continue
        ctx.items.setdefault(first.id, first)
        ctx.openers[s.key] = first.id
        found = in_pool.get(first.id)
        if found is not None:
            x = found
        else:
            sig_ = _signals(ctx, cand_of.get(first.id), first, s.score / top_score, top_lex,
                            entities.get(s.key, ()))
            x = _Scored(first.id, _total(ctx.opts.preset.weights, sig_), sig_,
                        cand_of.get(first.id), s.key,
                        {"session_rank": float(s.rank),
                         "candidate_rank": float(cand_rank.get(first.id, 0))})
            added.append(x)
        floor = lift * best[s.key]
        if floor > x.score:
            x.signals["opener"] = floor - x.score
            x.floor_or_cap(floor)
    return added


def _continues(ctx: _Ctx, pool: list[_Scored], top: list[Any], cand_of: dict[int, Candidate],
               cand_rank: dict[int, int], top_lex: float,
               entities: dict[SessionKey, tuple[str, ...]], top_score: float) -> list[_Scored]:
    """The user's next turn continues the subject of their best turn: an advice question
    ("Any cultural events this weekend?") is answered by the user's likes and plans, which
    they state over several turns ("...I'd love to go to something like the street fair I
    helped at", then "I've been practising my French lately"), and the later ones share fewer words with the question. In each of the best
    sessions, the first user turn after the session's best user hit scores at least
    ``continue_lift ×`` that hit, and joins the pool if it was not there. Turns with a
    speaker are left alone. Returns the turns that were not in the pool yet."""
    if ctx.filters.kinds is not None and "turn" not in ctx.filters.kinds:
        return []  # the caller asked for other kinds
    lift = ctx.opts.continue_lift
    best = _best_of_each(x for x in pool if (it := ctx.items.get(x.id)) is not None
                         and it.kind == "turn" and it.role == "user" and speaker_of(it) is None)
    in_pool = {x.id: x for x in pool}
    added: list[_Scored] = []
    srank = {s.key: s for s in top}
    for key, b in best.items():
        if isinstance(key, tuple) or key not in srank:
            continue
        after = ctx.items[b.id].seq
        if after is None:
            continue
        nxt = [(t.seq, t) for t in ctx.turns_of(key) if t.role == "user" and t.seq is not None
               and t.seq > after and ctx.filters.admits_in_session(t)]
        if not nxt:
            continue
        first = min(nxt, key=lambda p: (p[0], p[1].id))[1]
        ctx.items.setdefault(first.id, first)
        found = in_pool.get(first.id)
        if found is not None:
            x = found
        else:
            s = srank[key]
            sig_ = _signals(ctx, cand_of.get(first.id), first, s.score / top_score, top_lex,
                            entities.get(key, ()))
            x = _Scored(first.id, _total(ctx.opts.preset.weights, sig_), sig_,
                        cand_of.get(first.id), key,
                        {"session_rank": float(s.rank),
                         "candidate_rank": float(cand_rank.get(first.id, 0))})
            added.append(x)
        floor = lift * b.score
        if floor > x.score:
            x.signals["continues"] = floor - x.score
            x.floor_or_cap(floor)
    return added


def _spread(ctx: _Ctx, pool: list[_Scored], first: list[SessionKey], n: int) -> list[_Scored]:
    """A gathering question ("How many garden tools did I replace or fix?") counts over
    sessions, and each session tells its piece once, most often in its opener ("I'm
    after a few new soup recipes..."), while a later turn of a session that
    matched the words better takes its slots. ``pool`` (best first) reordered so that its
    first ``n`` hold the opener (``_openers``) of each session in ``first`` that scores at
    least ``gather_openers ×`` the best hit, then the rest by score. The first ``n`` stay in
    score order among themselves, so the sessions' order is kept. An opener moved up
    reports ``gathered_from``: the place its score gave it."""
    floor = ctx.opts.gather_openers * pool[0].score if pool else 0.0
    opener_ids = {ctx.openers[k] for k in first if k in ctx.openers}
    chosen: dict[int, _Scored] = {}
    for place, x in enumerate(pool, start=1):  # the openers that score well enough
        if len(chosen) >= n:
            break
        if x.id in opener_ids and x.score >= floor:
            chosen[x.id] = x
            if place > n:  # moved up: report the place its score gave it
                x.ranks["gathered_from"] = float(place)
    for x in pool:  # the rest by score
        if len(chosen) >= n:
            break
        chosen.setdefault(x.id, x)
    head = sorted(chosen.values(), key=by_score)
    return head + [x for x in pool if x.id not in chosen]


def _below_top(pool: list[_Scored], first: set[SessionKey]) -> None:
    """The hits of sessions a gathering question added beyond ``top_sessions`` rank below
    the best hit of every session before them: they can take the slots of those sessions'
    further turns, not change which sessions come first."""
    best: dict[SessionKey, float] = {}
    for x in pool:
        if x.key in first:
            best[x.key] = max(best.get(x.key, -float("inf")), x.score)
    if not best:
        return
    ceiling = min(best.values())
    for x in pool:
        if x.key not in first and x.score >= ceiling:
            x.signals["below_top"] = x.score - ceiling
            x.floor_or_cap(ceiling - 1e-9)


NEAR_SESSION = 0.5
"""Newest first orders only sessions scoring at least this share of the best session's..."""
NEAR_COSINE = 0.5
"""...and holding a turn this close (static vectors) to the most relevant turn: the
sessions that say the same thing, perhaps with an older value."""


def _newest_first(ctx: _Ctx, pool: list[_Scored], weight: float) -> None:
    """``weight × r × q`` for the best hit of each pool session that says nearly what the
    most relevant turn says (``NEAR_SESSION``, ``NEAR_COSINE``; ``r`` its place in time
    among them, 0 oldest to 1 newest; ``q`` its relevance over the most relevant turn's, at
    most 1), ``-weight`` for a turn whose stated facts were all superseded since. Only the
    best hit: the sessions' order changes, not which of their turns the first hits hold.
    ``q`` keeps a newer session that matches the question much less well (a chat about
    lamps beside the designer handbag the question asks about) from taking the lead of
    the sessions that match it as well as each other (docs/retrieval.md, tenth round).

    With the meaning tier on, ``q`` reads the relevance without the transformer's term
    (``_quick_relevance``: that term inflates the best turn's relevance and shrank every
    bonus), and ``_level_meaning`` evens that term out among the near sessions' best hits
    (docs/retrieval.md, session 14). The most relevant turn is still chosen with it: the
    transformer says what the question is about."""
    turns = [x for x in pool if ctx.items[x.id].kind == "turn"]
    if not turns:
        return
    anchor = min(turns, key=lambda x: best_first(x.signals.get("relevance", 0.0), x.id))
    top = _quick_relevance(ctx, anchor)
    vecs = ctx.store.item_vectors(ctx.embeddings.model, [x.id for x in turns])
    a = vecs.get(anchor.id)
    near: set[SessionKey] = {anchor.key}
    if a is not None:
        for x in turns:
            v = vecs.get(x.id)
            if (v is not None and x.signals.get("session", 0.0) >= NEAR_SESSION
                    and float(v @ a) >= NEAR_COSINE):
                near.add(x.key)
    latest: dict[SessionKey, date] = {}
    for x in pool:
        if x.key not in near:
            continue  # not a near-duplicate of the best hit: no say in "newest"
        day = local(ctx.items[x.id].at, ctx.now).date()
        latest[x.key] = max(latest.get(x.key, day), day)
    best = _best_of_each(x for x in pool if x.key in near)
    place = newest_places(latest)
    msgs: dict[int, _Scored] = {mid: x for x in pool
                                if ctx.items[x.id].kind == "turn"
                                and (mid := ctx.items[x.id].message_id) is not None}
    stale = ctx.store.superseded_messages(list(msgs)) if msgs else set()
    if ctx.meaning_lift:
        _level_meaning(ctx, list(best.values()))
    for key, x in best.items():
        share = min(1.0, _quick_relevance(ctx, x) / top) if top > 0 else 1.0
        x.ranks["newest_place"] = place[key]  # r; the signal is r × q
        x.signals["newest"] = place[key] * share
        x.score += weight * place[key] * share
    for x in pool:
        if ctx.items[x.id].message_id in stale and ctx.items[x.id].kind == "turn":
            x.signals["superseded"] = 1.0
            x.score -= weight


def _quick_relevance(ctx: _Ctx, x: _Scored) -> float:
    """The hit's relevance without what the meaning tier added (the quick tier's)."""
    return x.signals.get("relevance", 0.0) - ctx.meaning_lift.get(x.id, 0.0)


def _level_meaning(ctx: _Ctx, best: list[_Scored]) -> None:
    """Raise the meaning tier's term of each near session's best hit to the highest among
    them (the ``meaning_level`` signal, weight 1): the transformer does not order sessions
    that say nearly the same thing, newest first does. An update is often said in passing
    ("they pre-approved me for $400k after all") while the older session states the
    subject at length, so the transformer's cosine favours the stale value by 0.2-0.4,
    which at ``meaning_weight`` 0.5-0.6 outweighs the newest-first bonus."""
    top = max(ctx.meaning_lift.get(x.id, 0.0) for x in best)
    for x in best:
        gap = top - ctx.meaning_lift.get(x.id, 0.0)
        if gap > 0:
            x.signals["meaning_level"] = gap
            x.score += gap


def _session_turns(ctx: _Ctx, session_id: int, n: int, cands: list[Candidate],
                   late: int = 0) -> list[int]:
    """Stage two: the session's best ``n`` turns by relevance plus the per-kind bonus, then
    its next ``late`` turns (``SearchOptions.late_turns``; the best ``n`` are chosen as
    with ``late`` 0, the late ones after them from the candidates and then the local
    ranking below).

    ``cands``: the candidates, or only the session's (in the same order).

    When the candidate lists already hold at least ``n`` of the session's turns, those
    are ranked by their fused relevance. Otherwise every turn of the session is read and
    ranked locally: query-term overlap and cosine to the query, fused by RRF (a full-text
    query restricted to one session would still rank every match in the index first:
    measured 72 ms a search at 100k items).
    """
    if ctx.filters.kinds is not None and "turn" not in ctx.filters.kinds:
        return []  # the caller asked for other kinds: their candidates are in the pool
    bonus = ctx.opts.stage.bonus
    own = [(c.relevance + bonus.get(kind_key(it), 0.0), c.id) for c in cands
           if (it := ctx.items.get(c.id)) is not None and it.session_id == session_id
           and it.kind == "turn"]
    if len(own) >= n:
        own.sort(key=lambda x: best_first(*x))
        chosen = [i for _, i in own[: n + late]]
        if len(chosen) == n + late:
            return chosen
        taken = set(chosen)
        return chosen + [i for i in _local_turns(ctx, session_id, n + late)
                         if i not in taken][: n + late - len(chosen)]
    return _local_turns(ctx, session_id, n + late)


def _local_turns(ctx: _Ctx, session_id: int, n: int) -> list[int]:
    """The session's best ``n`` turns ranked locally (``_session_turns``): every turn read,
    query-term overlap and cosine to the query fused by RRF, plus the per-kind bonus."""
    bonus = ctx.opts.stage.bonus
    turns = [it for it in ctx.turns_of(session_id)
             if ctx.filters.admits_in_session(it)]
    for it in turns:
        ctx.items.setdefault(it.id, it)
    terms = {t.lower() for t in ctx.terms}
    overlap = [(it.id, float(len(terms & _lower_words(it.text)))) for it in turns]
    lexical = sorted([x for x in overlap if x[1] > 0], key=lambda x: best_first(x[1], x[0]))
    vector: list[tuple[int, float]] = []
    if ctx.qvec is not None and turns:
        vecs = ctx.store.item_vectors(ctx.embeddings.model, [it.id for it in turns])
        vector = sorted(((i, float(v @ ctx.qvec)) for i, v in vecs.items()),
                        key=lambda x: best_first(x[1], x[0]))
    lw, vw = _weights(ctx)
    fused = fuse_lists(lexical, vector, (lw, vw), ctx.scfg.rrf_k)
    for c in fused:
        one = ctx.items.get(c.id)
        if _other_speaker(ctx, one):
            c.relevance *= ctx.opts.speaker_factor
        c.relevance += bonus.get(kind_key(one), 0.0) if one is not None else 0.0
    fused.sort(key=by_relevance)
    return [c.id for c in fused[:n]]


def _lower_words(text: str) -> set[str]:
    """``{w.lower() for w in _WORD.findall(text)}``. ASCII text is lowered first, in one
    call (the same set: lowering ASCII changes no character's class); other text word by
    word, since lowering can split a word (``"İ".lower()`` adds a combining mark)."""
    if text.isascii():
        return set(_WORD.findall(text.lower()))
    return {w.lower() for w in _WORD.findall(text)}


def _early(pool: list[_Scored], late: set[int]) -> list[_Scored]:
    """The pool without its late turns (``SearchOptions.late_turns``)."""
    return [x for x in pool if x.id not in late] if late else pool


def _join(pool: list[_Scored], lifted: list[_Scored],
          late: set[int]) -> tuple[list[_Scored], set[int]]:
    """``pool`` with the hits a lift added to its early part (``_openers``,
    ``_continues``), and ``late`` without them: a late turn the lift took is no longer
    late (the lift's hit, scored as if new, replaces it). The caller's ``late`` is not
    changed in place."""
    if not lifted:
        return pool, late
    ids = {x.id for x in lifted}
    return [x for x in pool if x.id not in ids] + lifted, late - ids


LATE_HOLD = 5
"""The first places no late turn takes (``SearchOptions.late_turns``): a session's 6th and
7th turns by relevance fill the first ``final_k`` (LoCoMo's evidence ranked 6th-7th in its
session), but placed above the 5th they pushed other sessions' best hits down (LoCoMo's
R_all@5, LongMemEval's session nDCG@5: docs/retrieval.md, session 40)."""


def _hold_late(out: list[_Scored], late: set[int]) -> list[_Scored]:
    """``out`` with no late turn in its first ``LATE_HOLD`` places while another hit
    follows: the first ``LATE_HOLD`` other hits, then the rest in their order."""
    head = [x for x in out if x.id not in late][:LATE_HOLD]
    ids = {x.id for x in head}
    return head + [x for x in out if x.id not in ids]


def _select(ctx: _Ctx, pool: list[_Scored], n: int,
            late: set[int] | frozenset[int] = frozenset()) -> list[_Scored]:
    """The first ``n``: greedy with the coverage penalty, or by MMR when asked. A hit in
    ``late`` takes none of the first ``LATE_HOLD`` places while another hit is left."""
    w = ctx.opts.preset.weights
    if ctx.opts.mmr and ctx.qvec is not None and pool:
        vecs = ctx.store.item_vectors(ctx.embeddings.model, [x.id for x in pool])
        order = mmr_order([(x.id, x.score) for x in pool], vecs, ctx.opts.mmr_lambda, n)
        by_id = {x.id: x for x in pool}
        return _hold_late([by_id[i] for i in order], set(late))
    left = list(pool)
    seen: dict[SessionKey, int] = {}
    out: list[_Scored] = []
    wc = w["coverage"]
    # the penalty of m hits already taken from a session, for every m a pass can meet
    # (each pass scores every hit left: ~200 lookups a search)
    penalty = [sig.coverage_penalty(m) for m in range(min(n, len(pool)))]
    seen_get = seen.get
    early = len([x for x in left if x.id not in late]) if late else 0
    while left and len(out) < n:
        best_i, best = 0, -float("inf")
        hold = len(out) < LATE_HOLD and early > 0
        for i, x in enumerate(left):
            if hold and x.id in late:
                continue
            key = x.key
            score = x.score if key is None else x.score - wc * penalty[seen_get(key, 0)]
            if score > best:
                best_i, best = i, score
        x = left.pop(best_i)
        if late and x.id not in late:
            early -= 1
        cov = 0.0 if x.key is None else penalty[seen_get(x.key, 0)]
        if cov or ctx.opts.explain:
            x.signals["coverage"] = cov
        x.score = best
        seen[x.key] = seen_get(x.key, 0) + 1
        out.append(x)
    return out


def _hits(ctx: _Ctx, ordered: list[_Scored]) -> list[Hit]:
    items = ctx.items
    sessions = ctx.store.get_sessions(
        {sid for x in ordered if x.id in items and (sid := items[x.id].session_id) is not None})
    w = ctx.opts.preset.weights
    hits = []
    for rank, x in enumerate(ordered, start=1):
        it = items.get(x.id)
        if it is None:
            continue
        if ctx.opts.explain and "time" not in x.signals:  # a tail hit: fill in every signal
            x.signals = {**_signals(ctx, x.cand, it, x.signals.get("session", 0.0),
                                    ctx.top_lexical), "coverage": 0.0}
        scores: dict[str, float] = {"score": x.score, "rank": float(rank), **x.ranks, **x.signals}
        c = x.cand
        if c is not None:
            scores["rrf"] = c.rrf
            if c.lexical_rank is not None:
                scores["lexical_rank"], scores["lexical"] = float(c.lexical_rank), c.lexical or 0.0
            if c.vector_rank is not None:
                scores["vector_rank"], scores["vector"] = float(c.vector_rank), c.vector or 0.0
            if c.hyde_rank is not None:
                scores["hyde_rank"] = float(c.hyde_rank)
            if c.feedback_rank is not None:
                scores["feedback_rank"] = float(c.feedback_rank)
            if c.lifted_from is not None:
                scores["lifted_from"] = float(c.lifted_from)
            if c.meaning is not None:
                scores["meaning"] = c.meaning
            if c.id in ctx.meaning_skipped:  # uncached, over meaning_cold: not re-scored
                scores["meaning_skipped"] = ctx.meaning_lift.get(c.id, 0.0)
            if c.meaning_rank is not None:
                scores["meaning_rank"] = float(c.meaning_rank)
            if c.speaker_rank is not None:
                scores["speaker_rank"] = float(c.speaker_rank)
            if c.graph_hop is not None:
                scores["graph_hop"] = float(c.graph_hop)
        if _other_speaker(ctx, it):  # the query named someone else: relevance × this
            scores["other_speaker"] = ctx.opts.speaker_factor
        if ctx.about_user and c is not None:  # a demoted candidate: relevance × this
            if _impersonal(it):
                scores["impersonal"] = ctx.opts.impersonal_factor
            elif (factor := _about_user_factor(ctx, it)) is not None:
                scores["assistant_turn"] = factor
        if ctx.opts.reaction_factor < 1.0 and c is not None and _reaction(ctx, it):
            scores["reaction"] = ctx.opts.reaction_factor
        if c is not None and _timeless(ctx, it):
            scores["timeless"] = ctx.opts.timeless_factor
        if ctx.opts.explain:
            for name, value in x.signals.items():
                sign = -1.0 if name in ("coverage", "superseded", "below_top") else 1.0
                weight = w[name] if name in w else (
                    1.0 if name in ("opener", "below_top", "continues", "meaning_level", "session_focus")
                    else ctx.opts.newest_weight)
                scores[f"contrib.{name}"] = sign * weight * value
        hits.append(Hit(item=it, score=x.score, scores=scores,
                        session=sessions.get(it.session_id) if it.session_id else None))
    return hits


class _Timer:
    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._t = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = self.laps.get(name, 0.0) + (now - self._t) * 1e3
        self._t = now
