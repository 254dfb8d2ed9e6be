"""``memlane export``: every stored message as JSON Lines in the import format, so
``memlane export | memlane --db other.db import -`` moves conversations (and a file is a
backup ``memlane import`` reads back). Mounted by ``memlane.serve.cli``'s command table."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from datetime import UTC
from typing import TYPE_CHECKING, Any

import click

from memlane.ingest.importer import stable_id
from memlane.ingest.validate import canonical_scope
from memlane.serve.cli_common import memory_of
from memlane.serve.output import echo

if TYPE_CHECKING:
    from memlane.memory import Memory
    from memlane.store.contract import Store
    from memlane.types import Message, Session

__all__ = ["export", "export_id", "export_lines"]

_PAGE = 500


def _spelt(value: str | None) -> str | None:
    """A scope, agent or project in the one spelling ``import`` takes (NFC, no format
    characters): a database written before session 22 may hold ``team\u200b``, which
    ``import`` refuses, so its export could not be imported anywhere (session 22 review)."""
    if value is None or value.isascii() and value == value.strip():
        return value
    return canonical_scope(value) or value


def export_id(m: Message, tries: int = 0) -> str:
    """The message's id; for one stored without an id, a stable one made of its scope and
    its row's id (``~`` and 24 hex digits, as ``import`` gives a line without one), so that
    the memory an export moves exports the same again, and importing the file again into
    that memory stores nothing new (session 28). A content id could be another message's,
    two identical messages of one scope, one imported without an id. ``tries``: the
    how-many-th made for it (``_free_ids``: the first is held by another message)."""
    if m.ext_id is not None:
        return m.ext_id
    return stable_id("memlane export", m.scope, str(m.id), *([str(tries)] if tries else []))


def _free_ids(store: Store, messages: list[Message]) -> dict[int, str]:
    """``export_id`` of each message stored without an id, made again while another message
    of its scope holds it: row 1 of a scope here and row 1 of that scope in the database
    an earlier export came from had one id, so a memory holding both exported two messages
    under it and the import of that file skipped the second as "already stored" (session
    29). One statement per scope and 500 messages (``first_stored``) when none clashes."""
    ids: dict[int, str] = {}
    tries: dict[int, int] = {}
    by_scope: dict[str, list[Message]] = {}
    for m in messages:
        if m.ext_id is None:
            by_scope.setdefault(m.scope, []).append(m)
            ids[m.id] = export_id(m)
    for scope, own in by_scope.items():
        for _ in range(len(own) + 1):  # bounded: each round makes one held id again
            held = store.first_stored(scope, [ids[m.id] for m in own])
            if held is None:
                break
            m = next(m for m in own if ids[m.id] == held)
            tries[m.id] = tries.get(m.id, 0) + 1
            ids[m.id] = export_id(m, tries[m.id])
    return ids


def _own(s: Session, messages: list[Message]) -> dict[str, Any]:
    """The session's agent, project and participants order where they are not what its
    lines give an import (its first message's agent and project, its speakers in time
    order): a late message is its first in time, but the session is the first-arriving
    message's, and its participants are in arrival order (session 28, second round)."""
    if not messages:
        return {}
    first = messages[0]
    own: dict[str, Any] = {}
    if s.agent != first.agent:
        own["session_agent"] = _spelt(s.agent)
    if s.project != first.project:
        own["session_project"] = _spelt(s.project)
    if s.participants != tuple(dict.fromkeys(m.speaker or m.role for m in messages)):
        own["participants"] = list(s.participants)
    return own


def _line(m: Message, session: int, closed: str | None, own: dict[str, Any],
          ids: dict[int, str]) -> dict[str, Any]:
    at = m.at.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
    row: dict[str, Any] = {"scope": _spelt(m.scope), "role": m.role, "text": m.text, "at": at,
                           "id": ids.get(m.id) or export_id(m)}
    for key, value in (("speaker", m.speaker), ("agent", _spelt(m.agent)),
                       ("project", _spelt(m.project))):
        if value is not None:
            row[key] = value
    row["session"] = session  # its session's place in the export: import starts one there
    if closed is not None:  # how it ended: import closes it so (an open one stays open)
        row["closed"] = closed
    row.update(own)  # the session's own agent, project, participants (``_own``)
    return row


def export_lines(mem: Memory, scope: str | None = None) -> Iterator[dict[str, Any]]:
    """Each stored message of ``scope`` (every scope when None) as an import line: sessions
    oldest first, each session's messages in order."""
    from memlane.ingest.spellings import resolve_scope

    if scope is not None:
        scope = resolve_scope(mem.store, scope)
    sessions = []
    offset = 0
    while True:
        page = mem.store.list_sessions(scope=scope, limit=_PAGE, offset=offset)
        sessions.extend(page)
        if len(page) < _PAGE:
            break
        offset += _PAGE
    sessions.sort(key=lambda s: (s.started_at, s.id))
    for start in range(0, len(sessions), _PAGE):
        chunk = [s.id for s in sessions[start:start + _PAGE]]
        by_session = mem.store.sessions_messages(chunk)
        ids = _free_ids(mem.store, [m for c in chunk for m in by_session[c]])
        for place, s in enumerate(sessions[start:start + _PAGE], start=start + 1):
            closed = None if s.status == "open" else s.closed_reason or "explicit"
            own = _own(s, by_session[s.id])
            for m in by_session[s.id]:
                yield _line(m, place, closed, own, ids)


_LEFT_BEHIND = (
    "note: only messages are exported (with how their sessions ended): summaries, facts, "
    "entities and notes stay here; memlane index where they are imported writes summaries, "
    "facts and entities again from them (memlane copy moves a whole memory)")
"""Said on a terminal after an export of a memory holding more than messages: the file
looks like a whole memory, and a user moving one with ``export | import`` might think its
summaries moved too (session 28). Not when standard error is not a terminal (a backup run by
cron mails what a command writes there), as the progress bars."""


def _left_behind(mem: Memory) -> bool:
    """Whether the memory holds items an export leaves behind (anything but turns)."""
    return any(n for kind, n in mem.store.stats()["items"].items() if kind != "turn")


@click.command()
@click.option("--scope", default=None, help="Only this scope (default: every scope).")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON document, a list of the lines, instead of JSON Lines.")
@click.pass_context
def export(ctx: click.Context, scope: str | None, as_json: bool) -> None:
    """Print every stored message as JSON Lines, the format memlane import reads.

    Sessions oldest first, each in order; each line carries the message's scope, role,
    text (as stored: secrets already redacted), time, id, its session's place and, when
    set, speaker, agent, project, how its session ended (closed) and the session's own
    agent, project and participants order where its lines do not give them (a late first
    message: session_agent, session_project, participants). memlane export |
    memlane --db other.db import - copies the conversations (summaries, facts, entities and
    notes stay: memlane index writes them again where they go; memlane copy moves all).
    """
    mem = memory_of(ctx)
    count = 0
    if as_json:
        rows = list(export_lines(mem, scope))
        count = len(rows)
        echo(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for row in export_lines(mem, scope):
            echo(json.dumps(row, ensure_ascii=False))
            count += 1
    if count and sys.stderr.isatty() and _left_behind(mem):
        echo(_LEFT_BEHIND, err=True)
    if not count:  # a mistyped --scope gave an empty file without a word
        what = (f"scope {scope!r} holds no messages" if scope is not None
                else "the database holds no messages")
        echo(f"nothing exported: {what}", err=True)
