"""Session intelligence, stage 2 of indexing: summary, entities, facts, relations.

One session at a time is leased from the queue in the store, processed by the
configured intelligence backend (offline or an LLM) outside any transaction, and written
in one transaction with its vectors. Failures are recorded with their reason and retried
with exponential backoff; see docs/session-intelligence.md.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from memlane.config import Config, FactsConfig
from memlane.errors import EmbeddingError
from memlane.index.embed import Embeddings
from memlane.index.eventdate import event_date
from memlane.index.expand import item_keys, summary_keys
from memlane.index.facts import apply_fact, end_fact
from memlane.index.normalize import fact_text, name_key, normalize_predicate, subject_key, users_own
from memlane.index.people import speaker_subject
from memlane.index.pool import POOL_MIN_SESSIONS, SummaryPool, jobs_for, summary_pool
from memlane.index.schema import Extraction, SessionSummary
from memlane.ingest.redact import scrub, scrub_deep
from memlane.types import Message, Session
from memlane.store.contract import Store

__all__ = ["Intelligence", "SummaryRun", "fact_text", "process_queue", "stop_on",
           "store_intelligence"]

log = logging.getLogger("memlane.index")

UNSEARCHED_PREDICATES = frozenset({"stated"})
"""Facts of these predicates are stored as facts (``Memory.facts``, ``memlane facts``, a
session's facts, their events) with no item of their own: no text or vector for search to
find. The learned facts reader's ``<speaker> stated <sentence>`` repeats a sentence of its
turn, which search finds already; as an item it lifted that turn and competed with the turns
(LoCoMo dev recall_any@10 0.879 -> 0.873 with the reader on; without the item, the reader
off's retrieval exactly; session 50 of docs/retrieval.md)."""


class Intelligence(Protocol):
    """Writes a session's structured summary and extraction (offline or via an LLM)."""

    name: str

    def summarize(self, scope: str, messages: Sequence[Message]) -> tuple[SessionSummary, Extraction]: ...


@dataclass
class SummaryRun:
    summarized: int = 0
    failed: int = 0
    skipped: int = 0
    seconds: float = 0.0
    abandoned: int = 0
    """Sessions marked failed because the worker died during each of their attempts."""
    leased: int = 0
    """Sessions still leased by another (or a killed) worker when this run ended."""
    leased_until: float | None = None
    overtaken: int = 0
    """Sessions another worker wrote while this one waited for the backend (its lease had
    run out): this run's answer for them was dropped, nothing counted twice."""
    unavailable: str | None = None
    """Why the run stopped early: the model endpoint could not answer or timed out (the
    sessions not tried stay queued)."""
    jobs: int = 1
    """Processes that summarized (``indexing.jobs``; 1: the worker's own)."""


_local = threading.local()


@contextmanager
def stop_on(event: threading.Event) -> Iterator[None]:
    """Within it, ``process_queue`` in this thread claims no further session once ``event``
    is set (the index worker's stop: SIGTERM, ``Memory.close()``, the service's shutdown),
    so a stop waits for one session's backend call, not for the whole backlog's."""
    before = getattr(_local, "stop", None)
    _local.stop = event
    try:
        yield
    finally:
        _local.stop = before


def _stopping() -> bool:
    event = getattr(_local, "stop", None)
    return event is not None and event.is_set()


class Overtaken(Exception):
    """The session was written by another worker meanwhile: this answer is dropped."""


class _Erased(Exception):
    """What a session's intelligence was read from was erased meanwhile: roll back."""


def _as_users(subject: str, msg: Message | None) -> str | None:
    """A named speaker's own fact's subject as the user's (``users_own``), None when the fact
    is not the speaker's own (session 19)."""
    return users_own(subject, "user" if msg is None else speaker_subject(msg))


def _lost_messages(store: Store, session_id: int, messages: Sequence[Message]) -> bool:
    """Whether one of ``messages`` (read before the model's call) is no longer stored: an
    erase took it back while the session was summarised."""
    if not messages:
        return False
    kept = {m.id for m in store.session_messages(session_id)}
    return any(m.id not in kept for m in messages)


def _point_at_turns(store: Store, session_id: int, rows: list[dict[str, Any]]) -> None:
    """Each row read from a message takes that message's ``seq`` and its turn as source
    (``parents``: a hit on a fact or an observation lifts the turn it came from), as stored
    now, in the writing transaction. The extraction names a message by its place in the
    messages it read: a late message placed before it, or a merge, has numbered the
    session again since, and before session 25 a fact then pointed at the turn now holding
    the old number, a neighbour of the right one, with the old ``seq``."""
    seqs = {m.id: m.seq for m in store.session_messages(session_id)}
    turns = {it.message_id: it.id for it in store.session_items(session_id, kind="turn")}
    for row in rows:
        mid = row.get("message_id")
        if mid is not None:
            row["seq"] = seqs[mid]
            if row["kind"] in ("fact", "observation"):
                row["parents"] = [turns[mid]] if mid in turns else []


def store_intelligence(
    store: Store,
    embeddings: Embeddings,
    session: Session,
    messages: Sequence[Message],
    summary: SessionSummary | None,
    extraction: Extraction,
    facts_cfg: FactsConfig,
    *,
    claimed: bool = False,
) -> bool:
    """Write summary, facts, entities and relations of a session in one transaction;
    False (nothing written) when the session was erased meanwhile.

    ``claimed``: the session was claimed from the queue; if another worker has written it
    meanwhile (this one's lease ran out during the backend's call), nothing is written and
    ``Overtaken`` is raised.

    Whatever intelligence the session had before (an older summary) is replaced. Without a
    summary (a session too small for one) the rest is written and the session is counted as
    skipped.
    """
    scope = session.scope
    by_seq = {m.seq: m for m in messages}
    end = (summary.time_end.timestamp() if summary and summary.time_end
           else session.ended_at.timestamp())
    base = {"scope": scope, "agent": session.agent, "project": session.project,
            "session_id": session.id, "durability": "long"}
    rows: list[dict[str, Any]] = [] if summary is None else [{
        **base, "kind": "summary", "text": summary.flattened(scope), "at": end, "lane": "episodic",
        "source": "inferred" if summary.model != "offline" else "observed",
        "keywords": list(summary.topic_tags), "entities": list(summary.entities),
        "extra": {"summary": summary.to_dict()},
        "keys": summary_keys(summary.topic_tags, (o.text for o in extraction.observations),
                             datetime.fromtimestamp(end, UTC)),
    }]
    head = len(rows)  # the summary's row, when there is one, comes before the facts'
    # each fact with its row's place in ``rows``; None: no item (UNSEARCHED_PREDICATES)
    facts: list[tuple[Any, str, Message | None, int | None]] = []
    embedded: dict[int, str] = {}  # a row's text to embed, when not its text
    for f in extraction.facts:
        msg = by_seq.get(f.seq) if f.seq is not None else None
        pred = normalize_predicate(f.predicate)
        if pred in UNSEARCHED_PREDICATES:
            facts.append((f, pred, msg, None))
            continue
        facts.append((f, pred, msg, len(rows)))
        # a named speaker's own fact ("Caroline lives in Boston") is embedded as the user's
        # ("user lives in Boston"), as their turns are embedded without their name: in a chat
        # between its speakers the name is in nearly every question and pulled all of that
        # speaker's facts up alike (LoCoMo R_all@10 0.726 -> 0.718 with it; session 19)
        own = _as_users(f.subject, msg)
        if own is not None:
            embedded[len(rows)] = fact_text(own, pred, f.object)
        rows.append({
            **base, "kind": "fact", "text": fact_text(f.subject, pred, f.object),
            "at": msg.at.timestamp() if msg else end, "message_id": msg.id if msg else None,
            # the user's own facts, or a named speaker's about themselves (session 19)
            "seq": f.seq, "lane": "profile" if f.subject == "user" or own == "user" else "semantic",
            "source": f.source, "keywords": [pred],
            "extra": {"subject": f.subject, "predicate": pred, "object": f.object,
                      "sentence": f.text},
            "keys": item_keys(f.text, msg.at if msg else None),
        })
    cut = len(rows)  # the facts' rows end here
    for o in extraction.observations:
        msg = by_seq.get(o.seq) if o.seq is not None else None
        # "last weekend" said on a Tuesday: stored at the date it implies (a time stage one
        # matches to the query's windows) but keyed by the words of the day it was said, as
        # its turn is: an inferred "October" in the keys matched any question naming October
        event = event_date(o.text, msg.at) if msg else None
        when = event[0] if event else (msg.at if msg else None)
        said = msg.at if msg else None
        rows.append({
            **base, "kind": "observation", "text": o.text,
            "at": when.timestamp() if when else end,
            "message_id": msg.id if msg else None, "seq": o.seq, "lane": "episodic",
            "source": "stated",
            "keys": item_keys(o.text, said, (msg.speaker,) if msg and msg.speaker else ()),
            **({"extra": {"event_date": event[0].isoformat().replace("+00:00", "Z"), "event_phrase": event[1]}}
               if event else {}),
        })
    for e in extraction.entities:
        rows.append({
            **base, "kind": "entity", "text": f"{e.name} ({e.type})",
            "at": end, "lane": "semantic", "entities": [e.name],
            "extra": {"name": e.name, "type": e.type, "context": e.context},
        })
    # the new vectors go to the embedding cache in the session's own transaction: one commit
    # a session, not two (session 25, the cost)
    new_vectors: list[tuple[bytes, Any]] = []
    vectors = embeddings.for_index([embedded.get(i, r["text"]) for i, r in enumerate(rows)],
                                   cache_later=new_vectors)
    try:
        with store.atomic():
            # takes the scope's facts lock first; the cached vectors of what it deletes go,
            # but of the texts written again here
            old = store.clear_intelligence(
                session.id, keep=[*(r["text"] for r in rows), *embedded.values()])
            now_stored = store.get_sessions([session.id]).get(session.id)
            if now_stored is None or _lost_messages(store, session.id, messages):
                # erased while it was summarised (docs/erasure.md), or a message it read was
                # (``forget_item`` of a turn, which queued the session again): nothing written
                # quotes it. Rolled back, ``clear_intelligence`` too: committed, it deleted
                # what another worker had written since from the messages left (a session
                # marked summarized with no summary; session 24)
                raise _Erased
            if claimed and now_stored.summarized:
                # another worker claimed the session after this one's lease ran out (a model
                # call longer than indexing.lease_seconds) and has written it: keep its writing
                raise Overtaken(
                    f"session {session.id} was summarized by another worker while this one waited "
                    f"for its backend (a lease, indexing.lease_seconds, shorter than the call)")
            if new_vectors:
                store.cache_vectors(embeddings.model, new_vectors)
            _point_at_turns(store, session.id, rows)
            ids = store.insert_items([*rows[:head], *rows[cut:]])
            # what compaction made of the old summary names the new one (session 25)
            store.relink_summaries(scope, old, ids[0] if head else None)
            store.put_vectors(embeddings.model,
                              list(zip(ids, [*vectors[:head], *vectors[cut:]], strict=True)))
            forgotten: set[tuple[str, str, str]] = set()  # the facts the user forgot
            for f, pred, msg, at_row in facts:

                def make_item(i: int | None = at_row) -> int | None:
                    if i is None:
                        return None  # a fact with no item (UNSEARCHED_PREDICATES)
                    (item_id,) = store.insert_items([rows[i]])
                    store.put_vectors(embeddings.model, [(item_id, vectors[i])])
                    return item_id

                outcome = apply_fact(
                    store, facts_cfg, scope=scope, subject=f.subject, predicate=pred, obj=f.object,
                    source=f.source, at=msg.at.timestamp() if msg else end, session_id=session.id,
                    message_id=msg.id if msg else None, make_item=make_item,
                )
                if outcome.action == "forgotten":
                    forgotten.add((subject_key(f.subject), pred, name_key(f.object)))
            # what the session says has ended retires the values it names (session 22), after the
            # session's own values: "I quit my job" said after "I work at Acme" in one session
            for f in sorted(extraction.endings, key=lambda x: (x.seq is None, x.seq or 0)):
                msg = by_seq.get(f.seq) if f.seq is not None else None
                end_fact(store, facts_cfg, scope=scope, subject=f.subject, predicate=f.predicate, obj=f.object,
                         source=f.source, at=msg.at.timestamp() if msg else end, session_id=session.id,
                         message_id=msg.id if msg else None)
            for e in extraction.entities:
                store.upsert_entity(scope, e.name, name_key(e.name), e.type, e.context, end)
            for r in extraction.relations:
                if (subject_key(r.source), normalize_predicate(r.relation),
                        name_key(r.target)) in forgotten:
                    continue  # it restates a fact the user forgot (session 27)
                msg = by_seq.get(r.seq) if r.seq is not None else None
                store.insert_relation(scope, name_key(r.source), normalize_predicate(r.relation),
                                      name_key(r.target), session.id, msg.id if msg else None,
                                      msg.at.timestamp() if msg else end)
            # a late message that joined the session since its messages were read queues it
            # again (``finish_summary`` says False): what is written now is replaced then
            if summary is None:
                if store.finish_summary(session.id, version=None, model=None, now=time.time(),
                                        skipped=True, messages=len(messages)):
                    store.bump("sessions_skipped")
            elif store.finish_summary(session.id, version=summary.schema_version,
                                      model=summary.model, now=time.time(), messages=len(messages)):
                store.bump("sessions_summarized")
            store.bump("facts_extracted", len(facts))
            store.bump("entities_extracted", len(extraction.entities))
            store.bump("observations_extracted", len(extraction.observations))
    except _Erased:  # and take back what embedding it cached
        with store.atomic():
            store.forget_cached_texts([r["text"] for r in rows])
        return False
    return True


# Statuses that say the endpoint cannot answer now (overloaded, rate limited, down), not
# that this session is bad.
_UNAVAILABLE_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524, 529})


