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

__all__ = ["retry_time", "stored_before"]


def stored_before(mem: Memory, scope: Any, ext_id: Any) -> Message | None:
    """The message ``scope`` holds under ``ext_id``, or None (no id, none stored, or a
    value ``add_message`` refuses, naming it). A surface that says what it stored asks it
    before the call: when ``add_message`` answers this message, it was stored before and
    nothing new was (``memlane add`` said "message N added" for it; session 33)."""
    from memlane.ingest.validate import check_scope

    if not isinstance(ext_id, str):
        return None
    try:
        return mem.store.message_by_ext_id(check_scope(scope), ext_id)
    except MemlaneError:  # a bad scope: add_message says so, naming it
        return None


def retry_time(mem: Memory, scope: Any, ext_id: Any, at: Any,
               earlier: Message | None | object = ...) -> datetime | Any:
    """``at`` as given, or, when it is left out (None or "") and ``scope`` holds a message
    under ``ext_id``, that message's time. A value ``add_message`` refuses is left to it
    (it names the field). ``earlier``: ``stored_before``'s answer, when the caller has it."""
    if ext_id is None or at not in (None, "") or not isinstance(ext_id, str):
        return at
    if earlier is ...:
        earlier = stored_before(mem, scope, ext_id)
    return at if not isinstance(earlier, Message) else earlier.at
