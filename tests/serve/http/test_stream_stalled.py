"""A live-stream client that stops reading (session 22 follow-up), against `memlane serve`
as a real process: the service does not buffer the changes it cannot send (its memory
stays flat while megabytes of changes are written), and SIGTERM stops it without waiting
on that client (session 23: it waited the whole ``serve.shutdown_seconds``, then logged
"timeout graceful shutdown exceeded"), closing that client's connection."""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

import httpx

from memlane.testing import memory
from tests.serve.http.test_serve_cli import _port, _serve, _source_env

NOTES = 40
NOTE_BYTES = 90_000


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))


def _flood(mem, url: str, pid: int, first: int) -> int:
    """Write NOTES notes of NOTE_BYTES each (a patch event each) and give the stream time
    to poll them (it polls every 0.5 s); the service's growth in KiB meanwhile."""
    before = _rss_kib(pid)
    for i in range(first, first + NOTES):
        mem.upsert(f"note {i} " + "lorem ipsum dolor " * (NOTE_BYTES // 18), scope="s")
    for _ in range(4):
        assert httpx.get(f"{url}/readyz", timeout=10).status_code == 200
        time.sleep(0.5)
    return _rss_kib(pid) - before


def test_a_client_that_stops_reading_holds_no_growing_buffer_and_does_not_block_shutdown(
        tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    port = _port()
    env = {**_source_env(), "MEMLANE_EMBEDDING_BACKEND": "hashing",
           "MEMLANE_SERVE_SHUTDOWN_SECONDS": "600"}  # never reached: nothing waits on it
    proc = _serve(db, port, tmp_path, env)
    url = f"http://127.0.0.1:{port}"
    client = socket.socket()
    try:
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.settimeout(30)
        client.connect(("127.0.0.1", port))
        client.sendall(f"GET /state/memory?scope=s HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
                       .encode())
        seen = b""
        while b"event: snapshot" not in seen:
            chunk = client.recv(4096)
            assert chunk, seen
            seen += chunk
        # from here on the client reads nothing. The stream reads one poll's batch of
        # changes (up to 500) and then waits on the socket: a second flood is not read
        with memory(db) as mem:
            grown = [_flood(mem, url, proc.pid, first) for first in (0, NOTES)]
        assert grown[1] < NOTES * NOTE_BYTES // 1024 // 2, f"the service grew by {grown} KiB"
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
        # the stalled client's connection is closed: what was sent, then the end
        ended = False
        while not ended:
            try:
                ended = client.recv(1 << 16) == b""
            except ConnectionResetError:
                ended = True
    finally:
        client.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    text = out.decode()
    assert proc.returncode == 0, text
    assert "memlane serve stopped" in text, text
    # uvicorn did not wait out its graceful-shutdown timeout, nor cut the stream unfinished
    assert "timeout graceful shutdown exceeded" not in text, text
    assert "without completing response" not in text and "Traceback" not in text, text
    assert os.path.exists(db)
