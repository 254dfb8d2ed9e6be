"""A real OpenAI-compatible HTTP server on loopback, for tests and demos.

    with OpenAICompatServer(api_key="sk-test") as srv:
        emb = OpenAIEmbedder(srv.base_url, "hash-embed", api_key="sk-test")
        srv.fail_next(status=500, times=2)     # the next two requests get HTTP 500
        srv.fail_when("Kyoto", status=500)     # every request whose body says Kyoto: 500
        emb.embed_batch(["hello"])             # retried, then answered
        srv.requests[-1].headers["authorization"]

Routes live in ``server.routes``, a dict ``(method, path) -> handler``; a handler takes
``(server, request)`` and returns ``(status, json_body)`` or ``(status, json_body,
extra_headers)``. ``/v1/embeddings`` is built in (vectors from ``HashingEmbedder``); add
e.g. ``/v1/chat/completions`` with ``server.route("POST", "/v1/chat/completions", fn)``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

from memlane.backends.embed.hashing import HashingEmbedder

__all__ = ["OpenAICompatServer", "RecordedRequest", "Reply"]

Reply = tuple[int, Any] | tuple[int, Any, dict[str, str]]
Handler = Callable[["OpenAICompatServer", "RecordedRequest"], Reply]


@dataclass
class RecordedRequest:
    """One request the server received (headers with lower-cased names)."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or None if the body was empty or not JSON
    raw: bytes = b""


@dataclass
class _Failure:
    status: int
    times: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


def _error(status: int, message: str, kind: str = "invalid_request_error") -> Reply:
    return status, {"error": {"message": message, "type": kind, "code": status}}


def embeddings_route(server: OpenAICompatServer, req: RecordedRequest) -> Reply:
    """``POST /v1/embeddings``: OpenAI's request/response shape, hashing vectors."""
    body = req.body
    if not isinstance(body, dict) or "input" not in body:
        return _error(400, "body must be a JSON object with 'input' and 'model'")
    inputs = body["input"]
    if isinstance(inputs, str):
        inputs = [inputs]
    if not isinstance(inputs, list) or not all(isinstance(t, str) for t in inputs):
        return _error(400, "'input' must be a string or a list of strings")
    if any(not t for t in inputs):
        return _error(400, "'input' must not contain empty strings")
    vecs = server.embedder.embed_batch(inputs)
    data = [
        {"object": "embedding", "index": i, "embedding": [float(x) for x in vecs[i]]}
        for i in range(len(inputs))
    ]
    if server.shuffle:
        data.reverse()
    tokens = sum(len(t.split()) for t in inputs)
    return 200, {
        "object": "list",
        "data": data,
        "model": body.get("model", server.model),
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


class _RequestHandler(BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        req = RecordedRequest(
            method=self.command,
            path=self.path.split("?", 1)[0],
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
            raw=raw,
        )
        reply = self.server.owner.dispatch(req)
        status, payload = reply[0], reply[1]
        extra = reply[2] if len(reply) > 2 else {}  # type: ignore[misc]
        data = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in extra.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    do_GET = _handle
    do_POST = _handle
    do_PUT = _handle
    do_DELETE = _handle


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    owner: OpenAICompatServer


class OpenAICompatServer:
    """A loopback HTTP server speaking the OpenAI API, scriptable to fail.

    Args:
        api_key: if set, requests without ``Authorization: Bearer <api_key>`` get 401.
        dim: width of the hashing vectors served by ``/v1/embeddings``.
        model: model name echoed when a request names none.
        shuffle: return ``data`` in reverse order (clients must sort by ``index``).

    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    """

    def __init__(
        self,
        api_key: str | None = None,
        dim: int = 64,
        model: str = "hash-embed",
        shuffle: bool = False,
        host: str = "127.0.0.1",
    ) -> None:
        self.api_key = api_key
        self.model = model
        self.shuffle = shuffle
        self.host = host
        self.embedder = HashingEmbedder(dim=dim, seed=7)
        self.requests: list[RecordedRequest] = []
        self.routes: dict[tuple[str, str], Handler] = {("POST", "/v1/embeddings"): embeddings_route}
        self._failures: list[_Failure] = []
        self._poison: list[tuple[bytes, int, Any]] = []
        self._lock = threading.Lock()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting ---------------------------------------------------------------
    def route(self, method: str, path: str, handler: Handler) -> None:
        """Serve ``handler`` for ``method path`` (replacing any earlier handler)."""
        self.routes[(method.upper(), path)] = handler

    def fail_next(
        self,
        status: int = 500,
        times: int = 1,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """Answer the next ``times`` requests (any route) with ``status`` and ``body``."""
        if body is None:
            body = {"error": {"message": f"scripted failure {status}", "code": status}}
        with self._lock:
            self._failures.append(_Failure(status, times, body, dict(headers or {})))

    def fail_when(self, text: str, status: int = 500, body: Any = None) -> None:
        """Answer every request whose body contains ``text`` with ``status``, for as long as
        the server runs (a request the endpoint can never serve: too long for the model's
        context, or content that crashes it), while other requests are answered."""
        if body is None:
            body = {"error": {"message": f"scripted failure {status} for this content",
                              "code": status}}
        with self._lock:
            self._poison.append((text.encode("utf-8"), status, body))

    def dispatch(self, req: RecordedRequest) -> Reply:
        """Record ``req`` and produce its reply (scripted failure, auth check, route)."""
        with self._lock:
            self.requests.append(req)
            for text, status, body in self._poison:
                if text in req.raw or text in json.dumps(req.body, ensure_ascii=False).encode():
                    return status, body
            if self._failures:
                fail = self._failures[0]
                fail.times -= 1
                if fail.times <= 0:
                    self._failures.pop(0)
                return fail.status, fail.body, fail.headers
        if (
            self.api_key is not None
            and req.headers.get("authorization") != f"Bearer {self.api_key}"
        ):
            return _error(401, "invalid or missing API key", "authentication_error")
        handler = self.routes.get((req.method, req.path))
        if handler is None:
            return _error(404, f"no route for {req.method} {req.path}")
        try:
            return handler(self, req)
        except Exception as exc:  # noqa: BLE001 - a broken handler answers 500, not a hang
            return _error(500, f"handler failed: {type(exc).__name__}: {exc}", "server_error")

    # -- lifecycle ---------------------------------------------------------------
    @property
    def port(self) -> int:
        """The bound port (the server must be started)."""
        if self._httpd is None:
            raise RuntimeError("server is not running; call start() or use 'with'")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``, the value for an OpenAI client's base URL."""
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> Self:
        """Bind a free loopback port and serve in a daemon thread."""
        if self._httpd is None:
            httpd = _HTTPServer((self.host, 0), _RequestHandler)
            httpd.owner = self
            self._httpd = httpd
            self._thread = threading.Thread(
                target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Shut the server down and free the port."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            if self._thread is not None:
                self._thread.join(timeout=5)
            self._httpd = None
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
