"""The facade: ``Memory`` wires config, store, embedder, ingest, index and search."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from memlane.config import Config, load_config
from memlane.errors import ValidationError
from memlane.index.embed import Embeddings
from memlane.index.indexer import close_idle, index_pending
from memlane.index.worker import IndexWorker
from memlane.ingest.importer import import_jsonl
from memlane.ingest.sessionize import prepare, store_message
from memlane.ingest.validate import check_scope, parse_time
from memlane.pack.packer import Pack, pack_hits
from memlane.pack.tokens import ApproxTokenCounter
from memlane.protocols import Embedder, TokenCounter, Tracer
from memlane.retrieve.search import hybrid_search
from memlane.store import Filters, open_store
from memlane.types import Hit, ImportReport, IndexReport, Item, Message, Session

__all__ = ["Memory", "make_embedder"]


def make_embedder(config: Config) -> Embedder:
    """The embedder that ``[memory.embedding]`` names."""
    from memlane.backends.embed import get_embedder

    e = config.embedding
    if e.backend == "openai":
        return get_embedder("openai", base_url=e.base_url, model=e.model, api_key_env=e.api_key_env)
    return get_embedder(e.backend)


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
        tracer: Tracer | None = None,
    ) -> None:
        self.config = config if config is not None else load_config()
        self.store = open_store(db if db is not None else self.config.db, tracer=tracer)
        self._embedder = embedder
        self._embeddings: Embeddings | None = None
        self.last_timings: dict[str, float] = {}
        self._worker: IndexWorker | None = None

    # -- lifecycle ----------------------------------------------------------------------
    def close(self) -> None:
        """Stop the background worker, if any, and close the database."""
        if self._worker is not None:
            self._worker.stop()
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = make_embedder(self.config)
        return self._embedder

    @property
    def embeddings(self) -> Embeddings:
        if self._embeddings is None:
            self._embeddings = Embeddings(self.store, self.embedder, self.config.embedding.batch_size)
        return self._embeddings

    # -- ingest -------------------------------------------------------------------------
    def add_message(
        self,
        scope: str,
        role: str,
        text: str,
        at: datetime | str | float | None = None,
        *,
        speaker: str | None = None,
        id: str | None = None,  # noqa: A002 - the import format's name for it
        agent: str | None = None,
        project: str | None = None,
    ) -> Message:
        """Store one message (validated, secrets redacted) in its scope's current session.

        No model is called. ``at`` defaults to now; a gap longer than
        ``ingest.session_gap_minutes`` since the scope's last message starts a new session.
        ``id`` is the caller's message id: a second message with the same id in the same
        scope is refused.
        """
        cfg = self.config.ingest
        msg = prepare(cfg, scope, role, text, at, speaker=speaker, ext_id=id, agent=agent,
                      project=project, now=datetime.now(UTC))
        with self.store.atomic():
            if msg.ext_id is not None and self.store.message_by_ext_id(msg.scope, msg.ext_id):
                raise ValidationError(
                    f"id: message {msg.ext_id!r} already exists in scope {msg.scope!r}", field="id"
                )
            return store_message(self.store, cfg, msg)

    def import_file(
        self, source: str | Path | IO[str], *, strict: bool = False, scope: str | None = None
    ) -> ImportReport:
        """Import a JSON Lines conversation file (see ``memlane.ingest.importer``)."""
        return import_jsonl(self.store, self.config.ingest, source, strict=strict, default_scope=scope)

    # -- sessions -----------------------------------------------------------------------
    def close_session(self, scope: str | None = None, *, session_id: int | None = None) -> Session | None:
        """Close a scope's open session (or the session ``session_id``); None if none was open."""
        if (scope is None) == (session_id is None):
            raise ValidationError("pass exactly one of scope or session_id", field="scope")
        with self.store.atomic():
            if session_id is None:
                current = self.store.open_session_for(check_scope(scope))
                if current is None:
                    return None
                session_id = current[0]
            if not self.store.close_session(session_id, "explicit"):
                self.store.get_session(session_id)  # raises NotFoundError if missing
                return None
            self.store.bump("sessions_closed")
            self.store.bump("sessions_closed_explicit")
        return self.store.get_session(session_id)

    def close_idle(self, now: datetime | str | None = None) -> list[int]:
        """Close every open session idle for longer than the gap as of ``now``."""
        when = datetime.now(UTC) if now is None else parse_time(now, "now")
        return close_idle(self.store, self.config, when)

    def session(self, session_id: int) -> Session:
        return self.store.get_session(session_id)

    def sessions(self, scope: str | None = None, status: str | None = None, limit: int = 100) -> list[Session]:
        return self.store.list_sessions(scope=scope, status=status, limit=limit)

    def messages(self, session_id: int) -> list[Message]:
        self.store.get_session(session_id)
        return self.store.session_messages(session_id)

    def item(self, item_id: int) -> Item:
        return self.store.get_item(item_id)

    # -- index --------------------------------------------------------------------------
    def index(
        self,
        now: datetime | str | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
    ) -> IndexReport:
        """Close idle sessions as of ``now``, then index every closed session's turns."""
        closed = self.close_idle(now)
        report = index_pending(self.store, self.embeddings, progress=progress)
        return IndexReport(
            sessions_closed=len(closed),
            sessions_indexed=report.sessions_indexed,
            items_indexed=report.items_indexed,
            texts_embedded=report.texts_embedded,
            cache_hits=report.cache_hits,
            seconds=report.seconds,
        )

    def start_worker(self, poll_seconds: float = 5.0) -> IndexWorker:
        """Index in a background thread every ``poll_seconds``; stopped by ``close()``."""
        if self._worker is None:
            self._worker = IndexWorker(self.index, poll_seconds=poll_seconds)
        return self._worker.start()

    # -- search -------------------------------------------------------------------------
    def search(
        self,
        query: str,
        scope: str | None = None,
        k: int | None = None,
        *,
        now: datetime | str | None = None,
        agent: str | None = None,
        project: str | None = None,
        kinds: list[str] | tuple[str, ...] | None = None,
        lanes: list[str] | tuple[str, ...] | None = None,
        privacy: list[str] | tuple[str, ...] | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
    ) -> list[Hit]:
        """Hybrid lexical + vector search; each hit carries its item, session and scores.

        ``now`` searches memory as it was at that time (nothing later is returned).
        ``privacy`` defaults to ``search.default_privacy`` (private + project).
        """
        if not isinstance(query, str):
            raise ValidationError(f"query: must be a string, got {type(query).__name__}", field="query")
        k = self.config.search.default_k if k is None else k
        if not isinstance(k, int) or k < 1 or k > 1000:
            raise ValidationError(f"k: must be an integer from 1 to 1000, got {k!r}", field="k")
        hi = parse_time(until, "until").timestamp() if until is not None else None
        if now is not None:
            t = parse_time(now, "now").timestamp()
            hi = t if hi is None else min(hi, t)
        filters = Filters.build(
            scope=check_scope(scope) if scope is not None else None,
            agent=agent, project=project, kinds=kinds, lanes=lanes,
            privacy=self.config.search.default_privacy if privacy is None else privacy,
            since=parse_time(since, "since").timestamp() if since is not None else None,
            until=hi,
        )
        timings: dict[str, float] = {}
        hits = hybrid_search(self.store, self.embeddings, self.config.search, query, filters, k, timings)
        self.last_timings = timings
        return hits

    def pack(
        self,
        query: str,
        budget: int = 1000,
        *,
        scope: str | None = None,
        k: int = 30,
        now: datetime | str | None = None,
        token_counter: TokenCounter | None = None,
    ) -> Pack:
        """Search, then keep the best hits that fit ``budget`` tokens, each decision explained."""
        if not isinstance(budget, int) or budget < 16:
            raise ValidationError(f"budget: must be an integer of at least 16 tokens, got {budget!r}",
                                  field="budget")
        hits = self.search(query, scope=scope, k=k, now=now)
        return pack_hits(query, hits, budget, token_counter or ApproxTokenCounter())

    # -- maintenance --------------------------------------------------------------------
    def forget_item(self, item_id: int) -> None:
        """Delete an item with its lexical and vector rows."""
        self.store.delete_item(item_id)

    def stats(self) -> dict[str, Any]:
        return self.store.stats()