def endpoint_unavailable(error: BaseException) -> bool:
    """True when ``error`` says the model endpoint could not answer at all (refused or
    dropped connections, HTTP 429 and 5xx after the client's retries; the same from an
    embeddings endpoint, which the summaries' vectors need): every session
    would fail the same way, so the run stops and the session keeps its attempt. A
    timeout is not one of these (a long session can be what makes a model too slow), nor
    an answer that is not valid JSON, nor 4xx such as a wrong key or model name."""
    from memlane.backends.llm.errors import LLMBadResponse, LLMError, LLMHTTPError, LLMTimeout
    from memlane.errors import EmbeddingError

    if isinstance(error, EmbeddingError):  # the summary's vectors: an embeddings endpoint
        return error.unavailable
    if not isinstance(error, LLMError) or isinstance(error, (LLMBadResponse, LLMTimeout)):
        return False
    if isinstance(error, LLMHTTPError):
        return error.status in _UNAVAILABLE_STATUS
    return True


def _timed_out(error: BaseException) -> bool:
    from memlane.backends.llm.errors import LLMTimeout

    return isinstance(error, LLMTimeout)


def _answered(error: BaseException) -> bool:
    """True when ``error`` still shows the model endpoint answering: an answer that is not
    valid JSON or breaks the schema, or a 4xx (a request it refused to serve)."""
    from memlane.backends.llm.errors import LLMBadResponse, LLMHTTPError

    return (isinstance(error, LLMBadResponse)
            or (isinstance(error, LLMHTTPError) and not endpoint_unavailable(error)))


