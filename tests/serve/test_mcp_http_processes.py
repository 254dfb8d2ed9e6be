"""MCP over streamable HTTP from one client sending requests at once, against `memlane
serve --workers 2` as a real process (session 23).

`/mcp` kept a session per client (the 2025 protocol's ``Mcp-Session-Id``) in the memory of
the process that answered ``initialize``: with two processes, a request the kernel handed
to the other one was answered "Session not found" (HTTP 404), so a client speaking the
2025 protocol failed as soon as it sent requests side by side. The endpoint now keeps no
session (stateless, as the 2026 protocol is): any process answers any request.

What a client can expect of order over HTTP: requests in flight at once have none (each is
its own HTTP request, on its own connection, possibly in another process); a request sent
after another's answer sees its effect, whichever process answers it."""

from __future__ import annotations

import signal
from pathlib import Path

import anyio
import pytest
from mcp import Client

from tests.serve.http.test_serve_cli import _port, _serve, _source_env
from tests.serve.test_mcp import call, over_http

NOTES = 24


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_requests_sent_at_once_to_two_processes(tmp_path: Path, mode: str) -> None:
    db = str(tmp_path / "m.db")
    port = _port()
    env = {**_source_env(), "MEMLANE_EMBEDDING_BACKEND": "hashing", "MEMLANE_SERVE_WORKERS": "2",
           "MEMLANE_SERVE_INDEX_WORKER": "false"}
    proc = _serve(db, port, tmp_path, env)
    counts: list[str] = []

    async def body(c: Client) -> None:
        async def note(i: int) -> None:
            await call(c, "remember", {"scope": "o", "role": "note",
                                       "text": f"zebra note number {i}"})

        async with anyio.create_task_group() as tg:  # side by side, each on its connection
            for i in range(NOTES):
                tg.start_soon(note, i)
        for _ in range(6):  # after every answer: each read sees every note, in any process
            out = await call(c, "recall", {"scope": "o", "query": "zebra note", "k": 50})
            counts.append(out.splitlines()[0])

    try:
        over_http(f"http://127.0.0.1:{port}", None, body, mode=mode)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    text = out.decode()
    assert "; 2 process(es))" in text, text
    assert "Session not found" not in text and "Traceback" not in text, text
    assert counts == [f"{NOTES} hit(s) for 'zebra note' in scope o, best first:"] * 6


def test_a_get_opens_no_stream(service) -> None:
    """Without a session a GET of /mcp opened an event stream for messages memlane never
    sends, and kept it open, empty, for as long as the client did: now it is the
    protocol's answer for no stream, 405 (the SDK's clients then only POST, as above)."""
    import httpx

    url, key, _ = service
    headers = {"Accept": "text/event-stream", "Authorization": f"Bearer {key('*')}"}
    with httpx.stream("GET", f"{url}/mcp", headers=headers, timeout=10) as r:
        assert r.status_code == 405 and r.headers["allow"] == "POST"
        assert r.read() and r.json()["error"]["code"] == -32600
    assert httpx.get(f"{url}/mcp", timeout=10).status_code == 401  # the key first
