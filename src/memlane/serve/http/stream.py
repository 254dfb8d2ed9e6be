"""``GET /state/memory?scope=S``: the live memory of a scope as Server-Sent Events.

The first event is ``snapshot`` (data: the scope's state document, see
``memlane.serve.live``); then each change is a ``patch`` event whose data is
``{"topic": ..., "patch": [RFC 6902 operations]}``. Event ids are the change log's ids,
so a client that reconnects with ``Last-Event-ID`` (or ``?last_event_id=``) gets every
change after it and nothing twice, across service restarts too. When that id is no
longer in the retained log the stream sends ``reset`` and a new ``snapshot``: the client
replaces its state, never skips changes silently.

On a PostgreSQL connection that may not write (a replica, a read-only or SELECT-only role)
the snapshot may hold changes the log has not numbered yet (``live.Snapshot.pending``): it
is then sent with an empty id, and the patches with none until those changes are passed
(skipped, not sent again), so a reconnect meanwhile takes a new snapshot (session 38).

While other scopes change and this one stays quiet, the stream sends an id-only event
(``id: N`` and nothing else) every ``_MARK_POLLS`` polls: an SSE client dispatches
nothing for it but keeps ``N`` as its last event id, so a reconnect resumes from there
instead of re-reading the other scopes' changes (or meeting a pruned id and a reset).

The stream needs read access to the scope. It polls the log every
``serve.stream_poll_seconds`` (in a worker thread) and ends when the client goes away or
the service shuts down.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import Depends, FastAPI, Header, Query, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.types import Receive, Scope, Send

from memlane.errors import ResetRequired, StoreError
from memlane.ingest.validate import check_scope, int_range
from memlane.serve import live
from memlane.serve.again import once_more_if_lost
from memlane.serve.http.auth import Principal, _resolve, caller
from memlane.serve.http.errors import ApiError, KnownQuery

__all__ = ["mount", "note_transport"]

log = logging.getLogger("memlane.serve")
T = TypeVar("T")

_BATCH = 500
_MARK_POLLS = 30
"""An id-only event after this many polls without an event (15 s at the default 0.5 s)."""


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def mount(app: FastAPI) -> None:
    @app.get("/state/memory", tags=["stream"],
             summary="Live state of a scope: a snapshot event, then JSON Patch events",
             response_class=EventSourceResponse, dependencies=[KnownQuery])
    async def state_memory(
        request: Request,
        who: Annotated[Principal, Depends(caller)],
        scope: Annotated[str, Query(min_length=1)],
        last_event_id: Annotated[str | None, Header()] = None,
        resume: Annotated[int | None, Query(alias="last_event_id", ge=0)] = None,
    ) -> EventSourceResponse:
        # Everything the client sent is checked, and the first read made, before the
        # response starts: inside the stream a bad scope (a newline, 300 characters) or a
        # negative Last-Event-ID ended an empty 200 stream, which EventSource reopens forever.
        scope = check_scope(scope)
        who.check(scope, write=False)
        store = app.state.memory.store
        if not hasattr(store, "live_read"):
            raise ApiError(501, "not_supported",
                           f"the live stream is not available on the {store.backend} store yet")
        after: int | None = resume
        if last_event_id is not None and not last_event_id.strip():
            # empty is the standard's "no last event id" (an `id:` line without a value
            # resets it), which some clients send as an empty header on their first
            # connection: it was a 422, and an EventSource stops on it (session 27)
            last_event_id = None
        if last_event_id is not None:
            # the ids this stream gives are ASCII digits: only those are one (Python's int()
            # read "1_0" as 10, "+3" and "-0" too, and a reconnect resumed from a position
            # the client never held)
            given = last_event_id.strip()
            after = int(given) if given.isascii() and given.isdigit() else -1
            if after < 0:
                raise ApiError(422, "invalid_request", "Last-Event-ID: must be a change id, "
                               f"an integer {int_range(0)}", "Last-Event-ID")
        poll_seconds = app.state.serve_config.stream_poll_seconds

        opening: list[ServerSentEvent] = []
        cursor = after
        held = after  # the last id the client holds once the opening is sent
        pending: frozenset[int] = frozenset()  # the snapshot's changes not numbered yet
        if cursor is not None:
            try:
                first = await anyio.to_thread.run_sync(_read, store, functools.partial(
                    live.poll, store, scope, cursor, _BATCH))
            except ResetRequired as e:
                opening.append(ServerSentEvent(_dumps({"reason": str(e)}), event="reset"))
                cursor = None
            else:
                opening += [_patch_event(change) for change in first.changes]
                cursor = first.cursor
                held = first.changes[-1].id if first.changes else after
        if cursor is None:
            snap = await anyio.to_thread.run_sync(
                _read, store, functools.partial(live.read_snapshot, store, scope))
            opening.append(_snapshot_event(snap))
            cursor = held = snap.head
            pending = snap.pending

        # set by sse-starlette when the server shuts down: the stream ends itself, cleanly
        # (its last chunk sent), within a poll. Cancelled instead, at SIGTERM each open
        # stream was cut mid-response (clients read a truncated body, a protocol error)
        # and the service logged "ASGI callable returned without completing response".
        shutdown = anyio.Event()

        async def events(cursor: int, pending: frozenset[int]) -> AsyncIterator[ServerSentEvent]:
            for event in opening:
                yield event
            # the last id the client holds; polls since an event. A resume with nothing
            # newer for its scope holds its own id, not the log's head: it was taken as told
            # the head, so no id-only event came while the log stood still, and each
            # reconnect re-read the other scopes' changes, or met its id pruned (session 27)
            told, quiet = held, 0
            failing = False  # the database failed the last poll
            while not (app.state.stopping.is_set() or shutdown.is_set()):
                if await request.is_disconnected():
                    return
                try:
                    got = await anyio.to_thread.run_sync(_poll_while_allowed, request, store,
                                                         scope, cursor, pending)
                    if failing:
                        log.warning("live stream of scope %r: the database answers again", scope)
                        failing = False
                except _Revoked:
                    return  # the reconnect gets its 401 (an EventSource then stops)
                except ResetRequired as e:  # the log was trimmed under us: start over
                    yield ServerSentEvent(_dumps({"reason": str(e)}), event="reset")
                    snap = await anyio.to_thread.run_sync(
                        _read, store, functools.partial(live.read_snapshot, store, scope))
                    yield _snapshot_event(snap)
                    told = cursor = snap.head
                    pending = snap.pending
                    continue
                except StoreError as e:
                    # an outage, a restart: a poll is a read at a cursor, so the stream keeps
                    # its client and reads from the same cursor at the next poll (it was cut
                    # mid-response, and an EventSource answered 503 on reconnecting stops)
                    if not failing:
                        log.warning("live stream of scope %r: the database failed (%s); "
                                    "polling again every %gs", scope, e, poll_seconds)
                    failing = True
                    with anyio.move_on_after(poll_seconds):
                        await shutdown.wait()
                    continue
                for change in got.changes:
                    yield _patch_event(change, got.resume_from)
                cursor, pending = got.cursor, got.pending
                if got.changes:
                    quiet = 0
                    if not pending:
                        told = got.changes[-1].id
                else:
                    quiet += 1
                if cursor != told and quiet >= _MARK_POLLS and not pending:
                    yield ServerSentEvent(id=str(cursor))
                    told, quiet = cursor, 0
                if not got.changes or len(got.changes) < _BATCH:
                    with anyio.move_on_after(poll_seconds):
                        await shutdown.wait()

        return _Stream(events(cursor, pending), ping=15, send_timeout=30, shutdown_event=shutdown,
                       shutdown_grace_period=_SHUTDOWN_GRACE_SECONDS)


class _Revoked(Exception):
    """The stream's key no longer reaches its scope (revoked, or the service closed)."""