MAX_DEFERRAL_SECONDS = 3600.0
"""The longest wait after an attempt given back (an outage): an hour, so the backlog
resumes soon after the endpoint does."""


@dataclass
class _Failure:
    session: Session
    reason: str
    error: BaseException


def _delay(cfg: Any, failure: _Failure, *, counted: bool) -> float:
    """Seconds until a failed session is due again: counted, by its attempts (at most a
    day); given back, by its earlier deferrals (at most an hour); a Retry-After is
    honoured up to a day."""
    s = failure.session
    if counted:  # at most a day: 2^(attempts-1) past float's range was an OverflowError
        delay = min(cfg.retry_base_seconds * 2.0 ** min(s.attempts - 1, 64), 86400.0)
    else:
        delay = min(cfg.retry_base_seconds * 2.0 ** min(s.deferrals, 64), MAX_DEFERRAL_SECONDS)
    after = getattr(failure.error, "retry_after", None)  # HTTP 429's Retry-After
    if isinstance(after, (int, float)) and after == after:
        delay = max(delay, min(float(after), 86400.0))
    return delay


def _record_failure(store: Store, cfg: Any, failure: _Failure, *, counted: bool,
                    note: str) -> None:
    """Write a failed attempt, counted or given back."""
    s = failure.session
    delay = _delay(cfg, failure, counted=counted)
    reason = f"{failure.reason} ({note})" if note else failure.reason
    with store.atomic():
        store.fail_summary(s.id, reason, time.time() + delay, count_attempt=counted)
        store.bump("sessions_failed")
    log.warning("session %s failed (attempt %s%s): %s", s.id, s.attempts,
                "" if counted else ", given back", reason)


