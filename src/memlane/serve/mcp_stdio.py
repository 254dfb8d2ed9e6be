"""The MCP server over standard input and output, one client, its requests applied in the
order it sent them.

The SDK runs every request it reads as a task of its own, and a tool's body in a worker
thread: eight ``remember`` calls and a ``recall`` piped in one after another ran side by
side, and the recall often answered before the notes were stored ("2 hit(s)" of 8). This
relay stands between the transport and the SDK and lets a request through only when what
was sent before it is done where order matters:

- a *reading* request (``recall``, ``context``, ``facts``, ``fact_history``, ``sessions``,
  ``session``, reading a resource, listing tools, resources or prompts, getting a prompt)
  starts once every writing request sent before it has been answered; reads sent side by
  side still run side by side;
- any other request (``remember``, ``forget``, ``summarize``, ``initialize``, a tool or
  method memlane does not know) starts once every request sent before it has been
  answered;
- ``ping`` is answered at once, and a ``notifications/cancelled`` acts at once: a request
  cancelled before it started is dropped (never run, never answered), as the protocol asks;
  one already running is the SDK's to cancel, and no later request waits for it any more.

At end of input every request read is answered (or cancelled), then the server stops: the
SDK's own loop stopped at end of input and dropped the answers still being worked on
(``printf '…' | memlane mcp`` got the first few).
"""

from __future__ import annotations

from collections import deque
from typing import Any

__all__ = ["READING_TOOLS", "serve_stdio"]

READING_TOOLS = frozenset({"recall", "context", "facts", "fact_history", "sessions", "session"})
"""Tools that change nothing a later call reads (``context`` journals its pack, which no
tool reads back)."""

_READING_METHODS = frozenset({
    "resources/read", "resources/list", "resources/templates/list", "tools/list",
    "prompts/list", "prompts/get", "completion/complete"})

QUEUE_MOST = 1000
"""Requests read ahead of the ones running; past it the relay stops reading standard input
until some are let through (the client's writes then wait, as on a full pipe)."""


class _Lines:
    """Standard input's lines for the SDK's reader, each also put in ``lines`` (the reader
    makes one item of each line, so ``serve_stdio`` pairs them). Bytes that are not UTF-8
    are kept as surrogate escapes, for ``refusal`` to refuse (the SDK's reader replaced
    them with U+FFFD and stored that in the text)."""

    def __init__(self, lines: deque[str]) -> None:
        import io
        import sys

        import anyio

        self.lines = lines
        self.file = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8",
                                                     errors="surrogateescape"))

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        line = await self.file.readline()
        if not line:
            raise StopAsyncIteration
        self.lines.append(line)
        return line


def _kind(message: Any) -> str:
    """``ping``, ``read`` or ``write`` for a request."""
    method = message.method
    if method == "ping":
        return "ping"
    if method in _READING_METHODS:
        return "read"
    if method == "tools/call" and isinstance(message.params, dict) \
            and message.params.get("name") in READING_TOOLS:
        return "read"
    return "write"


async def serve_stdio(server: Any, read_stream: Any = None, write_stream: Any = None,
                      lines: deque[str] | None = None) -> None:
    """Serve ``server`` (an ``MCPServer``) over standard input and output (or the given SDK
    streams), in the order described in this module's docstring. ``lines`` holds each line
    the stream's items were read from, in order: a line that is no message memlane takes
    is answered there (``mcp_wire.refusal``), never passed on."""
    import anyio
    import mcp_types as types
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    from memlane.serve.mcp_wire import refusal

    if read_stream is None or write_stream is None:
        lines: deque[str] = deque()
        async with stdio_server(stdin=_Lines(lines)) as (read_stream, write_stream):
            await serve_stdio(server, read_stream, write_stream, lines)
        return

    low = server._lowlevel_server
    queue: deque[tuple[Any, str | None, Any]] = deque()  # (item, kind or None, request id)
    running: dict[Any, str] = {}  # request id -> kind, let through and not yet answered
    state = {"read_all": False}
    changed = anyio.Event()

    def wake() -> None:
        nonlocal changed
        changed.set()
        changed = anyio.Event()

    def may_start(kind: str | None) -> bool:
        if kind is None:  # a notification, a reply or a malformed line: in its place
            return True
        if kind == "read":
            return "write" not in running.values()
        return not running

    inner_send, inner_read = anyio.create_memory_object_stream[Any](0)
    out_send, out_read = anyio.create_memory_object_stream[Any](0)

    async def read_in() -> None:
        async for item in read_stream:
            line = lines.popleft() if lines else None
            if line is not None and not line.strip():
                continue  # a blank line between messages: no message, no answer
            refused = refusal(line) if line is not None else None
            if refused is not None:
                await write_stream.send(SessionMessage(refused))
                continue
            message = getattr(item, "message", None)
            if isinstance(message, types.JSONRPCNotification) \
                    and message.method == "notifications/cancelled":
                rid = (message.params or {}).get("requestId")
                queued = [q for q in queue if q[1] is not None and q[2] == rid]
                for q in queued:  # never started: dropped, and not answered
                    queue.remove(q)
                if not queued:
                    running.pop(rid, None)
                    await inner_send.send(item)
                wake()
                continue
            if isinstance(message, types.JSONRPCRequest):
                kind = _kind(message)
                if kind == "ping":
                    await inner_send.send(item)
                    continue
                queue.append((item, kind, message.id))
            else:
                queue.append((item, None, None))
            wake()
            while len(queue) >= QUEUE_MOST:
                await changed.wait()
        state["read_all"] = True
        wake()

    async def let_through() -> None:
        async with inner_send:
            while True:
                while queue and may_start(queue[0][1]):
                    item, kind, rid = queue.popleft()
                    if kind is not None:
                        running[rid] = kind
                    wake()
                    await inner_send.send(item)
                if state["read_all"] and not queue and not running:
                    return  # end of input, every request answered: the server may stop
                await changed.wait()

    async def forward_out() -> None:
        async with out_read:
            async for item in out_read:
                await write_stream.send(item)
                message = getattr(item, "message", None)
                if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
                    running.pop(message.id, None)
                    wake()

    async with anyio.create_task_group() as tg:
        tg.start_soon(read_in)
        tg.start_soon(let_through)
        tg.start_soon(forward_out)
        async with out_send:
            await low.run(inner_read, out_send, low.create_initialization_options())
        # every request answered (the input ended only once none was pending): the server
        # keeps a copy of its output stream open, so the relay is stopped here
        tg.cancel_scope.cancel()
    await write_stream.aclose()
