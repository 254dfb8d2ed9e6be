"""A real chat-completions server on loopback with scripted replies, for tests and demos.

Test code that talks to an LLM against a real HTTP server instead of mocks::

    from memlane.backends.llm.openai import OpenAIChat
    from memlane.testing.llm_server import ChatServer

    with ChatServer() as srv, OpenAIChat(srv.base_url, "test-model", backoff_base=0) as llm:
        srv.script("Hello!")                     # the next answer
        srv.script_json({"topic": "billing"})    # the one after (serialised JSON)
        srv.fail(503, times=2)                   # the next two requests get HTTP 503
        srv.delay(2.0)                           # the next request waits 2 s (client timeouts)
        llm.complete([{"role": "user", "content": "hi"}])
        srv.requests[-1].body["messages"]        # what the client really sent
        srv.chat_requests[-1].at                 # when (time.monotonic())

``ChatServer`` extends :class:`memlane.testing.openai_server.OpenAICompatServer`, so
``/v1/embeddings`` is served too and ``fail_next``/``route`` work as there.

Order of events for one request: it is recorded in ``requests`` (every request, failed
ones included); a scripted failure (:meth:`fail`) answers it at once; otherwise a
scripted delay (:meth:`delay`) is waited out; then the oldest scripted reply is handed
out, or the ``reply`` function answers when none is left. Replies are taken *after* the
delay, so when a client times out and retries, the retry (arriving while the first
request still sleeps) gets the scripted reply.
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memlane.testing.openai_server import OpenAICompatServer, RecordedRequest, Reply

__all__ = ["ChatRequest", "ChatServer", "echo_reply"]

CHAT_PATH = "/v1/chat/completions"
_DISCONNECTS = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


@dataclass
class ChatRequest(RecordedRequest):
    """A recorded request plus ``at``, its arrival time on ``time.monotonic()``."""

    at: float = 0.0

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages of the request body (empty if there were none)."""
        body = self.body if isinstance(self.body, dict) else {}
        msgs = body.get("messages")
        return msgs if isinstance(msgs, list) else []


def echo_reply(body: dict[str, Any]) -> str:
    """The default reply: ``"echo: "`` plus the text of the last user message."""
    for m in reversed(body.get("messages") or []):
        if isinstance(m, dict) and m.get("role") == "user":
            content = m.get("content")
            return f"echo: {content if isinstance(content, str) else json.dumps(content)}"
    return "echo:"


def _error(status: int, message: str) -> Reply:
    return status, {"error": {"message": message, "type": "invalid_request_error", "code": status}}


