"""Session 25, second round: what ``memlane serve`` answered outside the service's shape.

``memlane serve --port 0`` printed ``http://127.0.0.1:0`` in its first line (uvicorn's own
log line named the port it took); a request uvicorn cannot parse (a malformed request line
or header, before the app sees it) was answered 400 "Invalid HTTP request received." in
plain text; ``/readyz``'s 503 had no ``Retry-After`` while every other 503 has one.
"""

from __future__ import annotations

import os
import re
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """A real ``memlane serve --port 0`` process: its first line and the port it names."""
    folder = tmp_path_factory.mktemp("serve0")
    env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    proc = subprocess.Popen([sys.executable, "-m", "memlane", "--db", str(folder / "m.db"), "serve",
                             "--port", "0", "--no-worker"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=folder, env=env)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, "no first line within 120 s"
        first = proc.stdout.readline().decode()
        found = re.search(r"http://127\.0\.0\.1:(\d+) ", first)
        assert found, first
        port = int(found.group(1))
        deadline = time.monotonic() + 120
        while True:  # bounded: the process answers on the port its first line named
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, first
            time.sleep(0.1)
        yield first, port
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(30)
        if proc.stdout is not None:
            proc.stdout.close()


def test_port_0_is_named_by_the_port_the_service_took(served: tuple[str, int]) -> None:
    first, port = served
    assert port != 0 and f"http://127.0.0.1:{port} (db " in first, first


def _raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(request)
        got = b""
        while len(got) < 1_000_000:  # the server closes the connection after a 400
            more = conn.recv(65536)
            if not more:
                return got
            got += more
    return got


SEPARATORS = ' ()<>@,;\\"/[]?={}\t\x00\x01\x7f'


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(alphabet=st.sampled_from("abcXYZ-_1" + SEPARATORS), min_size=1, max_size=12)
       .filter(lambda s: any(c in SEPARATORS for c in s)),
       path=st.sampled_from(["/healthz", "/v1/search", "/nope"]),
       where=st.sampled_from(["header", "method", "target"]))
def test_a_request_uvicorn_cannot_parse_is_answered_in_the_error_shape(
        served: tuple[str, int], name: str, path: str, where: str) -> None:
    """A header name, a method or a request target holding a byte HTTP does not allow there:
    a 400 whose body is ``{"error": {"code", "message", "field"}}`` as JSON, every time."""
    import json

    bad = name.encode("latin-1")
    request = {"header": b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n" + bad + b": 1\r\n\r\n",
               "method": b"G" + bad.replace(b" ", b"(") + b" " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n\r\n",
               "target": b"GET " + path.encode() + b"\x00" + bad.replace(b" ", b"") + b" HTTP/1.1\r\n\r\n"}[where]
    answer = _raw(served[1], request)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), answer[:300]
    assert b"content-type: application/json" in head.lower(), head
    error = json.loads(body)["error"]
    assert error["code"] == "invalid" and error["field"] == "request", error
    assert error["message"].startswith("request: "), error


def test_readyz_503_says_when_to_ask_again(tmp_path: Path) -> None:
    """Not ready for each reason it can tell: a database migrated by a newer memlane, one
    with a migration pending."""
    db = str(tmp_path / "m.db")
    with memory(db) as mem, serving(create_app(mem, worker=False)) as url:
        assert httpx.get(f"{url}/readyz", timeout=30).status_code == 200
        with sqlite3.connect(db) as conn:
            conn.execute("INSERT INTO schema_migrations (name, sha256, applied_at) "
                         "VALUES ('9999_from_a_newer_memlane', ?, ?)", ("0" * 64, time.time()))
        newer = httpx.get(f"{url}/readyz", timeout=30)
        with sqlite3.connect(db) as conn:
            conn.execute("DELETE FROM schema_migrations WHERE name = '9999_from_a_newer_memlane'")
            conn.execute("DELETE FROM schema_migrations WHERE name = "
                         "(SELECT max(name) FROM schema_migrations)")
        pending = httpx.get(f"{url}/readyz", timeout=30)
    for answer in (newer, pending):
        assert answer.status_code == 503, answer.text
        assert answer.headers.get("Retry-After") == "1", answer.headers
        assert answer.json()["error"]["code"] == "unavailable"
    assert "pending" in pending.json()["error"]["message"]