def _poll_while_allowed(request: Request, store: Any, scope: str, cursor: int,
                        pending: frozenset[int] = frozenset()) -> live.Poll:
    """``live.poll``, once the stream's key is checked again (``serve.key_cache_seconds``
    as every request's): a stream was authenticated once, at its start, and a revoked
    key kept receiving its scope's changes for as long as the connection lasted. The
    poll's thread then gives its connection back while the server is full, as a REST
    route's does (session 26: a stream's polls kept theirs)."""
    try:
        _still_allowed(request, scope)
        got = _read(store, functools.partial(live.poll, store, scope, cursor, _BATCH, pending))
        # and again after the read: a key checked, then revoked, then a change written and
        # read by this poll sent that change to the revoked key (seen under load on
        # PostgreSQL, test_stream_revoked); a change read is sent only if the key still
        # holds after it was read
        _still_allowed(request, scope)
        return got
    finally:
        store.release_if_crowded()  # this thread is going idle


def _read(store: Any, call: Callable[[], T]) -> T:
    """A read of the stream (its snapshot, a poll) read once more on a new connection when
    the database's was lost in the middle of it, as the REST routes' are (``serve.again``):
    before the response starts, the loss was a 503 (and an ``EventSource`` answered 503
    stops); in a poll, a warning and a poll's wait."""
    return once_more_if_lost(store, "live stream", call, write=False)


