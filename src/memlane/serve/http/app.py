"""The FastAPI application: ``create_app(memory_or_config, worker=...)``.

``app.state.memory`` is the ``Memory`` every handler uses. Handlers are plain (sync)
functions run in worker threads (the stores keep one connection per thread); the actions
and resource routes hand theirs over with ``actions.answer_in_thread``, which holds a
token of the app's read or write limiter (``serve.threads``) while it runs. Other parts
mount their routers on the app this returns (the MCP server, the inspector); they
authenticate with ``memlane.serve.http.auth.principal`` and raise
``memlane.serve.http.errors.ApiError``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memlane.config import Config, ServeConfig, load_config
from memlane.errors import ConfigError, MigrationError
from memlane.memory import Memory
from memlane.serve.http import errors, metrics, openapi
from memlane.serve.http.auth import KeyCache, RateLimiter, principal
from memlane.serve.http.errors import RETRY_AFTER, ApiError, error_body
from memlane.serve.http.proxy import ForwardedFor, proxy_networks
from memlane.serve.http.responses import JSONResponse
from memlane.serve.http.stream import note_transport

__all__ = ["BodyLimit", "HeadAsGet", "Utf8Address", "MemlaneApp", "app_from_environment", "create_app"]

log = logging.getLogger("memlane.serve")


class _TooLarge(Exception):
    pass


class LineBreakInPath:
    """A path parameter that takes any text (``DELETE /v1/scopes/{scope}``, ``GET
    /v1/graph/{entity}``) holding a line break is a 400 naming the parameter, as a NUL or
    another control character there is: Starlette's ``{name:path}`` is ``.*``, which stops
    at a line break, so ``DELETE /v1/scopes/a%0Ab`` matched no route and answered "Not
    Found" naming no field (as if the scope did not exist). The key is checked first (401
    before 400, as everywhere)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if "\n" in path:
            from memlane.serve.http.rest import TEXT_ROUTES

            method = "GET" if scope.get("method") == "HEAD" else scope.get("method")
            for verb, regex in TEXT_ROUTES:
                found = regex.match(path) if verb == method else None
                if found is None:
                    continue
                name, value = next((k, v) for k, v in found.groupdict().items() if "\n" in v)
                try:
                    await run_in_threadpool(principal, Request(scope))
                    raise ApiError(400, "invalid", f"{name}: must be one line without control "
                                   f"characters (found '\\n' at character {value.index(chr(10))})",
                                   name)
                except ApiError as e:
                    await e.response()(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class Utf8Address:
    """A path or query string whose percent-escapes are not UTF-8 text (``%FF``, a lone
    surrogate ``%ED%A0%80``) is a 400 naming the parameter (``path`` for the path). Starlette
    decodes them with replacement characters: ``DELETE /v1/scopes/%FF`` erased the scope
    named ``\ufffd``, ``GET /state/memory?scope=%FF`` streamed it and ``?subject=%FF`` listed
    its facts, none of them what the client named. The key is checked first (401 before
    400, as everywhere)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            bad = _not_utf8(scope)
            if bad is not None:
                try:
                    await run_in_threadpool(principal, Request(scope))
                    raise ApiError(400, "invalid", f"{bad[0]}: not UTF-8 text once its "
                                   f"%-escapes are decoded ({bad[1]})", bad[0])
                except ApiError as e:
                    await e.response()(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def _not_utf8(scope: Scope) -> tuple[str, str] | None:
    """``(where, what)`` of the first part of the address that is not UTF-8, or None:
    ``where`` is the path parameter (``scope``, ``entity``), the query parameter, or
    ``path`` / ``query`` when no name can be read."""
    from urllib.parse import unquote_to_bytes

    from memlane.serve.http.rest import TEXT_ROUTES

    raw_path = scope.get("raw_path") or scope.get("path", "").encode()
    parts: list[tuple[str, bytes]] = []
    if b"%" in raw_path or not raw_path.isascii():
        text = raw_path.decode("latin-1")
        method = "GET" if scope.get("method") == "HEAD" else scope.get("method")
        for verb, regex in TEXT_ROUTES:
            found = regex.match(text) if verb == method else None
            if found is not None:
                parts += [(k, v.encode("latin-1")) for k, v in found.groupdict().items()]
        parts.append(("path", raw_path))
    for pair in (scope.get("query_string") or b"").split(b"&"):
        if b"%" not in pair and pair.isascii():
            continue
        name, _, value = pair.partition(b"=")
        try:
            label = unquote_to_bytes(name.replace(b"+", b" ")).decode("utf-8")
        except UnicodeDecodeError:
            label = "query"
        parts += [(label, name), (label, value)]
    for where, raw in parts:
        data = unquote_to_bytes(raw)  # '+' is a space in a query: ASCII either way
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            return where, f"byte 0x{data[e.start]:02x} at byte {e.start}"
    return None


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, by Content-Length (``field``
    ``Content-Length``) or as read (``field`` ``body``: a chunked body, or one longer than
    it declared)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(send, f"Content-Length is {int(value)}", "Content-Length")
                return
        seen = 0
        over = False
        refused = False

        async def limited_receive() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    over = True
                    raise _TooLarge
            return message

        async def guarded_send(message: Message) -> None:
            # Whatever the app answers after the body went over the cap (FastAPI turns the
            # exception into a 400), the client gets the 413 instead.
            nonlocal refused
            if over:
                if not refused:
                    refused = True
                    await self._refuse(send, f"{seen} bytes were sent", "body")
                return
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except _TooLarge:
            if not refused:
                refused = True
                await self._refuse(send, f"{seen} bytes were sent", "body")

    async def _refuse(self, send: Send, why: str, field: str) -> None:
        response = JSONResponse(
            error_body("too_large", f"{field}: request body over {self.limit} bytes "
                       f"(serve.max_body_bytes; {why}); send smaller batches", field),
            status_code=413)
        await response({"type": "http"}, _no_receive, send)


class HeadAsGet:
    """HEAD of a GET route is that GET, answered without its body (RFC 9110: a
    general-purpose server must support HEAD; uvicorn sends no body to a HEAD request).
    FastAPI routes take only the methods they name: HEAD of /v1/stats, /metrics or an
    inspector page was a 405, where monitors and link checkers probe with it. The live
    stream and the MCP endpoint keep their 405: a stream has no end to stop at."""

    SKIP = ("/state/memory", "/mcp")

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] == "http" and scope.get("method") == "HEAD"
                and not scope.get("path", "").startswith(self.SKIP)):
            scope = {**scope, "method": "GET"}
        await self.app(scope, receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


def _memory_of(source: Memory | Config | str | Path | None) -> tuple[Memory, bool]:
    """The Memory to serve and whether the app owns (and so closes) it."""
    if isinstance(source, Memory):
        return source, False
    if isinstance(source, Config):
        return Memory(config=source), True
    config = load_config(overrides={"db": str(source)} if source is not None else None)
    return Memory(config=config), True


THREADS_BY_STORE = {"sqlite": 2, "postgres": 40}
"""Requests a process runs at once (reads and writes each) when ``serve.threads`` is 0.

A SQLite request is CPU work under one interpreter lock: eight threads contending for it
burned twice the CPU a search of two did (measured: one process, 8 clients, 108-116
searches/s with 40 threads, 153-234 with 2 or 1). A PostgreSQL request mostly waits on
the server, and more threads overlap that (2 threads: 169 searches/s, 40: 205).
"""


HELD_CONNECTIONS = 1
"""PostgreSQL connections a ``serve`` process holds for its life: the one of the thread
that opened its ``Memory`` and runs its event loop (start-up checks, the worker's start)."""

WORKER_CONNECTIONS = 2
"""Those of its index worker while it runs: the worker's thread and the indexer's prefetch
thread (``memlane.index.indexer``), each with its own."""


def split_connections(total: int, *, worker: bool) -> tuple[int, int]:
    """``total`` PostgreSQL connections of one ``serve`` process (``serve.db_connections``)
    as ``(request threads, search helper threads)``: first what the process holds of its own
    (``HELD_CONNECTIONS``, and ``WORKER_CONNECTIONS`` when its index worker runs), then a
    quarter of the rest (at most ``SEARCH_THREADS``) for the helpers of searches over every
    scope, the rest for requests (every route together). ``ConfigError`` naming the key when
    nothing is left for requests."""
    from memlane.store.postgres.search import SEARCH_THREADS  # psycopg: PostgreSQL only

    held = HELD_CONNECTIONS + (WORKER_CONNECTIONS if worker else 0)
    left = total - held
    if left < 1:
        raise ConfigError(
            f"memory.serve.db_connections: {total} leaves no connection for requests: a serve "
            f"process holds {held} of its own ({HELD_CONNECTIONS} for start-up"
            + (f", {WORKER_CONNECTIONS} for its index worker" if worker else "")
            + f"); set at least {held + 1}, or 0 to derive it from the server's max_connections")
    helpers = min(SEARCH_THREADS, left // 4)
    return left - helpers, helpers


DERIVED_MOST = 16
"""The most connections ``serve.db_connections`` = 0 gives a process. Measured (session 26,
``tools/conn_budget.py --bench``, 64 clients, a server of 200 connections on the same 2
cores): 16 (12 request threads) answered 240-246 requests/s, 32 213-233, 8 216-223, no cap
(a peak of 62-65 connections) 203-211: past a dozen threads one interpreter only contends."""


def derived_connections(slots: int, *, processes: int, worker: bool) -> int:
    """``serve.db_connections`` = 0 on PostgreSQL: half of the connections the server lets
    this role open (``slots``, read at start), shared by the ``processes`` of this service
    (``serve.workers``), the other half left to everything else (``memlane worker``, the
    CLI, another service); at most ``DERIVED_MOST``, never fewer than one request thread
    needs."""
    held = HELD_CONNECTIONS + (WORKER_CONNECTIONS if worker else 0)
    return max(held + 1, min(DERIVED_MOST, slots // (2 * max(processes, 1))))


def create_app(
    memory: Memory | Config | str | Path | None = None,
    *,
    worker: bool = False,
    serve_config: ServeConfig | None = None,
    freeze_gc: bool = False,
) -> FastAPI:
    """The memlane HTTP service over ``memory``: a ``Memory`` (the caller keeps owning it),
    a ``Config`` or a database path/URL (the app opens the Memory and closes it on shutdown).

    ``worker`` runs the index worker in a background thread while the app is up.
    ``serve_config`` defaults to the memory's ``[memory.serve]``.
    ``freeze_gc`` (``memlane serve``, whose process is the service's own) moves what exists
    at start-up (modules, config, the loaded store) out of the garbage collector's reach
    while the app runs: a full collection then visits only what requests allocate, where it
    visited ~56k start-up objects for 40-75 ms (docs/scaling.md, PostgreSQL at 10k).
    """
    mem, owned = _memory_of(memory)
    cfg = serve_config or mem.config.serve

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        threads = cfg.threads or THREADS_BY_STORE.get(mem.store.backend, 40)
        requests = cfg.db_connections
        if mem.store.backend == "postgres":
            # the process's whole budget: what it holds of its own, the search helpers'
            # and the request threads' (docs/scaling.md, "Session 26")
            total = cfg.db_connections or derived_connections(
                mem.store.connection_slots(), processes=cfg.workers,  # type: ignore[attr-defined]
                worker=worker)
            requests, helpers = split_connections(total, worker=worker)
            mem.store.search_threads = helpers  # type: ignore[attr-defined]
            log.info("up to %d PostgreSQL connections (serve.db_connections%s): %d for "
                     "requests, %d for searches over every scope, %d held%s", total,
                     "" if cfg.db_connections else " = 0: derived from the server's",
                     requests, helpers, HELD_CONNECTIONS,
                     f", {WORKER_CONNECTIONS} for the index worker" if worker else "")
        if requests:
            # every thread of the loop's pool counts: anyio's default limiter (the routes
            # that are plain functions, stream polls, MCP tools, the inspector) is the cap,
            # and an action holds a token of it as well as of its read or write limiter
            threads = min(threads, requests)
            app.state.connections = anyio.to_thread.current_default_thread_limiter()
            app.state.connections.total_tokens = requests
        app.state.limiters = (anyio.CapacityLimiter(threads), anyio.CapacityLimiter(threads))
        if worker:
            mem.start_worker(poll_seconds=cfg.worker_poll_seconds)
        if freeze_gc:
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            if freeze_gc:
                gc.unfreeze()
            app.state.stopping.set()
            if mem._worker is not None:
                mem._worker.stop()
            if owned:
                mem.close()

    app = MemlaneApp(
        title="memlane",
        summary="Long-term memory for LLM agents: actions, REST resources, a live stream.",
        version=_version(),
        lifespan=lifespan,
    )
    app.state.memory = mem
    app.state.serve_config = cfg
    app.state.limiter = RateLimiter(cfg.rate_limit, cfg.rate_burst)
    app.state.failed_auth = RateLimiter(cfg.failed_auth_limit, cfg.failed_auth_burst,
                                        cfg.failed_auth_addresses)
    app.state.keys = KeyCache(cfg.key_cache_seconds)
    app.state.stopping = threading.Event()
    app.state.connections = None
    app.state.touched = {}
    app.state.touch_lock = threading.Lock()
    errors.install(app)
    _health(app)
    _mount_routes(app)
    openapi.install(app)
    app.add_middleware(BodyLimit, limit=cfg.max_body_bytes)
    app.add_middleware(LineBreakInPath)
    app.add_middleware(Utf8Address)
    app.add_middleware(HeadAsGet)
    if cfg.trusted_proxies:  # before anything reads the client's address (the key's check)
        app.add_middleware(ForwardedFor, networks=proxy_networks(cfg.trusted_proxies))
    metrics.mount(app)  # outermost: it sees every answer, a 413 included
    return app


STOPPED = ("memlane serve stopped before this request was answered (it waited "
           "serve.shutdown_seconds for the requests in flight): a read can be sent again; a "
           "write may have been stored, or may still be: check before sending it again (a "
           "message sent with its id is stored once)")
"""The answer of a request still running when the shutdown's wait ran out (session 26)."""


class MemlaneApp(FastAPI):
    """FastAPI, which notes a live-stream request's transport first (``stream._Stream``
    aborts a stalled client's connection at shutdown): inside, Starlette's outermost
    middleware has already wrapped the server's ``send``.

    A request still running when ``serve.shutdown_seconds`` runs out at a stop is cancelled
    by uvicorn: it logged "Exception in ASGI application" with the ``CancelledError``'s
    traceback and answered a plain-text 500, while the call's thread went on and often
    stored what it was sent. Not yet answered, it is answered 503 ``STOPPED`` (its thread
    still ends its transaction, whole or not at all) (session 26)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        note_transport(scope, send)
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await super().__call__(scope, receive, sending)
        except asyncio.CancelledError:
            if started:
                raise
            log.warning("%s %s: still running when the shutdown's wait ran out; answered 503",
                        scope.get("method"), scope.get("path"))
            await JSONResponse(error_body("unavailable", STOPPED), status_code=503, headers={
                "Retry-After": str(RETRY_AFTER), "Connection": "close"})(scope, receive, send)


def _version() -> str:
    from memlane import __version__

    return __version__


_PROBE_AGAIN = {"Retry-After": str(RETRY_AFTER)}
"""A not-ready answer says when to ask again, as the service's other 503s do (session 25)."""


def _health(app: FastAPI) -> None:
    @app.get("/healthz", tags=["health"], summary="The process is up")
    def healthz() -> dict[str, Any]:
        return {"ok": True}

    @app.get("/readyz", tags=["health"], summary="The database answers and is migrated",
             responses={503: {"description": "database unreachable, migrations pending, or its "
                                              "schema newer than this memlane's"}})
    def readyz() -> JSONResponse:
        store = app.state.memory.store
        try:
            pending = store.pending_migrations()
            if not pending:  # newer than this memlane's: another process migrated it
                store.check_schema()
        except MigrationError as e:
            return JSONResponse(error_body("unavailable", str(e)), status_code=503, headers=_PROBE_AGAIN)
        except Exception as e:  # a probe: any failure means not ready, said in the body
            return JSONResponse(error_body("unavailable", f"database unreachable: {e}"),
                                status_code=503, headers=_PROBE_AGAIN)
        if pending:
            return JSONResponse(error_body("unavailable", f"migrations pending: {pending}; "
                                           "run memlane migrate"), status_code=503, headers=_PROBE_AGAIN)
        return JSONResponse({"ok": True, "backend": store.backend})

    # HEAD too: uptime monitors and some load balancers probe with it (it was a 405)
    app.add_api_route("/healthz", healthz, methods=["HEAD"], include_in_schema=False)
    app.add_api_route("/readyz", readyz, methods=["HEAD"], include_in_schema=False)


def _mount_routes(app: FastAPI) -> None:
    """The routes of this package's other modules."""
    from memlane.serve.http import actions, rest, stream
    from memlane.serve.http.inspector import pages

    actions.mount(app)
    rest.mount(app)
    stream.mount(app)
    pages.mount(app)

    from memlane.serve import mcp_http

    mcp_http.mount(app)  # the MCP server at /mcp, behind the same keys


def app_from_environment() -> FastAPI:
    """The app ``memlane serve --workers N`` starts in each process (uvicorn factory):
    config from ``$MEMLANE_CONFIG`` / ``memlane.toml`` and ``MEMLANE_*`` variables.

    A process that cannot open the database (a wrong password, the server down or full, a
    file it cannot read) says so in one line, as one ``memlane serve`` process does, and
    ends with uvicorn's start-up failure status, on which the supervisor stops the service
    (``memlane serve`` then exits non-zero saying so). It printed the error's three chained
    tracebacks and ended with status 1, and the supervisor started another such process,
    again and again (session 26)."""
    import os

    from uvicorn.config import STARTUP_FAILURE

    from memlane.errors import MemlaneError
    from memlane.serve.output import echo

    try:
        config = load_config()
        return create_app(config, worker=config.serve.index_worker, freeze_gc=True)
    except MemlaneError as e:
        echo(f"Error: worker process {os.getpid()} cannot start: {e}", err=True)
        raise SystemExit(STARTUP_FAILURE) from None