GIVEN_BACK = "the model endpoint is unavailable: attempt not counted"


def _count_after_all(store: Store, cfg: Any, failure: _Failure, note: str) -> None:
    """Count the attempt a suspect was given back: the endpoint answered the session after
    it. Nothing is changed when another worker has claimed the session meanwhile."""
    s = failure.session
    reason = f"{failure.reason} ({note})"
    with store.atomic():
        done = store.count_given_back(s.id, reason, time.time() + _delay(cfg, failure, counted=True))
    if done:
        log.warning("session %s failed (attempt %s, counted after all): %s", s.id, s.attempts,
                    reason)


def _patterns(intelligence: Intelligence, config: Config) -> Intelligence:
    """The offline backend that reads a small session's facts: ``intelligence`` itself
    when it is the offline one, else a new one as ``[memory.summary]`` configures it."""
    from memlane.backends.registry import offline_intelligence

    offline = getattr(intelligence, "name", None) == "offline"
    return intelligence if offline else offline_intelligence(config)


def _with_endings(extraction: Extraction, messages: Sequence[Message]) -> Extraction:
    """What the user says has ended, read by the offline patterns (``memlane.index.ending``)
    for a backend that writes no endings (an LLM's JSON has no field for them; session 22):
    "I no longer work at Acme" retires the value whichever backend summarised."""
    from memlane.index.ending import with_endings
    from memlane.index.offline import OfflineIntelligence, _sentences

    return with_endings(extraction, messages, OfflineIntelligence._facts, _sentences)


