"""The MCP server inside ``memlane serve``: streamable HTTP at ``/mcp``, behind the API keys.

Every HTTP request to ``/mcp`` is authenticated like any other route (``principal``: 401
without a valid key, 429 over the key's rate) before the MCP SDK sees it; the key's
``Principal`` rides in the request's state, and each tool call checks its scope against
that request's own key, not the key that opened the MCP session.

The endpoint keeps no session (the SDK's stateless mode, as the 2026-07-28 protocol is
for every client): each request stands alone. A 2025-protocol client's session lived in
the memory of the process that answered its ``initialize``, so under ``memlane serve
--workers N`` a request the kernel handed to another process was answered "Session not
found" (404). memlane's server sends nothing unasked (no notifications, subscriptions or
sampling), so a session held nothing a request needs.

Order over HTTP: requests a client has in flight at once have none (each is its own HTTP
request, on its own connection, possibly in another process; the 2026 protocol has no
session to order them in). A request sent after another's answer sees its effect: a tool
answers once its write is committed. A client that needs order waits for the answer, as
with any HTTP API; over stdio the relay (``mcp_stdio``) orders what is piped in.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from memlane.serve.http.auth import Principal, caller
from memlane.serve.http.errors import ApiError
from memlane.serve.mcp import build_server
from memlane.serve.mcp_wire import refusal

__all__ = ["PATH", "mount"]

PATH = "/mcp"
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _principal_of(request: Any) -> Principal | None:
    return getattr(request.state, "principal", None)


class _Authenticated:
    """The MCP transport, reached only with a valid key (the routes' own ``principal``)."""

    def __init__(self, server: Any) -> None:
        self.server = server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        try:
            # the key lookup reads the database: off the event loop, like every handler
            await run_in_threadpool(caller, request)
        except ApiError as e:
            await e.response()(scope, receive, send)
            return
        if scope.get("method") == "GET":
            # no stream to offer: memlane sends nothing unasked, and without a session a
            # GET opened an event stream that stayed open, empty, for as long as the
            # client kept it (the protocol's answer for no stream is 405)
            await JSONResponse({"jsonrpc": "2.0", "id": None, "error": {
                "code": -32600, "message": "Method Not Allowed: this server offers no "
                "event stream; send requests with POST"}}, status_code=405,
                headers={"Allow": "POST"})(scope, receive, send)
            return
        if scope.get("method") == "POST":
            body = await request.body()  # within serve.max_body_bytes (the app's BodyLimit)
            refused = refusal(body)
            if refused is not None:  # not a message the SDK should see: answered here
                await JSONResponse(refused.model_dump(mode="json", by_alias=True,
                                                   exclude_unset=True),
                                   status_code=400)(scope, receive, send)
                return
            receive = _replay(body, receive)
        await self.server.session_manager.handle_request(scope, receive, send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` giving ``body`` again first (read once above, for ``refusal``), then
    what the client sends next (its disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def mount(app: FastAPI) -> None:
    """Serve memlane's MCP server at ``/mcp`` on ``app`` (``create_app`` calls this)."""
    from mcp.server.transport_security import TransportSecuritySettings

    server = build_server(app.state.memory, access_of_request=_principal_of)
    host = app.state.serve_config.host
    if host in _LOOPBACK:  # a loopback service: refuse other Host headers (DNS rebinding)
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"])
    else:  # reachable from elsewhere only with API keys, checked above
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    server.streamable_http_app(streamable_http_path=PATH, transport_security=security,
                               stateless_http=True)
    app.router.routes.append(Route(PATH, endpoint=_Authenticated(server),
                                   methods=["GET", "POST", "DELETE"]))
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with server.session_manager.run(), inner(a) as state:
            yield state

    app.router.lifespan_context = lifespan
