"""Sessionization: the inactivity gap per scope decides where a session ends."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memlane.config import IngestConfig
from memlane.ingest.redact import scrub
from memlane.errors import ValidationError
from memlane.ingest.spellings import stored_scope, writable_scope
from memlane.ingest.validate import MAX_CHARS_KEY, check_label, check_role, check_scope, check_text, parse_time
from memlane.types import Message
from memlane.store.contract import NewMessage, Store

__all__ = ["Incoming", "held_under_id", "prepare", "same_message", "scrub_label", "store_message",
           "store_messages"]


@dataclass(frozen=True, slots=True)
class Incoming:
    """A validated, redacted message ready to store."""

    scope: str
    role: str
    text: str
    at: datetime
    speaker: str | None
    ext_id: str | None
    agent: str | None
    project: str | None
    redactions: int
    session: str | None = None
    """An import line's session label (``memlane export`` writes one): a new label starts
    a session of the scope. Not stored."""
    closed: str | None = None
    """How the labelled session ended (``memlane export`` writes it for a closed session:
    ``explicit``, ``gap``, ``idle`` or ``late``): the import closes it so when its label
    ends. Not stored on the message."""
    owner: tuple[tuple[str, Any], ...] = ()
    """The labelled session's own ``session_agent``, ``session_project`` and
    ``participants`` where the line gives them (``memlane export`` writes them when they are
    not what the label's lines give: its first line's agent and project, its speakers in
    time order): the session starts with them. Not stored on the message."""
    made_id: bool = False
    """``ext_id`` is the import's content id: the line gave none. A ``~`` id a line gives
    (``memlane export``'s, of a message stored without one) names one message as any id
    does (session 29: taken for a content id, one naming another message was skipped as
    "already stored")."""


def _opt_str(value: Any, field: str) -> str | None:
    """An optional label; ``agent`` and ``project`` are identifiers a search filters by, so
    they follow the scope's rule (NFC, no format characters); a speaker or an id is a label."""
    if value is None:
        return None
    if field in ("agent", "project", "session_agent", "session_project"):
        return check_scope(value, field)
    return check_label(value, field)


def scrub_label(cfg: IngestConfig, value: Any, field: str) -> tuple[str | None, int]:
    """An optional label (speaker, id, agent, project) checked, then redacted as text is: a
    label is stored and shown as a message is. A search's ``agent`` or ``project`` filter
    goes through it too, so that it still names what was stored."""
    label = _opt_str(value, field)
    if label is None:
        return None, 0
    return scrub(cfg, label)


def prepare(
    cfg: IngestConfig,
    scope: Any,
    role: Any,
    text: Any,
    at: Any,
    *,
    speaker: Any = None,
    ext_id: Any = None,
    agent: Any = None,
    project: Any = None,
    now: datetime,
) -> Incoming:
    """Validate and redact one message; raises ValidationError naming the field."""
    scope = check_scope(scope)
    role = check_role(role)
    text = check_text(text, cfg.max_message_chars, key=MAX_CHARS_KEY)
    when = now if at is None else parse_time(at)
    ahead = (when - now).total_seconds()
    if ahead > cfg.max_future_minutes * 60.0:
        raise ValidationError(
            f"at: {when.isoformat().replace('+00:00', 'Z')} is {_span(ahead)} after this "
            f"process's clock ({now.isoformat(timespec='seconds').replace('+00:00', 'Z')}); "
            f"a message may be dated at most ingest.max_future_minutes "
            f"({cfg.max_future_minutes:g}) ahead (a clock set wrong, or a local time sent "
            "without its offset?)", field="at")
    text, n = scrub(cfg, text)
    labels = {}
    for field, value in (("speaker", speaker), ("id", ext_id), ("agent", agent), ("project", project)):
        labels[field], k = scrub_label(cfg, value, field)
        n += k
    return Incoming(
        scope=scope,
        role=role,
        text=text,
        at=when,
        speaker=labels["speaker"],
        ext_id=labels["id"],
        agent=labels["agent"],
        project=labels["project"],
        redactions=n,
    )


def held_under_id(store: Store, m: Incoming) -> Message | None:
    """The message ``store`` holds under ``m``'s id in ``m``'s scope, read where
    ``store_message`` writes: in the scope's stored spelling (``stored_scope``; a scope an
    old database holds as "café" in NFD was looked up in NFC, and a retry there was refused
    as another message under its id; session 34). None without an id."""
    if m.ext_id is None:
        return None
    return store.message_by_ext_id(stored_scope(store, m.scope), m.ext_id)


def same_message(stored: Message, m: Incoming) -> bool:
    """Whether ``m`` is ``stored`` delivered again: the same role, time, text (as stored,
    redacted), speaker, agent and project. An id names one message of its scope: the same
    message under it again is a duplicate, a different one an error."""
    return (stored.role, stored.at.timestamp(), stored.text, stored.speaker, stored.agent,
            stored.project) == (m.role, m.at.timestamp(), m.text, m.speaker, m.agent, m.project)


def _span(seconds: float) -> str:
    """A duration in words: "3 days", "2.5 hours", "40 minutes"."""
    for unit, size in (("days", 86400.0), ("hours", 3600.0), ("minutes", 60.0)):
        if seconds >= size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.3g} seconds"