def process_queue(
    store: Store,
    embeddings: Embeddings,
    intelligence: Intelligence,
    config: Config,
    *,
    limit: int | None = None,
    scope: str | None = None,
    late_settle: float = 0.0,
    pool_min: int = POOL_MIN_SESSIONS,
    progress: Callable[[int, int], None] | None = None,
) -> SummaryRun:
    """Lease and process queued sessions until the queue is empty (or ``limit``); with
    ``scope``, that scope's sessions only. ``late_settle``: a session late messages queued
    again waits that many seconds after the first of them (the background worker passes
    ``indexing.late_settle_seconds``: a burst costs one summary).

    With ``indexing.jobs`` above one and at least ``pool_min`` sessions waiting, the offline
    backend summarizes in that many processes (``memlane.index.pool``) from the run's second
    session on: up to two a process are claimed ahead, and each answer is written here, in
    claim order, as in one process.

    ``progress(done, waiting)``: called as each session is done (summarized, too small,
    failed or written by another worker), ``waiting`` being the queue's length when the run
    began (sessions of every scope, those not due yet and those leased elsewhere too)."""
    cfg = config.indexing
    run = SummaryRun()
    jobs = jobs_for(cfg.jobs)
    with ExitStack() as stack:

        def start() -> SummaryPool | None:
            """The processes, when a backlog waits (asked once a run has a session, so an
            idle poll costs no count)."""
            if store.summary_queue(time.time(), cfg.max_attempts)["pending"] < pool_min:
                return None
            pool = summary_pool(intelligence, jobs)
            if pool is not None:
                stack.callback(pool.close)
                run.jobs = pool.jobs
            return pool

        pooled = (jobs > 1 and getattr(intelligence, "name", None) == "offline"
                  and (limit is None or limit >= pool_min))
        held: dict[int | None, float] = {}
        told = None
        if progress is not None:
            waiting = store.summary_queue(time.time(), cfg.max_attempts)["pending"]

            def told() -> None:
                progress(run.summarized + run.skipped + run.failed + run.overtaken
                         - run.abandoned, waiting)

        try:
            return _process(store, embeddings, intelligence, config, run,
                            start if pooled else None, held, told, limit=limit, scope=scope,
                            late_settle=late_settle)
        except BaseException:
            # stopped (Ctrl-C, SIGTERM, a database error): the sessions this run claimed and
            # did not finish are given back at once, not left to wait out their lease
            # (indexing.lease_seconds) as a crashed worker's are (session 25)
            _release(store, held)
            raise


