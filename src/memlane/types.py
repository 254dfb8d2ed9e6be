"""Value objects that cross memlane's module boundaries. All frozen."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

__all__ = [
    "DURABILITIES",
    "ENGINE_KINDS",
    "ENGINE_LANES",
    "KINDS",
    "LANES",
    "PRIVACIES",
    "ROLES",
    "SESSION_STATUSES",
    "SOURCES",
    "UPSERT_KINDS",
    "ChangeRecord",
    "Hit",
    "ImportReport",
    "IndexReport",
    "Item",
    "Message",
    "Session",
    "StoredEntity",
    "StoredFact",
]

ROLES = ("user", "assistant", "system", "tool")
SESSION_STATUSES = ("open", "closed", "summarized", "failed")
KINDS = (
    "turn",
    "summary",
    "fact",
    "entity",
    "decision",
    "preference",
    "plan",
    "observation",
    "note",
)
ENGINE_KINDS = ("turn", "summary", "fact", "entity")
"""Kinds only memlane writes (from messages and sessions): ``upsert`` refuses them, so a
client cannot forge a turn, a session's summary or entity (a fact goes through
``add_fact``'s contradiction rules)."""
UPSERT_KINDS = tuple(k for k in KINDS if k not in ENGINE_KINDS)
"""The kinds ``Memory.upsert`` (``memory.upsert``, ``POST /v1/items``) stores."""
LANES = ("ephemeral", "episodic", "semantic", "profile", "story_thread")
ENGINE_LANES = ("story_thread",)
"""Lanes only memlane writes: a topic's story thread, kept by ``upsert``'s ``topics``."""
DURABILITIES = ("ephemeral", "short", "long")
PRIVACIES = ("private", "project", "shared")
SOURCES = ("stated", "observed", "inferred", "system")
"""Where an item or fact came from (``source`` of ``upsert`` and ``add_fact``)."""

SessionStatus = Literal["open", "closed", "summarized", "failed"]


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a conversation as stored (text already redacted)."""

    id: int
    session_id: int
    scope: str
    role: str
    text: str
    at: datetime
    seq: int
    """1-based position of the message in its session, in time order (messages of one time
    in arrival order): a message delivered later but dated earlier takes its place, and the
    later ones' ``seq`` moves down by one (session 23)."""
    speaker: str | None = None
    ext_id: str | None = None
    agent: str | None = None
    project: str | None = None
    redactions: int = 0


@dataclass(frozen=True, slots=True)
class Session:
    """A run of messages in one scope without an inactivity gap."""

    id: int
    scope: str
    status: str
    started_at: datetime
    ended_at: datetime
    message_count: int
    participants: tuple[str, ...] = ()
    agent: str | None = None
    project: str | None = None
    closed_reason: str | None = None
    failed_reason: str | None = None
    summary_version: int | None = None
    indexed: bool = False
    attempts: int = 0
    """Session-intelligence attempts so far (failures are retried with backoff)."""
    summarized: bool = False
    """Session intelligence has run (a summary was written, or the session was too small)."""
    summary_model: str | None = None
    deferrals: int = 0
    """Attempts given back to it: a 429 or 5xx from the model endpoint while nothing showed
    that the endpoint answers anyone else (an outage, not this session's fault)."""


@dataclass(frozen=True, slots=True)
class Item:
    """A canonical memory item: a turn, summary, fact, decision, preference..."""

    id: int
    kind: str
    text: str
    at: datetime
    scope: str | None = None
    agent: str | None = None
    project: str | None = None
    session_id: int | None = None
    message_id: int | None = None
    seq: int | None = None
    role: str | None = None
    keywords: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    source: str = "observed"
    durability: str = "long"
    lane: str = "episodic"
    trust: float = 1.0
    privacy: str = "private"
    ttl_seconds: int | None = None
    parents: tuple[int, ...] = ()
    children: tuple[int, ...] = ()
    status: str = "active"
    dedupe_hash: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    pinned: bool = False