def store_message(store: Store, cfg: IngestConfig, m: Incoming) -> Message | None:
    """Store a prepared message in its scope's session, in one transaction (nested in the
    caller's, if any); None (nothing written) if the scope already holds its ``ext_id``.

    A message later than the open session's last one by more than the gap closes that
    session (reason ``gap``) and opens a new one (``store.add_message``: on PostgreSQL
    one round trip).
    """
    scope = stored_scope(store, m.scope)
    if scope == m.scope:  # the one spelling (the hot path): no old spelling to check
        got = store.add_message(
            scope, m.role, m.text, m.at.timestamp(), gap=cfg.session_gap_minutes * 60.0,
            speaker=m.speaker, ext_id=m.ext_id, agent=m.agent, project=m.project,
            redactions=m.redactions)
        return _stored(m, got)
    with store.atomic():  # an old spelling: still stored? (``writable_scope``)
        got = store.add_message(
            writable_scope(store, scope), m.role, m.text, m.at.timestamp(),
            gap=cfg.session_gap_minutes * 60.0, speaker=m.speaker, ext_id=m.ext_id,
            agent=m.agent, project=m.project, redactions=m.redactions)
    return _stored(m, got)


def store_messages(store: Store, cfg: IngestConfig, ms: Sequence[Incoming], *,
                   gap: float | None = None, session: int | None = None
                   ) -> list[Message | None]:
    """``store_message`` for each of ``ms`` in order, in one transaction (PostgreSQL: one
    round trip): one entry per message, None where its scope already holds its ``ext_id``
    (that message is not stored; the others are). ``gap``: seconds that cut a session
    (default ``ingest.session_gap_minutes``; an import's labelled lines pass infinity, so
    that they stay in the session their label started). ``session``: the session (of their
    one scope) the messages go to whatever their times (``Store.add_to_session``; an
    import's label resumed in a session that is not the scope's open one)."""
    scopes = [stored_scope(store, m.scope) for m in ms]
    olds = sorted(set(scopes) - {m.scope for m in ms})  # old spellings: still stored?
    with store.atomic() if olds else nullcontext():
        old = {s: writable_scope(store, s) for s in olds}
        rows = [NewMessage(old.get(s, s), m.role, m.text, m.at.timestamp(), m.speaker, m.ext_id,
                           m.agent, m.project, m.redactions) for s, m in zip(scopes, ms, strict=True)]
        got = store.add_messages(
            rows, gap=cfg.session_gap_minutes * 60.0 if gap is None else gap,
        ) if session is None else store.add_to_session(session, rows)
    return [_stored(m, g) for m, g in zip(ms, got, strict=True)]


def _stored(m: Incoming, got: tuple[int, int, int] | None) -> Message | None:
    if got is None:
        return None
    message_id, session_id, seq = got
    return Message(
        id=message_id, session_id=session_id, scope=m.scope, role=m.role, text=m.text, at=m.at,
        seq=seq, speaker=m.speaker, ext_id=m.ext_id, agent=m.agent, project=m.project,
        redactions=m.redactions,
    )