def _release(store: Store, held: dict[int | None, float]) -> None:
    """Give back the claims in ``held`` (session id, None for a claim in flight: its lease)
    that are still this run's, on a connection started afresh: the stop may have landed inside a
    transaction's own bookkeeping, and the connection it left would have nested the give-back
    in a transaction never committed, or failed it (``Store.reset_connection``; session 47:
    under load, two stops of five left their claims leased so)."""
    try:
        store.reset_connection()
        with store.atomic():
            given = sum(store.release_summary(sid, lease) for sid, lease in held.items())
    except Exception as e:  # noqa: BLE001 - the database may be what stopped the run
        log.warning("the %s session(s) this run had claimed wait out their lease "
                    "(indexing.lease_seconds): giving them back failed (%s)", len(held), e)
        return
    if given:
        log.info("gave back %s session(s) claimed and not summarized", given)


def _computed(backend: Intelligence, session: Session, messages: Sequence[Message],
              answer: Future[Any] | None, pool: SummaryPool | None,
              ) -> tuple[tuple[SessionSummary, Extraction], float]:
    """``backend``'s answer for the session and the seconds it took: ``pool``'s, or computed
    here when there is none or one of its processes died (the session was claimed and read
    by this worker, so it is summarized here, and so is the rest of the run: nothing of
    theirs was written)."""
    if answer is not None and pool is not None:
        try:
            got: tuple[tuple[SessionSummary, Extraction], float] = answer.result()
            return got
        except BrokenProcessPool as e:
            pool.died(e)
    started = time.perf_counter()
    return backend.summarize(session.scope, messages), time.perf_counter() - started