@dataclass(frozen=True, slots=True)
class StoredFact:
    """A fact as stored: ``subject predicate object`` with provenance and confidence state."""

    id: int
    item_id: int | None
    scope: str
    subject: str
    predicate: str
    object: str
    source: str
    session_id: int | None
    message_id: int | None
    at: datetime
    reinforcements: int = 0
    last_accessed: datetime | None = None
    superseded_by: int | None = None
    status: str = "current"


@dataclass(frozen=True, slots=True)
class StoredEntity:
    """An entity merged by normalized name within a scope."""

    id: int
    scope: str
    name: str
    type: str
    context: str
    mentions: int
    first_seen: datetime
    last_seen: datetime


@dataclass(frozen=True, slots=True)
class Hit:
    """A search result: the item, its session and every score component."""

    item: Item
    score: float
    scores: dict[str, float]
    session: Session | None = None

    @property
    def session_id(self) -> int | None:
        return self.item.session_id


@dataclass(frozen=True, slots=True)
class IndexReport:
    """What one ``Memory.index()`` call did."""

    sessions_closed: int
    sessions_indexed: int
    items_indexed: int
    texts_embedded: int
    cache_hits: int
    seconds: float
    sessions_summarized: int = 0
    sessions_failed: int = 0
    sessions_skipped: int = 0
    sessions_leased: int = 0
    """Sessions another worker (or one that was killed) still holds; they return when the
    lease ends."""
    leased_until: datetime | None = None
    """When the last of those leases ends."""
    summary_jobs: int = 1
    """Processes that summarized (``indexing.jobs`` for a backlog of the offline backend;
    1: this process alone)."""


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What one import did; ``errors`` lists ``(line, message)`` of refused lines."""

    lines: int
    imported: int
    skipped_duplicates: int
    errors: tuple[tuple[int, str], ...] = ()
    error_field: str | None = None
    """The field of the refused line at fault (``role``, ``at``…; None when the line as a
    whole is: not JSON, not an object)."""
    compression: str | None = None
    """The compression the file was read through, told by its first bytes: ``gzip``,
    ``xz`` or ``bz2`` (``gzip+xz``: an xz file inside a gzip one); None for plain text."""
    empty: bool = False
    """The file held no byte (once decompressed): nothing was read, nothing imported."""


@dataclass(frozen=True, slots=True)
class ChangeRecord:
    """One row of the change log behind the live memory stream (``memlane.serve.live``).

    ``doc`` is the entity's state document after the change (None after a delete). A
    message's record (topic ``message.added``) is stored without one and read with its
    session's document as of the read (None when the session was deleted since).
    """

    id: int
    """Position in the log: increases in commit order; the stream's event id."""
    scope: str
    entity: Literal["session", "item", "fact", "pack", "scope"]
    """``scope``: a whole scope was erased (topic ``scope.erased``, docs/erasure.md)."""
    entity_id: int
    op: Literal["insert", "update", "delete"]
    topic: str
    doc: dict[str, Any] | None
    at: float
    """When the change was written (UTC epoch seconds)."""


@dataclass(frozen=True, slots=True)
class EraseReport:
    """What ``Memory.forget_scope`` / ``Memory.forget_session`` deleted (docs/erasure.md).

    ``counts`` holds every kind (``memlane.store.sql.erase.ERASE_KINDS``): sessions,
    messages, items, vectors, cached_vectors, facts, fact_events, entities, relations,
    packs, changes; all zero when there was nothing to erase (``erased`` is then False).
    """

    scope: str
    session_id: int | None
    """The session erased (``forget_session``); None for a whole scope."""
    counts: dict[str, int]

    @property
    def erased(self) -> bool:
        """Whether anything was deleted."""
        return any(self.counts.values())

    @property
    def notice(self) -> str:
        """One line saying what happened, for people."""
        what = (f"session {self.session_id} of scope {self.scope!r}" if self.session_id is not None
                else f"scope {self.scope!r}")
        if not self.erased:
            return f"{what} holds nothing: nothing erased"
        done = ", ".join(f"{k.replace('_', ' ')} {n}" for k, n in self.counts.items() if n)
        return f"erased {what}: {done}"

    def to_dict(self) -> dict[str, Any]:
        return {"scope": self.scope, "session_id": self.session_id, "erased": self.erased,
                "counts": dict(self.counts)}
