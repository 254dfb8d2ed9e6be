"""A message delivered again: the time of a retry that left ``at`` out.

The same message under a stored id is stored once (``Memory.add_message``), and "the same"
includes its time. A client that gives an ``id`` and no ``at`` (``memlane add TEXT --id ID``,
``POST /v1/messages`` with ``id``, MCP ``remember``) was dated "now" on every attempt, so its
retry after a timeout was another message under that id, a conflict. Every surface that
adds a message takes the stored message's time for such a retry, so role, text, speaker,
agent and project decide whether it is that message again (MCP's ``remember`` did so; the
CLI and HTTP since session 33).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from memlane.errors import MemlaneError
from memlane.types import Message

if TYPE_CHECKING:
    from memlane.memory import Memory

__all__ = ["retry_time", "stored_before", "time_left_out"]


def stored_before(mem: Memory, scope: Any, ext_id: Any) -> Message | None:
    """The message ``scope`` holds under ``ext_id``, or None (no id, none stored, or a
    value ``add_message`` refuses, naming it). A surface that says what it stored asks it
    before the call: when ``add_message`` answers this message, it was stored before and
    nothing new was (``memlane add`` said "message N added" for it; session 33)."""
    from memlane.ingest.sessionize import stored_under_id

    try:  # scope and id spelt as add_message stores them (session 34: " m-1" missed "m-1")
        return stored_under_id(mem.store, mem.config.ingest, scope, ext_id)
    except MemlaneError:  # a bad scope or id: add_message says so, naming it
        return None


def time_left_out(at: Any) -> bool:
    """Whether a message's ``at`` was left out (None or ""): only then does a retry take the
    stored message's time, so only then does a surface that tells a retry apart by
    ``Memory.last_already_stored`` (HTTP's ``already_stored``, session 35) need
    ``stored_before``."""
    return at is None or (isinstance(at, str) and at == "")


def retry_time(at: Any, earlier: Message | None) -> datetime | Any:
    """``at`` as given, or, when it is left out (``time_left_out``) and ``earlier`` (the
    one ``stored_before`` lookup a surface makes) is the message stored under the id, that
    message's time. A value ``add_message`` refuses is left to it (it names the field).
    Nothing is looked up here: the caller's lookup serves both this and its answer
    (session 34: the lookup was made here again when a caller did not pass it)."""
    return earlier.at if time_left_out(at) and isinstance(earlier, Message) else at
