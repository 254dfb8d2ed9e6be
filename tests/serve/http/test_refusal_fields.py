"""The router's own refusals name what was wrong, as every other 4xx of the service does
(session 25): an unknown route names the ``path``, a method the route does not take names
the ``method`` and the ones it takes, a body over ``serve.max_body_bytes`` names the limit
and what was over it (``Content-Length`` when declared, ``body`` when read). They answered
"Not Found", "Method Not Allowed" and a 413 with ``field`` null.

A real service on a loopback port; hypothesis draws the paths, methods and sizes."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.serve.http.conftest import Service

LIMIT = 4096  # sqlite_service's serve.max_body_bytes
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
SEGMENT = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x2FF, exclude_categories=["Cc"],
                                exclude_characters="/?#%\\"), min_size=1, max_size=12)
# paths no route matches: the inspector (/ui, its own HTML pages) and /mcp (JSON-RPC) aside
UNKNOWN = st.builds(lambda prefix, parts: prefix + "/".join(parts),
                    st.sampled_from(["/zz-", "/v1/zz-", "/v2/", "/state/zz-", "/"]),
                    st.lists(SEGMENT, min_size=1, max_size=4)).filter(
                        lambda p: p.rstrip("/") not in ("", "/healthz", "/readyz", "/metrics",
                                                        "/docs", "/redoc", "/openapi.json"))

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _shape(r: httpx.Response) -> dict[str, str]:
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "field"}, body
    error: dict[str, str] = body["error"]
    assert error["field"] and error["message"].startswith(error["field"] + ":"), error
    return error


@pytest.fixture
def client(sqlite_service: Service) -> Iterator[httpx.Client]:
    with sqlite_service.client() as c:
        yield c


@given(path=UNKNOWN, method=st.sampled_from(METHODS))
@SETTINGS
def test_an_unknown_route_names_the_path(client: httpx.Client, path: str, method: str) -> None:
    r = client.request(method, path)
    assert r.status_code == 404, (method, path, r.text)
    error = _shape(r)
    assert error["code"] == "not_found" and error["field"] == "path"
    assert r.url.path in error["message"] or len(r.url.path) > 200, error
    assert method in error["message"] and "/openapi.json" in error["message"]


def _routes(client: httpx.Client) -> list[tuple[str, frozenset[str]]]:
    """Each route of the document as a path to call, with the methods of every route that
    path reaches (``/v1/sessions/close`` is also ``/v1/sessions/{id}``)."""
    paths = client.get("/openapi.json").json()["paths"]
    templates = {t: ops for t, ops in paths.items() if not t.startswith(("/mcp", "/ui"))}
    out = []
    for template in templates:
        path = re.sub(r"\{\w+(:path)?\}", "s", template)
        methods = {m.upper() for t, ops in templates.items()
                   if re.fullmatch(re.sub(r"\{\w+(:path)?\}", "[^/]+", t), path) for m in ops}
        out.append((path, frozenset(methods)))
    return out


@given(data=st.data())
@SETTINGS
def test_a_method_the_route_does_not_take_names_the_method_and_the_allowed_ones(
        client: httpx.Client, data: st.DataObject) -> None:
    path, allowed = data.draw(st.sampled_from(_routes(client)))
    method = data.draw(st.sampled_from([m for m in METHODS if m not in allowed]))
    r = client.request(method, path)
    assert r.status_code == 405, (method, path, r.text)
    error = _shape(r)
    assert error["code"] == "method_not_allowed" and error["field"] == "method"
    assert f"{method} is not allowed on {path}" in error["message"], error
    said = {m.strip() for m in r.headers["allow"].split(",")}
    assert said - {"HEAD"} == allowed, (allowed, said)  # every route of the path, no other
    assert all(m in error["message"] for m in said), error


def _declared_only(url: str, size: int) -> tuple[int, dict[str, str]]:
    """POST /v1/search declaring ``size`` bytes and sending none: the refusal must come
    from the header alone (a raw socket: clients will not declare what they do not send)."""
    host = urlsplit(url)
    with socket.create_connection((host.hostname, host.port), timeout=10) as sock:
        sock.sendall(f"POST /v1/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     f"\r\nContent-Length: {size}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    return status, httpx.Response(status, content=body).json()["error"]


@given(size=st.integers(LIMIT + 1, 50 * LIMIT), how=st.sampled_from(["length", "chunked",
                                                                      "declared"]))
@SETTINGS
def test_a_body_over_the_limit_names_the_limit_and_what_was_over_it(
        sqlite_service: Service, client: httpx.Client, size: int, how: str) -> None:
    body = b"[" + b"1," * ((size - 2) // 2) + b"1]"
    if how == "declared":
        status, error = _declared_only(sqlite_service.url, size)
    else:
        content = body if how == "length" else iter([body[i:i + 1000]
                                                     for i in range(0, len(body), 1000)])
        r = client.post("/v1/search", content=content,
                        headers={"Content-Type": "application/json"})
        status, error = r.status_code, _shape(r)
    assert status == 413, error
    assert error["code"] == "too_large"
    assert error["field"] == ("body" if how == "chunked" else "Content-Length"), error
    assert error["message"].startswith(error["field"] + ":")
    assert f"{LIMIT} bytes" in error["message"] and "serve.max_body_bytes" in error["message"]
    if how != "chunked":
        assert f"Content-Length is {len(body) if how == 'length' else size}" in error["message"]
