"""The facade: ``Memory`` wires config, store, embedder, ingest, index and search."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from memlane.backends.registry import make_embedder, make_intelligence
from memlane.config import Config, load_config
from memlane.cursor import read_start
from memlane.errors import ConflictError, MigrationError, NotFoundError, StoreError, ValidationError
from memlane.index.compact import CompactReport, compact
from memlane.index.embed import Embeddings, text_hash
from memlane.index.facts import FactOutcome, FactView, is_single_valued, view
from memlane.index.graph import items_naming, spellings
from memlane.index.hygiene import GcReport, collect_garbage
from memlane.index.indexer import close_idle, index_pending
from memlane.index.normalize import normalize_predicate, normalize_value, subject_key, value_of_key
from memlane.index.pipeline import Intelligence, process_queue
from memlane.index.schema import SUMMARY_SCHEMA_VERSION, Extraction, SessionSummary
from memlane.index.upsert import add_fact, topic_slug, upsert_item
from memlane.index.worker import IndexWorker
from memlane.ingest.importer import import_jsonl
from memlane.ingest.params import validated
from memlane.ingest.redact import scrub, scrub_deep
from memlane.ingest.sessionize import (
    Incoming,
    held_under_id,
    prepare,
    same_message,
    scrub_label,
    store_message,
    store_messages,
)
from memlane.store.urls import public_url
from memlane.textcaches import forget_cached_text
from memlane.ingest.spellings import forget_spellings, resolve_scope, spellings_of
from memlane.ingest.validate import check_unicode, parse_time
from memlane.pack.packer import Pack, build_pack, candidates_from
from memlane.pack.tokens import counter_for
from memlane.protocols import Embedder, TokenCounter, Tracer
from memlane.retrieve.hyde import expander_for
from memlane.retrieve.newest import asks_newest
from memlane.retrieve.options import search_options
from memlane.retrieve.search import search as search_items
from memlane.store import Filters, open_store
from memlane.store.contract import Store
from memlane.types import EraseReport, Hit, ImportReport, IndexReport, Item, Message, Session

__all__ = ["Memory", "SummaryDraft", "make_embedder", "make_intelligence"]

log = logging.getLogger("memlane")
_TOUCH = "searches do not record when facts were last used (confidence.touch_on_access)"


@dataclass(frozen=True)
class SummaryDraft:
    """A summary of the last turns of a scope, written but not stored until confirmed."""

    scope: str
    message_ids: tuple[int, ...]
    session_id: int
    summary: SessionSummary
    extraction: Extraction

    def preview(self) -> str:
        return self.summary.flattened(self.scope)



def _id_taken(msg: Incoming, index: int | None = None) -> ConflictError:
    """The error for a message whose id its scope already holds with another message
    (``index``: its place in a batch)."""
    text = (f"id: {msg.ext_id!r} already exists in scope {msg.scope!r} with another message"
            " (the same message delivered again is stored once; a different one needs its own id)")
    if index is None:
        return ConflictError(text, field="id")
    return ConflictError(f"messages[{index}]: {text}", field=f"messages.{index}.id")


def _delivered_again(store: Any, msg: Incoming, index: int | None = None, *,
                     timed: bool = True) -> Message:
    """The stored message ``msg`` repeats (its scope holds its id): at-least-once delivery
    stores a message once, and a retry gets the stored one back. Another message under the
    same id is a ``ConflictError`` naming the id. A message whose time was left out (not
    ``timed``: dated now) takes the stored message's time, so role, text, speaker, agent
    and project decide: a retry after a timeout rarely repeats a time it never gave. The
    CLI, HTTP and MCP looked the id up before the call to do so since session 33, and the
    library dated the retry anew, another message (session 35: decided here, from the one
    look-up this makes anyway)."""
    stored = held_under_id(store, msg)
    if stored is not None and not timed:
        msg = dataclasses.replace(msg, at=stored.at)
    if stored is None or not same_message(stored, msg):
        raise _id_taken(msg, index)
    return stored


def _check_parts(config: Any, embedder: Any, intelligence: Any, tracer: Any) -> None:
    """Refuse a ``Memory`` part of the wrong kind, naming the parameter, before anything is
    opened: a path as ``config`` failed with ``AttributeError: 'str' object has no
    attribute 'facts'``, and a name or a class as ``embedder`` only at the first index run,
    after messages were stored (``'str' object has no attribute 'name'``; session 29)."""
    def kind(value: Any) -> str:
        return f"the class {value.__name__}; pass an instance" if isinstance(value, type) else \
            type(value).__name__
    if config is not None and not isinstance(config, Config):
        raise ValidationError(f"config: must be a memlane.config.Config (load_config(path) reads "
                              f"a memlane.toml), got {kind(config)}", field="config")
    if embedder is not None and (isinstance(embedder, type)
                                 or not isinstance(getattr(embedder, "name", None), str)
                                 or not callable(getattr(embedder, "embed_batch", None))):
        raise ValidationError("embedder: must be an Embedder (a name and an embed_batch(texts) "
                              f"method, memlane.protocols), got {kind(embedder)}",
                              field="embedder")
    if intelligence is not None and (isinstance(intelligence, type)
                                     or not callable(getattr(intelligence, "summarize", None))):
        raise ValidationError("intelligence: must have a summarize(scope, messages) method "
                              f"(memlane.index.pipeline.Intelligence), got {kind(intelligence)}",
                              field="intelligence")
    if tracer is not None and not callable(tracer):
        raise ValidationError(f"tracer: must be a function (kind, detail, params), got "
                              f"{kind(tracer)}", field="tracer")


class _Calls:
    """The public calls in flight on a ``Memory``, per thread: ``close()`` refuses new ones
    and waits for the other threads' to finish before it closes the connections (closing
    a SQLite connection another thread was using crashed the process: a segmentation
    fault, three runs out of three, with three threads adding while one closed)."""

    WAIT_SECONDS = 30.0
    SCHEMA_SECONDS = 5.0
    """How often, at most, a call first asks whether the database is still at this
    memlane's schema (``Store.check_schema``, one read of ``schema_migrations``): a process
    whose own index worker does not run (``serve.index_worker = false``, the other
    processes of ``--workers N``, an application's ``Memory``) went on writing with a
    schema another process had migrated past (session 26)."""

    def __init__(self, url: str, check_schema: Callable[[], None] | None = None) -> None:
        self.url = url
        self.closed = False
        self._running = 0
        self._cond = threading.Condition(threading.Lock())
        self._mine = threading.local()
        self.refused: MigrationError | None = None
        """Set when the database was found at another memlane's schema (by the index
        worker or a call's check): every new call raises it (``refuse``)."""
        self._check_schema = check_schema
        self._schema_at = time.monotonic()  # opening the database checked it
        self._at_end: Callable[[], None] | None = None

    def refuse(self, why: MigrationError) -> None:
        """Refuse every new call with ``why``: the database is at a schema this memlane does
        not know (another process migrated it, or an older copy was put in its place), and
        a write would use the wrong one (session 25)."""
        self.refused = why

    def error(self) -> StoreError:
        return StoreError(f"{self.url}: this database was closed (Memory.close() or the end of "
                          "its with block); open a new Memory to use it again")

    def begin(self) -> None:
        depth = getattr(self._mine, "depth", 0)
        with self._cond:
            if self.closed and not depth:
                raise self.error()
            if self.refused is not None and not depth:
                raise MigrationError(str(self.refused))
            due = (not depth and self._check_schema is not None
                   and time.monotonic() - self._schema_at >= self.SCHEMA_SECONDS)
            if due:
                self._schema_at = time.monotonic()  # one thread asks; the others go on
            self._running += 1
        self._mine.depth = depth + 1
        if due:
            try:
                self.schema_still_ours()
            except BaseException:
                self.end()
                raise

    def schema_still_ours(self) -> None:
        """Raise the ``MigrationError`` of a database no longer at this memlane's schema,
        and refuse every call after it, as the index worker's stop does. A check the
        database failed otherwise (an outage, a lost connection) is asked again by the next
        call; this one goes on and meets the database itself."""
        assert self._check_schema is not None
        try:
            self._check_schema()
        except MigrationError as e:
            self.refuse(e)
            raise MigrationError(str(e)) from None
        except StoreError:
            with self._cond:
                self._schema_at = -self.SCHEMA_SECONDS

    def end(self) -> None:
        self._mine.depth -= 1
        with self._cond:
            self._running -= 1
            if self.closed:  # only close() waits
                self._cond.notify_all()
            last, self._at_end = (self._at_end, None) if self._running == 0 else (None, self._at_end)
        if last is not None:
            last()

    def inside(self) -> bool:
        """Whether this thread is inside one of its own calls (a progress callback)."""
        return getattr(self._mine, "depth", 0) > 0

    def when_done(self, close: Callable[[], None]) -> None:
        """Run ``close`` when the last call in flight ends (a ``close()`` made inside one
        of its thread's own calls: the call goes on to its end first)."""
        with self._cond:
            self._at_end = close

    def close(self) -> bool:
        """Refuse new calls; wait for the other threads' (up to ``WAIT_SECONDS``); True if
        none is left."""
        own = getattr(self._mine, "depth", 0)
        with self._cond:
            self.closed = True
            return self._cond.wait_for(lambda: self._running <= own, self.WAIT_SECONDS)


class _Touches:
    """The accesses of the facts searches returned (``confidence.touch_on_access``), written
    without making a search wait: when the write would wait for another writer (another
    process's import holding SQLite's write lock; on PostgreSQL a worker writing the scope's
    facts) it is skipped and the accesses are kept, for the next search's write or for
    ``Memory.close``. Session 54: a search returning a fact waited for the write lock, up
    to the busy timeout, and with it the service's reads, which never wait behind writers.
    At most one access a fact is kept (the latest; ``touch_facts`` only moves one forward)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._due: dict[int, float] = {}

    def add(self, due: dict[int, float]) -> None:
        with self._lock:
            for fact_id, at in due.items():
                self._due[fact_id] = max(at, self._due.get(fact_id, at))

    def write(self, store: Store, *, wait: bool) -> None:
        """Write the accesses due; ``wait`` false: kept for later if the database is being
        written by another (``StoreError.busy``)."""
        with self._lock:
            due, self._due = self._due, {}
        if not due:
            return
        by_time: dict[float, list[int]] = {}
        for fact_id, at in due.items():
            by_time.setdefault(at, []).append(fact_id)
        try:
            with store.atomic(wait=wait):
                for at, ids in by_time.items():
                    store.touch_facts(ids, at)
        except StoreError as e:
            if e.busy:
                self.add(due)
            raise


class Memory:
    """Long-term memory over one database.

    >>> mem = Memory("memlane.db")                       # doctest: +SKIP
    >>> mem.add_message("chat-1", "user", "My cat is called Miso")
    >>> mem.index()
    >>> mem.search("what is my cat's name?", scope="chat-1")
    """

    def __init__(
        self,
        db: str | Path | None = None,
        *,
        config: Config | None = None,
        embedder: Embedder | None = None,
        intelligence: Intelligence | None = None,
        tracer: Tracer | None = None,
    ) -> None:
        if db is not None and not isinstance(db, (str, Path)):
            raise ValidationError(f"db: must be a path or URL, got {type(db).__name__}", field="db")
        if db is not None:
            check_unicode(str(db), "db")
        _check_parts(config, embedder, intelligence, tracer)
        self.config = config if config is not None else load_config()
        self.store = open_store(db if db is not None else self.config.db, tracer=tracer)
        # the facts' cardinality, which settling a value an erased ending had ended needs (session 22)
        self.store.facts_config = self.config.facts  # type: ignore[attr-defined]
        self._embedder = embedder
        self._embeddings: Embeddings | None = None
        self._intelligence = intelligence
        self._local = threading.local()  # per-thread call state: timings, notice, no_touch
        self._worker: IndexWorker | None = None
        self._closed = False
        self._calls = _Calls(self.store.url, self.store.check_schema)
        self._touches = _Touches()

    # -- lifecycle ----------------------------------------------------------------------
    def close(self) -> None:
        """Stop the background worker, if any, and close the database. Every call after
        raises ``StoreError`` (a closed database); closing twice is allowed. Called from
        inside one of this thread's own calls (a progress callback of ``index`` or
        ``backfill_embeddings``), that call runs to its end first and the database is
        closed after it. Other threads' calls in flight are waited for, 30 seconds at most
        (past that their connections are left to them)."""
        self._closed = True
        if self._worker is not None:
            self._worker.stop()
        if not self._calls.close():
            # closing a connection another thread is using would crash the process: leave
            # them to their threads (each is closed when its thread ends)
            log.warning("memlane: %s closed while other threads' calls still ran after %gs; "
                        "their connections are left to them", self.store.url,
                        _Calls.WAIT_SECONDS)
            return
        if self._calls.inside():
            # called from inside one of this thread's calls (a progress callback): closing
            # the connections under it failed it half-way ("Cannot operate on a closed
            # database"), its claimed sessions left leased; it ends first (session 29)
            self._calls.when_done(self._close_store)
            return
        self._close_store()

    def _close_store(self) -> None:
        """Write the facts' accesses still due (``_Touches``), waiting for the database as
        any write does, then close it."""
        try:
            with self._unless_refused(_TOUCH):
                self._touches.write(self.store, wait=True)
        except StoreError as e:  # (a database gone: what the last searches used is lost)
            log.warning("memlane: %s: the facts' last accesses were not recorded: %s",
                        self.store.url, e)
        self.store.close()

    def __enter__(self) -> Memory:
        if self._closed:  # as ``with f:`` on a closed file
            raise self._calls.error()
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def last_timings(self) -> dict[str, float]:
        """Per-stage milliseconds of this thread's last ``search`` (each thread sees its own,
        so concurrent requests of a server never read each other's)."""
        return getattr(self._local, "timings", {})

    @last_timings.setter
    def last_timings(self, value: dict[str, float]) -> None:
        self._local.timings = value

    @property
    def last_notice(self) -> str | None:
        """Why this thread's last search returned nothing on purpose (a query with no
        words), or None."""
        return getattr(self._local, "notice", None)

    @last_notice.setter
    def last_notice(self, value: str | None) -> None:
        self._local.notice = value

    @property
    def last_already_stored(self) -> tuple[bool, ...]:
        """For each message of this thread's last ``add_message`` or ``add_messages``, in
        order: whether it was stored before (the same message under its id delivered
        again: nothing stored for it), decided where it is stored, so no other look-up or
        writer comes between. Empty after a refused call. A surface says it (HTTP's
        ``already_stored``; session 35)."""
        return getattr(self._local, "already_stored", ())

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = make_embedder(self.config)
        return self._embedder

    @property
    def intelligence(self) -> Intelligence:
        if self._intelligence is None:
            self._intelligence = make_intelligence(self.config)
        return self._intelligence

    @property
    def embeddings(self) -> Embeddings:
        if self._embeddings is None:
            self._embeddings = Embeddings(self.store, self.embedder, self.config.embedding.batch_size)
        return self._embeddings

    # -- ingest -------------------------------------------------------------------------
    @validated
    def add_message(
        self,
        scope: str,
        role: str,
        text: str,
        at: datetime | str | float | None = None,
        *,
        speaker: str | None = None,
        id: str | None = None,
        agent: str | None = None,
        project: str | None = None,
    ) -> Message:
        """Store one message (validated, secrets redacted) in its scope's current session.

        No model is called. ``at`` defaults to now; a gap longer than
        ``ingest.session_gap_minutes`` since the scope's last message starts a new session.
        ``id`` is the caller's message id: the same message delivered again (same id, role,
        time, text, speaker, agent and project) is stored once and the stored one returned
        (a retry that leaves ``at`` out takes the stored message's time);
        another message with an id its scope holds is refused (``ConflictError``).
        """
        cfg = self.config.ingest
        self._local.already_stored = ()
        msg = prepare(cfg, scope, role, text, at, speaker=speaker, ext_id=id, agent=agent,
                      project=project, now=datetime.now(UTC))
        stored = store_message(self.store, cfg, msg)  # one transaction (PostgreSQL: one round trip)
        if stored is None:
            again = _delivered_again(self.store, msg, timed=at is not None)
            self._local.already_stored = (True,)
            return again
        self._local.already_stored = (False,)
        return stored

    @validated
    def add_messages(self, messages: list[dict[str, Any]]) -> list[Message]:
        """Store a batch of messages (each a dict of ``add_message``'s arguments: scope, role,
        text, at, speaker, id, agent, project) in one transaction: all or none.

        A bad message raises with its index in the field (``messages.3.text``). A message
        already stored (same id and content: a batch delivered again) is not stored twice;
        its entry is the stored message (one that leaves ``at`` out takes its time, as
        ``add_message``).
        """
        if not isinstance(messages, (list, tuple)):
            raise ValidationError("messages: must be a list of message objects", field="messages")
        known = {"scope", "role", "text", "at", "speaker", "id", "agent", "project"}
        cfg = self.config.ingest
        self._local.already_stored = ()
        now = datetime.now(UTC)
        prepared = []
        for i, m in enumerate(messages):
            try:
                if not isinstance(m, dict):
                    raise ValidationError("must be an object", field=None)
                unknown = sorted(set(m) - known)
                if unknown:
                    raise ValidationError(f"unknown field(s) {unknown}", field=unknown[0])
                prepared.append(prepare(
                    cfg, m.get("scope"), m.get("role", "user"), m.get("text"), m.get("at"),
                    speaker=m.get("speaker"), ext_id=m.get("id"), agent=m.get("agent"),
                    project=m.get("project"), now=now))
            except ValidationError as e:
                e.field = f"messages.{i}.{e.field}" if e.field else f"messages.{i}"
                e.args = (f"messages[{i}]: {e}",)
                raise
        with self.store.atomic():  # all or none: a refused id rolls the batch back
            stored = store_messages(self.store, cfg, prepared)
            out = [got if got is not None else _delivered_again(
                       self.store, msg, i, timed=messages[i].get("at") is not None)
                   for i, (msg, got) in enumerate(zip(prepared, stored, strict=True))]
        self._local.already_stored = tuple(got is None for got in stored)
        return out

    @validated
    def import_file(
        self, source: str | Path | IO[str] | IO[bytes], *, strict: bool = False,
        scope: str | None = None,
    ) -> ImportReport:
        """Import a JSON Lines conversation file (see ``memlane.ingest.importer``)."""
        return import_jsonl(self.store, self.config.ingest, source, strict=strict, default_scope=scope)

    # -- sessions -----------------------------------------------------------------------
    @validated
    def close_session(self, scope: str | None = None, *, session_id: int | None = None) -> Session | None:
        """Close a scope's open session (or the session ``session_id``); None if none was open."""
        if (scope is None) == (session_id is None):
            raise ValidationError("pass exactly one of scope or session_id", field="scope")
        with self.store.atomic():
            if session_id is None:
                current = self.store.open_session_for(resolve_scope(self.store, scope))
                if current is None:
                    return None
                session_id = current[0]
            if not self.store.close_session(session_id, "explicit"):
                self.store.get_session(session_id)  # raises NotFoundError if missing
                return None
            self.store.bump("sessions_closed")
            self.store.bump("sessions_closed_explicit")
        return self.store.get_session(session_id)

    @validated
    def close_idle(self, now: datetime | str | float | None = None) -> list[int]:
        """Close every open session idle for longer than the gap as of ``now``."""
        when = datetime.now(UTC) if now is None else parse_time(now, "now")
        return close_idle(self.store, self.config, when)

    @validated
    def session(self, session_id: int) -> Session:
        return self.store.get_session(session_id)

    @validated
    def sessions(self, scope: str | None = None, status: str | None = None, limit: int = 100,
                 offset: int = 0, cursor: str | None = None,
                 before: str | None = None) -> list[Session]:
        """Sessions newest first (the id breaking ties), ``limit`` of them from the
        ``offset``-th on, or after the one ``cursor`` names (``memlane.cursor.cursor_after``
        of the last one read: no session is repeated or skipped when others are added or
        removed between pages). ``cursor`` and an ``offset`` other than 0 are refused
        together. ``before``: a cursor read the other way, the ``limit`` sessions just
        newer than the one it names (a page back), newest first; not with either. A cursor
        of another scope's listing is refused."""
        after, back = read_start(cursor, before, offset, "sessions", scope=scope)
        return self.store.list_sessions(scope=scope, status=status, limit=limit, offset=offset,
                                        after=after, before=back)

    @validated
    def messages(self, session_id: int) -> list[Message]:
        self.store.get_session(session_id)
        return self.store.session_messages(session_id)

    @validated
    def session_intelligence(self, session_id: int) -> dict[str, Any]:
        """The structured summary, facts, entities, relations and observations of a session."""
        items = self.store.session_items(session_id)
        summary = next((i.extra.get("summary") for i in items
                        if i.kind == "summary" and not i.extra.get("on_demand")), None)
        seq_of = {m.id: m.seq for m in self.store.session_messages(session_id)}
        facts = [
            {"id": f.id, "item_id": f.item_id, "subject": f.subject, "predicate": f.predicate,
             "object": f.object, "source": f.source, "seq": None if f.message_id is None else seq_of.get(f.message_id),
             "status": f.status}
            for f in self.store.session_facts(session_id)
        ]
        entities = [{"name": i.extra.get("name", i.text), "type": i.extra.get("type", "thing")}
                    for i in items if i.kind == "entity"]
        observations = [{"id": i.id, "text": i.text, "seq": i.seq} for i in items
                        if i.kind == "observation"]
        return {"summary": summary, "facts": facts, "entities": entities,
                "relations": [list(r) for r in self.store.session_relations(session_id)],
                "observations": observations}

    @validated
    def item(self, item_id: int) -> Item:
        return self.store.get_item(item_id)

    # -- index --------------------------------------------------------------------------
    @validated
    def index(
        self,
        now: datetime | str | float | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
        resummarize: bool = False,
        scope: str | None = None,
        summary_progress: Callable[[int, int], None] | None = None,
    ) -> IndexReport:
        """Close idle sessions as of ``now``, index every closed session's turns, then run
        session intelligence (summaries, facts, entities) on the queue, if enabled.

        ``resummarize`` first queues again every session whose summary schema is older.
        ``scope``: that scope's sessions only; the others are not touched (an MCP server or
        a key bound to one scope indexes its own). ``progress(sessions, turns)``: the turns
        indexed so far; ``summary_progress(done, waiting)``: the sessions summarized (or
        found too small, or failed) so far, of those the queue held when it began.
        """
        return self._index(now, progress=progress, resummarize=resummarize, scope=scope,
                           summary_progress=summary_progress)

    def _index(self, now: datetime | str | float | None = None, *,
               progress: Callable[[int, int], None] | None = None, resummarize: bool = False,
               scope: str | None = None, settle: float = 0.0,
               summary_progress: Callable[[int, int], None] | None = None) -> IndexReport:
        """``index``; ``settle``: a session late messages queued again is summarized that
        many seconds after the first of them (the background worker's run passes
        ``indexing.late_settle_seconds``, so a burst costs one summary, not one a message)."""
        when = datetime.now(UTC) if now is None else parse_time(now, "now")
        closed = close_idle(self.store, self.config, when, scope)
        report = index_pending(self.store, self.embeddings, progress=progress, scope=scope)
        run = None
        if self.config.indexing.enabled:
            if resummarize:
                with self.store.atomic():
                    self.store.requeue_summaries(SUMMARY_SCHEMA_VERSION, scope)
            run = process_queue(self.store, self.embeddings, self.intelligence, self.config,
                                scope=scope, late_settle=settle, progress=summary_progress)
        return IndexReport(
            sessions_closed=len(closed),
            sessions_indexed=report.sessions_indexed,
            items_indexed=report.items_indexed,
            texts_embedded=report.texts_embedded,
            cache_hits=report.cache_hits,
            seconds=report.seconds + (run.seconds if run else 0.0),
            sessions_summarized=run.summarized if run else 0,
            sessions_failed=run.failed if run else 0,
            sessions_skipped=run.skipped if run else 0,
            sessions_leased=run.leased if run else 0,
            leased_until=(datetime.fromtimestamp(run.leased_until, UTC)
                          if run and run.leased_until else None),
            summary_jobs=run.jobs if run else 1,
        )

    @validated
    def summarize_recent(self, scope: str, last: int) -> SummaryDraft:
        """Summarize the last ``last`` messages of a scope; nothing is stored (see
        ``store_summary``)."""
        messages = self.store.recent_messages(scope, last)
        if not messages:  # a fact about what is stored, not a bad argument: not found
            raise NotFoundError(f"scope {scope!r} has no messages to summarize")
        # one sequence over the window, so the summary's turn numbers read naturally
        window = [dataclasses.replace(m, seq=i) for i, m in enumerate(messages, start=1)]
        summary, extraction = scrub_deep(self.config.ingest, self.intelligence.summarize(scope, window))
        return SummaryDraft(scope, tuple(m.id for m in messages), messages[-1].session_id,
                            summary, extraction)

    @validated
    def store_summary(self, draft: SummaryDraft) -> int:
        """Store a confirmed draft as a ``summary`` item; returns its id. Its text and every
        field are redacted as a message is: a draft is a caller's object (one edited
        before it is confirmed, or built by hand) and was stored as it came (session 22)."""
        cfg = self.config.ingest
        text = scrub(cfg, draft.preview())[0]
        vec = self.embeddings.for_index([text])
        end = draft.summary.time_end or datetime.now(UTC)
        with self.store.atomic():
            # erased since the draft was written: the summary would quote them again
            for mid in draft.message_ids:
                try:
                    got = self.store.get_message(mid)
                except NotFoundError:
                    got = None
                if got is None or got.scope != draft.scope:
                    raise ConflictError(
                        f"draft: message {mid} of scope {draft.scope!r} was erased after the "
                        "draft was written; summarize again", field="draft")
            (item_id,) = self.store.insert_items([{
                "kind": "summary", "text": text, "at": end.timestamp(),
                "scope": draft.scope, "session_id": draft.session_id, "lane": "episodic",
                "keywords": scrub_deep(cfg, list(draft.summary.topic_tags)),
                "entities": scrub_deep(cfg, list(draft.summary.entities)),
                "source": "observed" if draft.summary.model == "offline" else "inferred",
                "extra": {"summary": scrub_deep(cfg, draft.summary.to_dict()), "on_demand": True,
                          "message_ids": list(draft.message_ids)},
            }])
            self.store.put_vectors(self.embeddings.model, [(item_id, vec[0])])
            self.store.bump("summaries_on_demand")
        return item_id

    @validated
    def backfill_embeddings(
        self,
        *,
        missing_only: bool = True,
        rate: float | None = None,
        progress: Callable[[int], None] | None = None,
        batch: int = 256,
    ) -> int:
        """(Re-)embed items with the current embedder; ``rate`` caps items per second."""
        model = self.embeddings.model
        done = 0
        after = 0
        while True:
            if missing_only:
                rows = self.store.items_missing_vectors(model, batch)
            else:
                rows = self.store.items_after(after, batch)
            if not rows:
                break
            started = time.perf_counter()
            # each by the text the indexer embeds it by (a named speaker's fact: the user's
            # form; session 27: backfill embedded the item's text, changing what search found)
            texts = self.store.vector_texts([i for i, _ in rows])
            embedded = [texts.get(i, t) for i, t in rows]
            new: list[tuple[bytes, Any]] = []
            vecs = self.embeddings.for_index(embedded, cache_later=new)
            with self.store.atomic():
                # an item erased since it was read gets no vector, nor its text a cached one
                # (session 27: the vector's row failed the batch, "FOREIGN KEY constraint
                # failed", and the erased text's vector was cached after its erase); its
                # items' scopes' facts locks first, as every erase takes them (PostgreSQL:
                # an erase in flight still showed its item, and failed the batch on the
                # vector's foreign key when it committed)
                self.store.lock_items_facts([i for i, _ in rows])
                kept = self.store.get_items([i for i, _ in rows])
                keep = {text_hash(t) for (i, _), t in zip(rows, embedded, strict=True) if i in kept}
                self.store.cache_vectors(model, [(h, v) for h, v in new if h in keep])
                self.store.put_vectors(model, [(i, v) for (i, _), v in zip(rows, vecs, strict=True)
                                               if i in kept])
            done += len(kept)
            after = rows[-1][0]
            if progress is not None:
                progress(done)
            if rate:
                wait = len(rows) / rate - (time.perf_counter() - started)
                if wait > 0:
                    time.sleep(wait)
        return done

    @validated
    def start_worker(self, poll_seconds: float = 5.0) -> IndexWorker:
        """Index in a background thread every ``poll_seconds``; stopped by ``close()``. On
        a database it may not write it waits (``worker.waiting``), and indexes from the
        first poll at which the database may be written."""
        if self._closed:  # a worker would only log the closed database's error, forever
            raise self._calls.error()
        if self._worker is None:
            # a database at another memlane's schema stops the worker and every call after
            # while the database may not be written, the worker waits (it would fail and
            # warn at every poll): from the first poll at which it may, it runs (session 38:
            # none was started, and a file made writable later was never indexed)
            self._worker = IndexWorker(self.work_once, poll_seconds=poll_seconds,
                                       redact=self._redact_text, on_fatal=self._calls.refuse,
                                       idle_while=self._store_read_only,
                                       **self._worker_backoff())
        self._read_only("the index worker waits until the database may be written (it "
                        "writes what it indexes)")
        return self._worker.start()

    def _store_read_only(self) -> bool:
        """Whether the database may not be written now (a SQLite file this process could
        not write is judged again each time: fix37b)."""
        return bool(getattr(self.store, "read_only", False))

    def _worker_backoff(self) -> dict[str, Any]:
        """An index worker's back-off: ``[memory.indexing] worker_max_backoff_seconds``, and
        whether the database would take a write as its probe (the worker runs again as soon
        as it would after an outage, or after another process's lock on a SQLite file)."""
        return {"max_backoff_seconds": self.config.indexing.worker_max_backoff_seconds,
                "probe": self.store.probe_write}

    # -- search -------------------------------------------------------------------------
    @validated
    def search(
        self,
        query: str,
        scope: str | None = None,
        k: int | None = None,
        *,
        now: datetime | str | float | None = None,
        agent: str | None = None,
        project: str | None = None,
        kinds: list[str] | tuple[str, ...] | None = None,
        lanes: list[str] | tuple[str, ...] | None = None,
        privacy: list[str] | tuple[str, ...] | None = None,
        since: datetime | str | float | None = None,
        until: datetime | str | float | None = None,
        preset: str | None = None,
        session_aware: bool | None = None,
        top_sessions: int | None = None,
        turns_per_session: int | None = None,
        mmr: bool | None = None,
        explain: bool = False,
    ) -> list[Hit]:
        """Session-aware hybrid search; each hit carries its item, session and scores.

        Stage one ranks sessions, stage two the turns inside the best ``top_sessions``
        (``turns_per_session`` each), and a rerank orders them (see docs in
        ``memlane.retrieve``); ``session_aware=False`` ranks items flat. ``preset`` names a
        weight set of ``memlane.retrieve.presets`` (default: ``[memory.retrieval]``'s
        weights). ``mmr`` diversifies the first hits. Every hit's ``scores`` holds each
        signal's value and its rank at each stage; ``explain`` adds each signal's weighted
        contribution (``contrib.<signal>``).

        ``now`` is the time the question is asked (default: the clock); time-aware ranking
        reads relative dates in the query ("last week", "in March") against it. It does not
        filter: pass ``until`` for that. ``privacy`` defaults to ``search.default_privacy``.
        """
        k = self.config.search.default_k if k is None else k
        query = scrub(self.config.ingest, query)[0]  # it may reach a model (HyDE)
        self.last_notice = None
        if not any(ch.isalnum() for ch in query):
            self.last_notice = (f"the query {query!r} has no words to search for "
                                "(only punctuation, symbols or spaces); nothing was searched")
            return []
        asked = parse_time(now, "now") if now is not None else datetime.now(UTC)
        filters = Filters.build(
            scope=resolve_scope(self.store, scope) if scope is not None else None,
            agent=scrub_label(self.config.ingest, agent, "agent")[0],  # as it was stored
            project=scrub_label(self.config.ingest, project, "project")[0],
            kinds=kinds, lanes=lanes,
            privacy=self.config.search.default_privacy if privacy is None else privacy,
            since=parse_time(since, "since").timestamp() if since is not None else None,
            until=parse_time(until, "until").timestamp() if until is not None else None,
        )
        expand = None
        if self.config.retrieval.hyde:  # one expander (and LLM client) per Memory
            expand = self.__dict__.get("_hyde") or expander_for(self.config)
            self.__dict__["_hyde"] = expand
        opts = search_options(
            self.config, preset=preset, session_aware=session_aware, top_sessions=top_sessions,
            turns_per_session=turns_per_session, mmr=mmr, explain=explain, expand=expand,
            meaning=self._searching_tier,
        )
        timings: dict[str, float] = {}
        # one search's reads (fewer round trips on PostgreSQL); newest first asks which
        # turns' facts were superseded
        with self.store.reading(superseded=opts.newest_weight > 0 and asks_newest(query)):
            hits = search_items(self.store, self.embeddings, self.config.search, opts, query,
                                filters, k, asked, timings)
        self.last_timings = timings
        if self.config.confidence.touch_on_access and not getattr(self._local, "no_touch", False):
            self._touch_facts(hits, asked)
        return hits

    def _redact_text(self, text: str) -> str:
        """``text`` redacted as ``[memory.ingest]`` says (an error a worker logs)."""
        return scrub(self.config.ingest, text)[0]

    @validated
    @contextlib.contextmanager
    def reading_only(self, on: bool = True) -> Iterator[None]:
        """Calls made inside (in this thread) write nothing, as on a read-only database: a
        pack is not journaled (its ``id`` is None), a search records no fact's access
        (``confidence.touch_on_access``) and the meaning preset's passage vectors it
        computes are not cached (session 32: they were). A read-only API key's requests and a read-only MCP
        server's calls run so (session 31: a read-only key's ``POST /v1/pack`` and a
        read-only server's ``context`` each wrote a journal row). ``on`` false: calls inside
        run as ever (``with mem.reading_only(key.read_only):``)."""
        if self._calls.closed:  # as every public call of a closed Memory
            raise self._calls.error()
        if not on:
            yield
            return
        before = getattr(self._local, "reading_only", False)
        self._local.reading_only = True
        try:
            yield
        finally:
            self._local.reading_only = before

    def _read_only(self, what: str) -> bool:
        """Whether the database is opened read-only (a read-only file or mount, ``?mode=ro``,
        a PostgreSQL read-only role or replica), or the call runs ``reading_only``; the
        first time the database is, logs that ``what`` (a write a read would make) is
        skipped (session 22)."""
        if getattr(self._local, "reading_only", False):
            return True
        if not getattr(self.store, "read_only", False):
            return False
        self._say_read_only(what)
        return True

    def _say_read_only(self, what: str) -> None:
        said = self.__dict__.setdefault("_read_only_said", set())
        if what not in said:
            said.add(what)
            log.warning("%s is read-only: %s", public_url(self.store.url), what)

    @contextlib.contextmanager
    def _unless_refused(self, what: str) -> Iterator[None]:
        """A write a read makes, skipped (logged once, as ``_read_only`` does) when the
        database refuses it as read-only: one judged writable when the read began, which
        may no longer be written (session 40: a PostgreSQL role whose write grants were
        revoked while open; the read failed with its own write)."""
        try:
            yield
        except StoreError as e:
            if not e.read_only:
                raise
            self._say_read_only(what)

    def _touch_facts(self, hits: list[Hit], when: datetime) -> None:
        """A fact returned by a search counts as accessed: its staleness clock restarts. The
        access is written now unless the database is being written by another, and then
        later (``_Touches``): a search never waits for a writer."""
        if self._read_only(_TOUCH):
            return
        facts = self.store.facts_for_items([h.item.id for h in hits if h.item.kind == "fact"])
        self._touches.add({f.id: when.timestamp() for f in facts.values()})
        try:
            with self._unless_refused(_TOUCH):
                self._touches.write(self.store, wait=False)
        except StoreError as e:
            if not e.busy:
                raise

    @validated
    def pack(
        self,
        query: str,
        budget: int | None = None,
        *,
        scope: str | None = None,
        model: str | None = None,
        now: datetime | str | float | None = None,
        instructions: str | None = None,
        token_counter: TokenCounter | None = None,
        include_recent: bool = True,
    ) -> Pack:
        """A context for ``query`` under ``budget`` tokens (default ``pack.budget``).

        Hard slots (``instructions``, pinned items) first, then current facts, session
        summaries, relevant turns and the scope's recent messages by priority and caps
        (``[memory.pack]``). Tokens are counted with ``model``'s tokenizer when one is
        available offline. Every candidate's decision is in ``entries``; the pack is
        journaled (``pack.id``, ``memlane packs show ID``).
        """
        cfg = self.config.pack
        budget = cfg.budget if budget is None else budget
        # both are journaled and the pack's text goes into a prompt
        query = scrub(self.config.ingest, query)[0]
        if instructions is not None:
            instructions = scrub(self.config.ingest, instructions)[0]
        counter = token_counter or counter_for(model or cfg.model or None)
        # one confidence everywhere: the facts' value as of ``now`` before this access, as
        # the search signal and `facts list` show it; the access is recorded afterwards
        self._local.no_touch = True
        try:
            hits = self.search(query, scope=scope, k=cfg.candidates, now=now)
        finally:
            self._local.no_touch = False
        recent = self.store.recent_messages(scope, cfg.recent_turns) if scope and include_recent else []
        when = (datetime.now(UTC) if now is None else parse_time(now, "now")).timestamp()
        facts = self.store.facts_for_items([h.item.id for h in hits if h.item.kind == "fact"])
        conf = {i: view(f, self.config.confidence, when).confidence for i, f in facts.items()}
        if self.config.confidence.touch_on_access:
            self._touch_facts(hits, datetime.fromtimestamp(when, UTC))
        said = ([h.item.message_id for h in hits if h.item.kind == "turn" and h.item.message_id]
                + [m.id for m in recent])
        stale = self.store.superseded_messages(said)
        partly = self.store.partly_superseded_messages(said)
        stale_items = set()
        for h in hits:  # a summary quoting a value that has been superseded since
            if h.item.kind == "summary" and h.item.session_id is not None:
                old = [f.object for f in self.store.session_facts(h.item.session_id)
                       if f.status != "current"]
                if any(o.lower() in h.item.text.lower() for o in old):
                    stale_items.add(h.item.id)
        cands = candidates_from(hits, recent, self.store.pinned_items(scope), cfg, conf, stale,
                                stale_items, partly)
        p = build_pack(query, budget, cands, cfg, counter, instructions)
        if not p.entries and self.last_notice:  # the search's own reason (a query of no words)
            p = dataclasses.replace(p, notice=self.last_notice)
        # a scope holding nothing (a mistyped --scope) gets no journal row, change record or
        # scope of that name: its empty pack is not kept
        nowhere = scope is not None and not p.entries and self._scope_holds_nothing(scope)
        unjournaled = "packs are not journaled (pack.journal)"
        if cfg.journal and not nowhere and not self._read_only(unjournaled):
            with self._unless_refused(unjournaled), self.store.atomic():
                pack_id = self.store.save_pack({
                    "query": query, "scope": scope, "budget": budget, "used": p.used,
                    "counter": p.token_counter, "text": p.text,
                    "entries": [e.as_dict() for e in p.entries],
                    "config": {"shares": p.shares, "notice": p.notice, **dataclasses.asdict(cfg)},
                })
                self.store.bump("packs")
                p = dataclasses.replace(p, id=pack_id)
        return p

    def _scope_holds_nothing(self, scope: str) -> bool:
        """True when ``scope`` holds no session and no item at all. ``scope``: as typed (the
        CLI's note) or as stored (``pack``'s, already looked up); its items are asked in the
        spelling the database holds (``resolve_scope``, as ``sessions`` asks its sessions):
        stripped, an old database's " team" was asked as "team", and a pack over its items
        that found nothing was taken for one over an empty scope, not journaled (session 35)."""
        if self.sessions(scope=scope, limit=1):  # (refuses a scope no call takes, naming it)
            return False
        everything = Filters.build(scope=resolve_scope(self.store, scope),
                                   privacy=("private", "project", "shared"))
        return not self.store.any_item(everything)

    @validated
    def format_context(
        self,
        scope: str,
        query: str,
        budget: int | None = None,
        *,
        model: str | None = None,
        now: datetime | str | float | None = None,
    ) -> Pack:
        """For chat apps: recent verbatim messages, relevant message hits and relevant
        earlier session summaries (and current facts), blended by the ranking; ``shares``
        reports each source's part of the pack."""
        return self.pack(query, budget, scope=resolve_scope(self.store, scope), model=model, now=now)

    @validated
    def replay_pack(self, pack_id: int) -> dict[str, Any]:
        """A journaled pack as it was built: query, budget, text and every decision (the
        same field names as a ``Pack``: ``token_counter``, ``used``, ``notice``…)."""
        data = self.store.get_pack(pack_id)
        data["token_counter"] = data.pop("counter")
        data["notice"] = data["config"].get("notice")  # None for packs journaled before it
        return data

    # -- items, facts, topics -----------------------------------------------------------
    @validated
    def upsert(
        self,
        text: str,
        *,
        kind: str = "note",
        scope: str | None = None,
        agent: str | None = None,
        project: str | None = None,
        at: datetime | str | float | None = None,
        lane: str = "semantic",
        durability: str = "long",
        privacy: str = "private",
        trust: float = 1.0,
        source: str = "stated",
        ttl_seconds: int | None = None,
        topics: list[str] | tuple[str, ...] = (),
        pinned: bool = False,
        dedupe: bool = False,
        extra: dict[str, Any] | None = None,
    ) -> int:
        """Store one memory item directly (a note, preference, plan, decision…); returns its id.

        ``topics`` tag it ``topic:<slug>`` and add it to that topic's story thread;
        ``dedupe`` returns the existing id when the same (agent, project, kind, text) is
        stored in the same scope; ``ttl_seconds`` lets hygiene expire it. Secrets are redacted first.
        """
        return upsert_item(self.store, self.embeddings, self.config, text, kind=kind, scope=scope,
                           agent=agent, project=project, at=at, lane=lane, durability=durability,
                           privacy=privacy, trust=trust, source=source, ttl_seconds=ttl_seconds,
                           topics=topics, pinned=pinned, dedupe=dedupe, extra=extra)

    @validated
    def pin(self, item_id: int, pinned: bool = True) -> None:
        """Pin an item: packs always include it first; hygiene never removes it."""
        with self.store.atomic():
            self.store.set_pinned(item_id, pinned)

    @validated
    def thread(self, topic: str, scope: str | None = None) -> list[Item]:
        """The story thread of a topic: every active item tagged ``topic:<slug>``, in time order."""
        return self.store.items_with_keyword(f"topic:{topic_slug(self.config.ingest, topic)}", scope)

    @validated
    def add_fact(
        self,
        subject: str,
        predicate: str,
        obj: str,
        *,
        scope: str,
        source: str = "stated",
        at: datetime | str | float | None = None,
    ) -> FactOutcome:
        """Tell memlane a fact: same value reinforces, a new value of a single-valued
        predicate supersedes (the old one is kept for audit), multi-valued ones accumulate."""
        return add_fact(self.store, self.embeddings, self.config, subject, predicate, obj,
                        scope=scope, source=source, at=at)

    @validated
    def facts(
        self,
        scope: str | None = None,
        subject: str | None = None,
        *,
        include_superseded: bool = False,
        now: datetime | str | float | None = None,
        limit: int = 1000,
        offset: int = 0,
        cursor: str | None = None,
        before: str | None = None,
    ) -> list[FactView]:
        """Facts with their confidence as of ``now``; current ones unless asked. At most
        ``limit`` of them, from the ``offset``-th on or after the one ``cursor`` names (as
        ``sessions``), ordered by scope, subject, predicate, time and id. ``before``: a
        cursor too, read the other way: the ``limit`` facts just before the row it names
        (a page back), in the same order."""
        when = (datetime.now(UTC) if now is None else parse_time(now, "now")).timestamp()
        after, back = read_start(cursor, before, offset, "facts", scope=scope, subject=subject)
        rows = self.store.list_facts(scope, subject_key(subject) if subject else None,
                                     include_superseded, limit=limit, offset=offset,
                                     after=after, before=back)
        return [view(f, self.config.confidence, when) for f in rows]

    @validated
    def fact_history(self, subject: str, predicate: str, scope: str | None = None, *,
                     now: datetime | str | float | None = None) -> list[dict[str, Any]]:
        """Every value ``subject predicate`` has had, oldest first, with when, from which
        session, whether it is current, what replaced it and each event (with the session
        and the message, the turn, whose statement made it); confidence as of ``now``."""
        rows = self.store.fact_history(scope, subject_key(subject), normalize_predicate(predicate))
        events = self.store.fact_events([f.id for f in rows])
        when = (datetime.now(UTC) if now is None else parse_time(now, "now")).timestamp()
        out = []
        for f in rows:
            v = view(f, self.config.confidence, when)
            out.append({**dataclasses.asdict(v),
                        "events": [e for e in events if e["fact_id"] == f.id]})
        return out

    @validated
    def forget_fact(self, fact_id: int) -> None:
        """Hard delete a fact with its item, vector and lexical rows, and the graph's
        relations that restate it (``user lives_in zqbab``; session 27).

        The fact's key keeps its events without the value (when it was stated,
        reinforced, superseded, from which session) and a ``forgotten`` mark, so its
        history still shows when it changed (``forgotten_facts``) and its session read
        again does not bring it back; with the subject as written, which a re-keying of
        names keys them by (session 32).
        """
        # on SQLite, no byte of it left in the file; the scope's facts lock first
        with self.store.erasing(self.store.get_fact(fact_id).scope):
            fact = self.store.get_fact(fact_id)
            events = self.store.fact_events([fact_id])
            items = [fact.item_id] if fact.item_id is not None else []
            # and the text its vector was made from (a named speaker's fact: the user's form)
            texts = [*(i.text for i in self.store.get_items(items).values()),
                     *self.store.vector_texts(items).values()]
            self.store.delete_fact(fact_id)
            # the embedding cache's vector of its item, packs quoting it, its change records
            self.store.forget_traces(fact.scope, items, [fact_id], texts)
            # keyed by the subject's key, with the subject as written: a re-keying of names
            # keys the marks again from it (``rekey_names``; session 32)
            mark = dataclasses.replace(fact, subject=subject_key(fact.subject), object="")
            for e in events:
                self.store.log_fact_event(mark, e["kind"], e["at"].timestamp(),
                                          other_id=e["other_id"], session_id=e["session_id"],
                                          message_id=e["message_id"], written_subject=fact.subject)
            self.store.log_fact_event(mark, "forgotten", time.time(), session_id=fact.session_id,
                                      message_id=fact.message_id, written_subject=fact.subject)
            self.store.bump("facts_forgotten")
        self._forget_cached_text()
        self._vacuum_if_configured()  # its words may be in a query, a sentence or a vector cache

    @validated
    def forgotten_facts(self, subject: str, predicate: str,
                        scope: str | None = None) -> list[dict[str, Any]]:
        """The events of the values of ``subject predicate`` that were forgotten, oldest
        first: fact id, kind (ending with ``forgotten``), session, message (the turn that
        made the event; None when no one turn did) and time; the value is gone."""
        return self.store.forgotten_fact_events(scope, subject_key(subject),
                                                normalize_predicate(predicate))

    @validated
    def graph(self, entity: str, scope: str | None = None) -> dict[str, Any]:
        """An entity's node(s), its relations and the items that mention it. The user (a
        relation's source, ``user``, "me", "I") has relations and no node; an entity with
        neither raises ``NotFoundError``."""
        norm = subject_key(entity)
        nodes = self.store.find_entities(norm, scope)
        edges = self.store.relations_of(norm, scope)
        if not nodes and not edges:  # `graph show user` said so of the user's relations
            raise NotFoundError(f"entity {entity!r} is not in the graph"
                                + (f" of scope {scope!r}" if scope else ""))
        mentions = [i for n in nodes for i in self._mentions(n.name, norm, n.scope)]
        return {"entity": nodes, "relations": edges, "items": mentions,
                "superseded": self._superseded_relations(edges)}

    def _mentions(self, name: str, norm: str, scope: str, limit: int = 50) -> list[Item]:
        """The items that mention an entity under any of its spellings (the node keeps the
        first; an item lists the name as its session wrote it: "Jose" beside a node "José"),
        newest first: the spellings are those of the scope's entity items of its key."""
        return items_naming(self.store, {name} | spellings(self.store, scope).get(norm, set()), scope, limit)

    def _superseded_relations(self, edges: list[tuple[str, str, str, str]]) -> list[dict[str, Any]]:
        """Relations whose fact has been replaced: ``user lives_in lisbon`` after the user's
        move to Porto is history, not the current state."""
        out = []
        for sc, src, rel, dst in edges:
            current = [f for f in self.store.fact_history(sc, src, rel) if f.status == "current"]
            # its target as a value: "Hague" said again of "The Hague" is no replaced value
            if not current or any(normalize_value(f.object) == value_of_key(dst) for f in current):
                continue
            if is_single_valued(rel, self.config.facts):
                out.append({"scope": sc, "source": src, "relation": rel, "target": dst,
                            "replaced_by": current[-1].object})
        return out

    # -- maintenance --------------------------------------------------------------------
    @validated
    def forget_item(self, item_id: int) -> None:
        """Delete an item with its lexical and vector rows, the packs that quoted it, the
        embedding cache's vector of its text and its change records' documents, and empty
        the process's caches of conversation text (``memlane.textcaches``), as every erase
        does.

        A turn is a message's words: forgetting it erases the message (``erase_messages``)
        with everything derived from it; its session keeps its other messages and is
        summarised again from them (docs/erasure.md). A fact's item is its fact: forgetting
        it is ``forget_fact``."""
        item = self.store.get_item(item_id)
        fact = self.store.facts_for_items([item_id]).get(item_id)
        if fact is not None:  # a fact's item: the fact goes as forget_fact takes it (its
            # events without the value, its change records' documents; session 27: its
            # item went, the fact with it by the foreign key, and those kept the value)
            try:
                self.forget_fact(fact.id)
            except NotFoundError:  # erased meanwhile, with its item
                raise NotFoundError(f"item {item_id} does not exist") from None
            return
        if item.kind == "turn" and item.message_id is not None:
            try:
                self.store.erase_messages([item.message_id])
            except NotFoundError:  # erased meanwhile, with its turn
                raise NotFoundError(f"item {item_id} does not exist") from None
        else:
            # on SQLite, no byte of it left in the file; the scope's facts lock first (a
            # fact's item takes its fact with it)
            with self.store.erasing(item.scope):
                item = self.store.get_item(item_id)
                texts = [item.text, *self.store.vector_texts([item_id]).values()]
                self.store.delete_item(item_id)
                # an entity item's node in the graph (name, context) goes with it, or is
                # rebuilt from the scope's other items naming it; the relations naming it
                # go with the node, or those of the item's session
                names = [str(item.extra.get("name") or "")] if item.kind == "entity" else []
                self.store.forget_traces(item.scope, [item_id], [], texts, names,
                                         entity_session=item.session_id)
        forget_spellings(self.store)  # it may have held the last rows of an old spelling
        self._forget_cached_text()
        self._vacuum_if_configured()

    @validated
    def forget_scope(self, scope: str) -> EraseReport:
        """Erase everything the database holds of ``scope`` in one transaction: sessions,
        messages, items with their lexical and vector rows, the embedding cache's vectors
        of their texts, facts and their events, entities, relations, journaled packs and
        the change log's records (docs/erasure.md). A scope that holds nothing erases
        nothing and says so (``EraseReport.erased`` is False)."""
        # and every other spelling the database holds of it (an old database's NFD or
        # format-character rows beside the new ones: ``ingest.spellings``), in the same
        # transaction (an erase checkpoints the SQLite WAL after it commits)
        counts = self.store.erase_scope(scope, spellings_of(self.store, scope)[1:])
        report = EraseReport(scope, None, counts)
        forget_spellings(self.store)
        self._forget_cached_text()
        self._vacuum_if_configured()
        return report

    @validated
    def forget_session(self, session_id: int) -> EraseReport:
        """Erase one session (a conversation) and everything derived from it, in one
        transaction; the rest of its scope stays (docs/erasure.md). An unknown id raises
        ``NotFoundError``."""
        scope = self.store.get_session(session_id).scope
        report = EraseReport(scope, session_id, self.store.erase_sessions([session_id]))
        forget_spellings(self.store)  # it may have held the last rows of an old spelling
        self._forget_cached_text()
        self._vacuum_if_configured()
        return report

    @validated
    def vacuum(self) -> None:
        """Rewrite the database so no page keeps a stale copy of an erased row: SQLite's
        ``VACUUM`` (every page written again from the rows alone, the WAL truncated; no
        other writer should be running), PostgreSQL's ``VACUUM (FULL)`` of memlane's tables
        (each locked while it is rewritten). ``[memory.erase] vacuum = true`` runs it after
        every erase; ``--vacuum`` after one (docs/erasure.md)."""
        self.store.vacuum()

    def _vacuum_if_configured(self) -> None:
        if self.config.erase.vacuum:
            self.store.vacuum()

    def _forget_cached_text(self) -> None:
        """After an erase: no cache of this process keeps conversation text
        (``memlane.textcaches``; docs/erasure.md)."""
        forget_cached_text(self._embeddings, self.__dict__.get("_hyde"))

    @validated
    def gc(self, now: datetime | str | float | None = None) -> GcReport:
        """Expire items past their TTL, evict the lowest-value items of lanes over cap,
        delete the graph nodes no entity item names (an older memlane's hygiene left them;
        the worker's rounds, ``work_once``, leave this sweep out) and prune the live
        stream's change log (``[memory.live]``)."""
        when = (datetime.now(UTC) if now is None else parse_time(now, "now")).timestamp()
        return collect_garbage(self.store, self.config.hygiene, when, self.config.live)

    @validated
    def compact(self, *, scope: str | None = None, topic: str | None = None,
                now: datetime | str | float | None = None) -> CompactReport:
        """Fold topics' summaries into decision records; write weekly roll-ups."""
        when = (datetime.now(UTC) if now is None else parse_time(now, "now")).timestamp()
        return compact(self.store, self.embeddings, self.config.hygiene, when, scope=scope,
                       topic=scrub(self.config.ingest, topic)[0] if topic else None)

    @validated
    def background_index(self, now: datetime | str | float | None = None) -> IndexReport:
        """``index()`` as the background worker runs it (``memlane worker``, ``start_worker``):
        a session late messages queued again is summarized ``indexing.late_settle_seconds``
        after the first of them, not at once, so that a burst of them (an app replaying its
        outbox) costs one summary. First the database's schema is checked: one another
        process migrated since (or an older copy put in its place) raises ``MigrationError``
        naming both versions, before anything is written (session 25)."""
        self.store.check_schema()
        return self._index(now, settle=self.config.indexing.late_settle_seconds)

    @validated
    def work_once(self, now: datetime | str | float | None = None) -> IndexReport:
        """What the background worker does each round: index, then hygiene; with the
        meaning tier on, the transformer vectors of the sessions it indexed, of the items
        bounded queries left uncached, and, when it had nothing newer to do, of older
        sessions' items (``retrieval.meaning_backfill`` passages a round)."""
        return self._work_round(now)

    def _work_round(self, now: datetime | str | float | None = None, *,
                    hygiene: bool = True) -> IndexReport:
        """``work_once``; without ``hygiene`` (``memlane worker``, which has never swept),
        index and the meaning tier's part alone."""
        before = {s.id for s in self.store.sessions_to_index(limit=1000)}
        report = self.background_index(now)
        when = (datetime.now(UTC) if now is None else parse_time(now, "now")).timestamp()
        if hygiene:
            collect_garbage(self.store, self.config.hygiene, when, self.config.live, nodes=False)
        self._work_meaning(before, report, when)
        return report

    def _work_meaning(self, indexed: set[int], report: IndexReport, when: float) -> None:
        """The meaning tier's part of a worker round (``work_once``): the vectors of the
        sessions it indexed, then of what bounded queries left uncached
        (``retrieval.meaning_cold``), then, only when the round did nothing else (so new
        sessions never wait on it), a bounded step of the backfill (``MeaningTier.backfill``:
        sessions indexed before the tier was on, or by another process)."""
        r = self.config.retrieval
        if not r.meaning_worker:
            return
        if r.meaning and indexed:
            self._meaning_tier().warm(self.store, sorted(indexed))
        from memlane.retrieve.meaning import loaded_tier

        tier = loaded_tier(r.meaning_max_tokens, r.meaning_window)  # none: none queued
        queued = tier.warm_pending(self.store) if tier is not None else 0
        idle = not (indexed or queued or report.sessions_indexed or report.sessions_summarized
                    or report.sessions_failed)
        if r.meaning and r.meaning_backfill and idle:
            self._meaning_tier().backfill(self.store, r.meaning_backfill, now=when)

    def _searching_tier(self) -> Any:
        """The meaning tier as a search uses it: one that caches no vector it computes when
        the search may write nothing (a read-only database, ``reading_only``), else one
        whose cache write, refused as read-only, is skipped (``_unless_refused``)."""
        from memlane.retrieve.meaning import ReadingTier, WritingTier

        tier = self._meaning_tier()
        what = "the meaning preset's passage vectors are computed, not cached"
        if self._read_only(what):
            return ReadingTier(tier)
        return WritingTier(tier, lambda: self._unless_refused(what))

    def _meaning_tier(self) -> Any:
        """The meaning tier's transformer and its cache (``memlane.retrieve.meaning``)."""
        from memlane.retrieve.meaning import shared_tier

        return shared_tier(self.config.retrieval.meaning_max_tokens,
                           self.config.retrieval.meaning_window)

    @validated
    def stats(self) -> dict[str, Any]:
        """Counts, counters, the summary queue and average summary latency."""
        data = self.store.stats()
        queue = self.store.summary_queue(time.time(), self.config.indexing.max_attempts)
        until = queue.pop("leased_until", None)  # the queue holds counts only
        data["summary_queue"] = queue
        data["summary_leased_until"] = datetime.fromtimestamp(until, UTC) if until else None
        counters = data["counters"]
        done = counters.get("sessions_summarized", 0)
        if done:
            data["summary_ms_avg"] = round(counters.get("summary_ms_total", 0) / done, 1)
        return data

