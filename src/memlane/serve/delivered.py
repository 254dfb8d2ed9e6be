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

if TYPE_CHECKING:
    from memlane.memory import Memory

__all__ = ["retry_time"]


def retry_time(mem: Memory, scope: Any, ext_id: Any, at: Any) -> datetime | Any:
    """``at`` as given, or, when it is left out (None or "") and ``scope`` holds a message
    under ``ext_id``, that message's time. A value ``add_message`` refuses is left to it
    (it names the field)."""
    from memlane.ingest.validate import check_scope

    if ext_id is None or at not in (None, "") or not isinstance(ext_id, str):
        return at
    try:
        earlier = mem.store.message_by_ext_id(check_scope(scope), ext_id)
    except MemlaneError:  # a bad scope: add_message says so, naming it
        return at
    return at if earlier is None else earlier.at