def _still_allowed(request: Request, scope: str) -> None:
    try:
        who = _resolve(request)
    except ApiError:
        raise _Revoked from None
    if not who.allows(scope):
        raise _Revoked


_SHUTDOWN_GRACE_SECONDS = 5.0
"""How long a stream has, at shutdown, to end itself before it is cancelled (a poll in
flight on a slow database)."""


def _patch_event(change: live.Change, resume_from: int | None = 0) -> ServerSentEvent:
    """``resume_from``: the poll's (``live.Poll``); a change below it, or any while it is
    None, is sent with no id, so a reconnect resumes from the last one that had one (or
    takes a new snapshot) and is never sent a change its snapshot held."""
    safe = resume_from is not None and change.id >= resume_from
    return ServerSentEvent(_dumps({"topic": change.topic, "patch": change.patch}),
                           event="patch", id=str(change.id) if safe else None)


def _snapshot_event(snap: live.Snapshot) -> ServerSentEvent:
    """The snapshot, with its head as its id unless it holds changes the log has not
    numbered yet (a connection that may not write, ``live.Snapshot.pending``): resumed
    from its head, those would be sent again once numbered. Its id is then empty, which
    clears the last event id a client kept from an earlier connection (one from another
    server, ahead of this one's head, would skip changes its snapshot lacks): a reconnect
    sends none and takes a new snapshot."""
    return ServerSentEvent(_dumps(snap.state), event="snapshot",
                           id="" if snap.pending else str(snap.head))


_TRANSPORT = "memlane.transport"
STALLED_POLLS = 10
"""At shutdown, a stream whose unsent bytes stay in the transport's buffer for this many
polls of ``_STALL_POLL_SECONDS`` (1 s) has a client that is not reading: its connection is
aborted."""
_STALL_POLL_SECONDS = 0.1


def note_transport(scope: Scope, send: Send) -> None:
    """Put the server's transport of a live-stream request's connection in its scope
    (``scope["memlane.transport"]``), read off the ``send`` the server hands the app (uvicorn's
    request cycle's): the stream aborts it when its client stopped reading (``_Stream``),
    which the ASGI ``send`` cannot. Called by the app itself (``app.MemlaneApp``), before
    Starlette's outermost middleware wraps ``send``."""
    if scope["type"] == "http" and scope.get("path") == "/state/memory":
        transport = getattr(getattr(send, "__self__", None), "transport", None)
        if transport is not None and hasattr(transport, "abort"):
            scope[_TRANSPORT] = transport


class _Stream(EventSourceResponse):
    """The live stream's response, which at shutdown does not wait on a client that is not
    reading.

    At SIGTERM a stream ends itself within a poll (its ``shutdown`` event); one whose client
    stopped reading could not: its send waits on a full socket, and a close waits for the
    unsent buffer to flush, so uvicorn waited the whole ``serve.shutdown_seconds`` (30 s by
    default) for the connection, then logged "timeout graceful shutdown exceeded" as an
    ERROR. Now, once the service is shutting down, a connection whose unsent bytes stay
    unsent for ``STALLED_POLLS`` polls (1 s) is aborted: its send returns, the stream ends,
    and the shutdown goes on. A client that reads is never aborted: its buffer empties."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        transport = scope.get(_TRANSPORT)
        shutdown = self._shutdown_event
        if transport is None or shutdown is None:
            await super().__call__(scope, receive, send)
            return
        done = anyio.Event()

        async def abort_if_stalled() -> None:
            async with anyio.create_task_group() as either:
                async def stop_on(event: anyio.Event) -> None:
                    await event.wait()
                    either.cancel_scope.cancel()

                either.start_soon(stop_on, shutdown)
                either.start_soon(stop_on, done)
            if not shutdown.is_set():
                return  # the stream ended on its own (the client went away)
            stalled = 0
            while not transport.is_closing() or transport.get_write_buffer_size():
                if not transport.get_write_buffer_size():
                    if done.is_set():
                        return
                    stalled = 0
                else:
                    stalled += 1
                    if stalled >= STALLED_POLLS:
                        transport.abort()
                        return
                await anyio.sleep(_STALL_POLL_SECONDS)

        async with anyio.create_task_group() as group:
            group.start_soon(abort_if_stalled)
            try:
                await super().__call__(scope, receive, send)
            finally:
                done.set()