def _process(
    store: Store,
    embeddings: Embeddings,
    intelligence: Intelligence,
    config: Config,
    run: SummaryRun,
    start: Callable[[], SummaryPool | None] | None,
    held: dict[int | None, float],
    told: Callable[[], None] | None,
    *,
    limit: int | None,
    scope: str | None,
    late_settle: float,
) -> SummaryRun:
    cfg = config.indexing
    pool: SummaryPool | None = None
    patterns: Intelligence | None = None
    t0 = time.perf_counter()
    started_at = time.time()
    with store.atomic():
        gone = store.fail_abandoned(
            started_at, cfg.max_attempts,
            f"the worker stopped during summarization {cfg.max_attempts} times (killed or "
            "crashed before it could record a failure); not retried automatically", scope)
        if gone:
            store.bump("sessions_failed", len(gone))
            store.bump("sessions_abandoned", len(gone))
    for session_id in gone:
        log.warning("session %s failed: the worker stopped during each of its %s attempts",
                    session_id, cfg.max_attempts)
    run.abandoned = run.failed = len(gone)
    # Telling an outage from a session the endpoint cannot serve (too long for the model's
    # context, or content that crashes the server: a 5xx every time while others are
    # answered). A 429/5xx counts as the session's attempt when the model call just before
    # it in this run was answered. As the run's first model call, it makes the session a
    # suspect, and the next session tells: answered, the suspect's attempt counts; refused
    # too, it is an outage: both attempts are given back and the run stops (as it stops at
    # a refusal right after a counted one). A suspect with nothing after it is given back,
    # at most indexing.max_deferrals times a session. docs/session-intelligence.md.
    suspect: _Failure | None = None
    last: str | None = None  # the last model call of this run: "answered" or "refused"

    def settle(evidence: bool, by: int) -> None:
        """The suspect was given back when it failed (so that no lease of it is held while
        the next session is tried, nor left behind by a worker killed meanwhile); with
        evidence, its attempt counts after all."""
        nonlocal suspect
        if suspect is None:
            return
        if evidence:
            _count_after_all(store, cfg, suspect,
                             note=f"the endpoint answered session {by} right after it: "
                                  "counted as this session's attempt")
        suspect = None

    def _give_back(failure: _Failure) -> None:
        capped = failure.session.deferrals >= cfg.max_deferrals
        _record_failure(store, cfg, failure, counted=capped,
                        note=(f"given back {failure.session.deferrals} times already "
                              "(indexing.max_deferrals): counted" if capped else GIVEN_BACK))

    # claimed and read, each with its pool's answer to come (with a pool only)
    ahead: deque[tuple[Session, list[Message], bool, Future[Any]]] = deque()
    drained = False

    def claim() -> tuple[Session, list[Message], bool] | None:
        """The next session to summarize, its messages and whether it is small (one that
        gets nothing is marked skipped here); None: the queue is done for this run."""
        nonlocal drained
        while not drained and (limit is None
                               or run.summarized + run.failed + run.skipped + len(ahead) < limit):
            if _stopping():
                log.info("index worker stopping: the sessions not yet summarized wait for its next run")
                break
            now = time.time()
            # the lease, as the claim writes it, held before the claim is made: a stop that
            # lands while the claim is in flight (committed, its session not yet read or
            # noted here) gives it back by its lease; held from the claim's answer on, it
            # was left leased in one stop of six with indexing.jobs 2 (session 25)
            held[None] = now + cfg.lease_seconds
            session = store.claim_for_summary(now, cfg.lease_seconds, cfg.max_attempts,
                                              due_before=started_at, scope=scope,
                                              settle=late_settle)
            if session is None:
                del held[None]
                break
            held[session.id] = held[None]
            del held[None]
            messages = store.session_messages(session.id)
            small = len(messages) < config.ingest.min_session_messages
            if small and not (cfg.small_session_facts and messages):
                with store.atomic():
                    store.finish_summary(session.id, version=None, model=None, now=now,
                                         skipped=True, messages=len(messages))
                    store.bump("sessions_skipped")
                run.skipped += 1
                continue
            return session, messages, small
        drained = True
        return None

    while True:
        # the session before was written or failed: the claims held are those ahead
        for sid in held.keys() - {a[0].id for a in ahead}:
            del held[sid]
        if told is not None:
            told()
        answer: Future[Any] | None = None
        if pool is not None and not pool.broken:
            # two sessions a process in flight, sent as they are claimed
            while len(ahead) < 2 * pool.jobs and (got := claim()) is not None:
                ahead.append((*got, pool.submit(got[0].scope, got[1])))
        if ahead:
            session, messages, small, answer = ahead.popleft()
        elif (got := claim()) is not None:
            session, messages, small = got
            if start is not None:  # the run's first session (summarized here): a backlog?
                pool, start = start(), None
        else:
            break
        started = time.perf_counter()
        summary: SessionSummary | None
        try:
            if small:  # no summary; the patterns read its facts, with no model call
                patterns = patterns or _patterns(intelligence, config)
                (_, extraction), took = _computed(patterns, session, messages, answer, pool)
                summary = None
                started = time.perf_counter() - took
            else:
                (summary, extraction), took = _computed(intelligence, session, messages, answer,
                                                        pool)
                started = time.perf_counter() - took
                last = "answered"
                settle(True, session.id)
                if getattr(intelligence, "name", None) != "offline" and not extraction.endings:
                    extraction = _with_endings(extraction, messages)
            # a model may write what no message said (or echo a custom pattern): scrub again
            summary, extraction = scrub_deep(config.ingest, (summary, extraction))
            if not store_intelligence(store, embeddings, session, messages, summary,
                                      extraction, config.facts, claimed=True):
                continue  # erased meanwhile: nothing to count
        except Overtaken as e:
            log.warning("%s; its answer is dropped", e)
            run.overtaken += 1
            continue
        except Exception as e:  # noqa: BLE001 - a backend's bug fails this session, named
            # an error may quote the model's answer (a bad one repeats what it was told, or
            # invents a key): redacted like any text memlane stores (session 23)
            failure = _Failure(session, scrub(config.ingest, f"{type(e).__name__}: {e}")[0], e)
            run.failed += 1
            if store.lost_connection(e):
                # the connection was lost under the session's write (a restart,
                # pg_terminate_backend, a pooler; rolled back): the database's failure, not
                # the session's, so its attempt is given back (session 25: it was counted,
                # and five such failed the session for good); the next one reconnects
                _give_back(failure)
                continue
            if endpoint_unavailable(e):
                if isinstance(e, EmbeddingError):
                    # the summary's vectors: the embeddings endpoint is down, whatever the
                    # chat endpoint did
                    settle(False, session.id)
                    _give_back(failure)
                elif last == "answered":
                    # the endpoint answered the session before this one: this one's
                    _record_failure(store, cfg, failure, counted=True,
                                    note="the endpoint answered the session before it: "
                                         "counted as this session's attempt")
                    last = "refused"
                    continue
                elif last is None and session.deferrals < cfg.max_deferrals:
                    _give_back(failure)
                    suspect = failure  # the next session tells
                    last = "refused"
                    continue
                else:  # two refusals in a row (or a session given back to its cap)
                    settle(False, session.id)
                    _give_back(failure)
                run.unavailable = failure.reason
                log.warning("summaries paused until the next run: the model endpoint is "
                            "unavailable (%s)", failure.reason)
                break
            if _answered(e):
                last = "answered"
                settle(True, session.id)
            _record_failure(store, cfg, failure, counted=True, note="")
            if _timed_out(e):
                # a hung endpoint: a timeout costs timeout × retries a session, and a run over
                # a backlog took hours: leave the others queued, untried, for the next run.
                # A timeout still counts (a long session can be what makes a model slow).
                settle(False, session.id)
                run.unavailable = failure.reason
                log.warning("summaries paused until the next run: the model endpoint is "
                            "unavailable (%s)", failure.reason)
                break
            continue
        if small:
            run.skipped += 1
            continue
        with store.atomic():
            store.bump("summary_ms_total", int((time.perf_counter() - started) * 1000))
        run.summarized += 1
    for left in ahead:  # claimed ahead of a stop for an outage: given back as the last was
        _give_back(_Failure(left[0], run.unavailable or GIVEN_BACK, RuntimeError(GIVEN_BACK)))
    settle(False, 0)  # a suspect nothing came after stays given back (up to max_deferrals)
    queue = store.summary_queue(time.time(), cfg.max_attempts)
    run.leased, run.leased_until = queue["leased"], queue.get("leased_until")
    run.seconds = time.perf_counter() - t0
    return run

