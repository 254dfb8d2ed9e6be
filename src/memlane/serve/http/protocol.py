"""The HTTP protocol ``memlane serve`` gives uvicorn (its ``http`` setting): uvicorn's own,
whose answer to a request it cannot parse (a malformed request line or header, before the
app sees anything) is the service's error shape, not uvicorn's plain text "Invalid HTTP
request received." (session 25). Everything else is uvicorn's."""

from __future__ import annotations

import json

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from memlane.serve.http.errors import error_body


class HttpProtocol(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
    """uvicorn's protocol (httptools where it is installed, h11 otherwise) answering an
    unparsable request with ``{"error": {"code": "invalid", "message", "field":
    "request"}}``, as JSON, and closing the connection as uvicorn does."""

    def send_400_response(self, msg: str) -> None:
        body = json.dumps(error_body(
            "invalid", f"request: {msg.rstrip('.')}: its request line or a header is not HTTP/1.1",
            "request")).encode()
        head = [b"HTTP/1.1 400 Bad Request\r\n"]
        for name, value in self.server_state.default_headers:
            head += [name, b": ", value, b"\r\n"]
        head += [b"content-type: application/json\r\n",
                 b"content-length: " + str(len(body)).encode() + b"\r\n",
                 b"connection: close\r\n\r\n", body]
        self.transport.write(b"".join(head))
        self.transport.close()


PROTOCOL = f"{__name__}:HttpProtocol"
"""uvicorn's ``http`` setting: a string, so that each process of ``--workers N`` loads it."""
