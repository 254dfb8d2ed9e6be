"""A call whose database connection was lost in the middle of it, run once more when that
cannot do anything twice: the one rule of every surface of the service (the REST routes and
``/actions``, MCP's tools and resources, the inspector's pages, the live stream's reads).

A connection the server ended mid-call (a restart, ``pg_terminate_backend``, a pooler) is
``Store.may_run_again``'s to judge: a read runs again if it sent no COMMIT; a write only if
nothing of it can have been kept. Otherwise the error goes on to the surface, which says
whether calling again is safe (``retry_note``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from memlane.errors import StoreError

log = logging.getLogger("memlane.serve")

T = TypeVar("T")


def once_more_if_lost(store: Any, what: str, call: Callable[[], T], *, write: bool,
                      again: Callable[[], None] | None = None) -> T:
    """``call()``, and once more on a new connection if it failed because this thread's
    connection was lost and ``store.may_run_again`` says nothing of it can have been kept.
    ``again`` runs before the second call (to reset what the first one gathered). A
    ``StoreError`` that is let through carries ``safe_again``: whether calling again can do
    nothing twice (True), may (False), or is not known (None: the database failed otherwise)."""
    progress = store.progress()
    try:
        return call()
    except StoreError as e:
        if not store.may_run_again(e, progress, write=write):
            _judge(store, e, progress, write=write)
            raise
        log.warning("%s: the database connection was lost (%s); running it again", what, e)
    if again is not None:
        again()
    progress = store.progress()
    try:
        return call()
    except StoreError as e:
        _judge(store, e, progress, write=write)
        raise


def _judge(store: Any, e: StoreError, progress: Any, *, write: bool) -> None:
    if not store.lost_connection(e):
        return
    e.safe_again = bool(store.may_run_again(e, progress, write=write))


def retry_note(e: BaseException) -> str:
    """What a surface adds to a lost connection's error: whether a retry is safe."""
    safe_again = getattr(e, "safe_again", None)
    if safe_again is None:
        return ""
    if safe_again:
        return ("; the connection to the database was lost and nothing of this call was "
                "kept: calling it again is safe")
    return ("; the connection to the database was lost after this call may have stored "
            "something: check before calling it again (a message sent with its id is "
            "stored once)")