class ChatServer(OpenAICompatServer):
    """A loopback HTTP server answering ``POST /v1/chat/completions`` from a script.

    Args:
        reply: answers requests when no scripted reply is left; it gets the parsed
            request body and returns the assistant's text. Default: :func:`echo_reply`.
        api_key: if set, requests without ``Authorization: Bearer <api_key>`` get 401.
        json_mode_supported: when False, requests that carry ``response_format`` get
            HTTP 400 "response_format is not supported", like some local servers.
        model: model name echoed when a request names none.

    ``base_url`` (``http://127.0.0.1:<port>/v1``) is valid once started; use it as a
    context manager, or call :meth:`start` and :meth:`stop`. Scripting methods are
    thread-safe and may be called while the server runs.
    """

    def __init__(
        self,
        reply: Callable[[dict[str, Any]], str] | None = None,
        *,
        api_key: str | None = None,
        json_mode_supported: bool = True,
        model: str = "test-model",
        host: str = "127.0.0.1",
    ) -> None:
        super().__init__(api_key=api_key, model=model, host=host)
        self.reply: Callable[[dict[str, Any]], str] = reply or echo_reply
        self.json_mode_supported = json_mode_supported
        self._replies: deque[str] = deque()
        self._delays: deque[list[float]] = deque()  # [seconds, times left]
        self._ids = itertools.count(1)
        self._stopping = threading.Event()
        self.route("POST", CHAT_PATH, _chat_route)

    # -- scripting -------------------------------------------------------------------
    def script(self, *replies: str) -> ChatServer:
        """Queue assistant replies, answered in order (one per successful request)."""
        with self._lock:
            self._replies.extend(replies)
        return self

    def script_json(self, *objs: Any) -> ChatServer:
        """Queue replies that are ``json.dumps(obj)`` of each object."""
        return self.script(*(json.dumps(o) for o in objs))

    def fail(
        self,
        status: int,
        times: int = 1,
        *,
        headers: dict[str, str] | None = None,
        message: str | None = None,
    ) -> ChatServer:
        """Answer the next ``times`` requests with HTTP ``status`` (an OpenAI-style error
        body; ``headers`` such as ``{"Retry-After": "0"}`` are sent along)."""
        body = {"error": {"message": message or f"scripted failure {status}", "code": status}}
        self.fail_next(status=status, times=times, body=body, headers=headers)
        return self

    def delay(self, seconds: float, times: int = 1) -> ChatServer:
        """Hold the next ``times`` chat answers for ``seconds`` (to provoke client
        timeouts). Delays end early when the server stops."""
        if seconds < 0 or times < 1:
            raise ValueError("seconds must be >= 0 and times >= 1")
        with self._lock:
            self._delays.append([float(seconds), times])
        return self

    @property
    def chat_requests(self) -> list[ChatRequest]:
        """The requests made to ``/v1/chat/completions``, in arrival order."""
        with self._lock:
            return [r for r in self.requests if isinstance(r, ChatRequest) and r.path == CHAT_PATH]

    @property
    def pending(self) -> int:
        """Scripted replies not handed out yet."""
        with self._lock:
            return len(self._replies)

    # -- serving ---------------------------------------------------------------------
    def dispatch(self, req: RecordedRequest) -> Reply:
        """Stamp the request with its arrival time, then record and answer it."""
        timed = ChatRequest(
            method=req.method, path=req.path, headers=req.headers, body=req.body, raw=req.raw,
            at=time.monotonic(),
        )
        return super().dispatch(timed)

    def _next_delay(self) -> float:
        with self._lock:
            if not self._delays:
                return 0.0
            entry = self._delays[0]
            entry[1] -= 1
            if entry[1] <= 0:
                self._delays.popleft()
            return entry[0]

    def _next_reply(self, body: dict[str, Any]) -> str:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
        return self.reply(body)

    def start(self) -> ChatServer:
        """Bind a free loopback port and serve in a daemon thread."""
        self._stopping.clear()
        super().start()
        httpd = self._httpd
        if httpd is not None and not getattr(httpd, "_quiet_disconnects", False):
            report = httpd.handle_error

            def handle_error(request: Any, client_address: Any) -> None:
                # A client that timed out during a scripted delay has hung up: expected.
                if isinstance(sys.exc_info()[1], _DISCONNECTS):
                    return
                report(request, client_address)

            httpd.handle_error = handle_error  # type: ignore[method-assign]
            httpd._quiet_disconnects = True  # type: ignore[attr-defined]
        return self

    def stop(self) -> None:
        """Cut short any scripted delay, shut the server down and free the port."""
        self._stopping.set()
        super().stop()


def _chat_route(server: OpenAICompatServer, req: RecordedRequest) -> Reply:
    assert isinstance(server, ChatServer)
    body = req.body
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        return _error(400, "body must be a JSON object with 'model' and a 'messages' list")
    if not body["messages"]:
        return _error(400, "'messages' must not be empty")
    if "response_format" in body and not server.json_mode_supported:
        return _error(400, "response_format is not supported by this server")
    wait = server._next_delay()
    if wait > 0:
        server._stopping.wait(wait)
    text = server._next_reply(body)
    prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in body["messages"]
                        if isinstance(m, dict))
    completion_tokens = len(text.split())
    return 200, {
        "id": f"chatcmpl-{next(server._ids)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model") or server.model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": text},
            "finish_reason": "stop",
        }],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }
