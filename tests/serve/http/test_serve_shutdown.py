"""``memlane serve`` stopped by SIGTERM in the middle of everything it does (session 26): clients
writing batches of messages and searching, a live stream open, the index worker holding
claims on a backlog of sessions to summarize (``indexing.jobs`` 2). Every request is answered
or refused before it reached the service (a connection the stopping service no longer
accepts), never cut mid-answer; the stream ends complete; the claims are given back; a batch
is stored whole or not at all; the process exits 0 with no error logged. A real process, a
real signal, both stores; bounded waits only."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import httpx
import pytest

from memlane.testing import memory
from tests.index.test_stop_gives_back_claims import _fill as fill_backlog

SESSIONS = 200  # a backlog the worker is still summarizing when the signal comes
BATCH = 20


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(url: str, port: int) -> subprocess.Popen[str]:
    """``memlane serve`` in a process group of its own (its summarizing processes with it)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
           "MEMLANE_EMBEDDING_BACKEND": "hashing", "MEMLANE_INDEXING_JOBS": "2",
           "MEMLANE_SERVE_WORKER_POLL_SECONDS": "0.1", "MEMLANE_SERVE_STREAM_POLL_SECONDS": "0.2"}
    return subprocess.Popen([sys.executable, "-m", "memlane", "--db", url, "serve", "--port",
                             str(port)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def _ready(base: str, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()[0]
        try:
            if httpx.get(base + "/readyz", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("the service did not become ready")


# refused before the service took the request: the listening socket closed, or a connection
# the kernel had queued and the stopping service never accepted (reset before any answer)
REFUSED = (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError)


@pytest.mark.parametrize("to", ["process", "group"])
def test_sigterm_in_the_middle_of_everything(db_url: str, to: str) -> None:
    """``to``: the service's process, or its whole process group, as a service manager
    sends it (systemd's control group): the summarizing processes then died at once, and
    the stopping worker said so and summarized on in its own process."""
    fill_backlog(db_url, SESSIONS)
    port = _port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve(db_url, port)
    outcomes: list[tuple[str, Any, float]] = []  # (what, status or error, when it was sent)
    batches: dict[str, Any] = {}
    stream_end: list[str] = []
    signalled: list[float] = []
    stop = threading.Event()

    def client(n: int) -> None:
        i = 0
        while not stop.is_set() and len(outcomes) < 5000:
            ids = [f"t{n}-{i}-{j}" for j in range(BATCH)]
            sent = time.monotonic()
            try:  # a connection of its own each time: no keep-alive race at the stop
                r = httpx.post(base + "/v1/messages", timeout=60, json={"messages": [
                    {"scope": f"w{n}", "role": "user", "text": f"note {i} {j}", "id": ids[j]}
                    for j in range(BATCH)]})
                outcomes.append(("messages", r.status_code, sent))
                batches[f"t{n}-{i}"] = r.status_code
                r = httpx.post(base + "/v1/search", json={"query": "note"}, timeout=60)
                outcomes.append(("search", r.status_code, sent))
            except REFUSED as e:
                outcomes.append(("refused", e, sent))
                batches.setdefault(f"t{n}-{i}", e)
                if proc.poll() is not None:
                    return
                time.sleep(0.05)
            i += 1

    def listen() -> None:
        try:
            with httpx.stream("GET", base + "/state/memory", params={"scope": "w0"},
                              timeout=httpx.Timeout(10, read=60)) as r:
                for _ in r.iter_lines():
                    pass
            stream_end.append("complete")
        except httpx.HTTPError as e:
            stream_end.append(f"{type(e).__name__}: {e}")

    try:
        _ready(base, proc)
        threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(4)]
        threads.append(threading.Thread(target=listen, daemon=True))
        for t in threads:
            t.start()
        with memory(db_url) as mem:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                q = mem.store.summary_queue(time.time(), mem.config.indexing.max_attempts)
                if q["done"] >= 1 and q["leased"] >= 1 and len(outcomes) >= 8:
                    break
                time.sleep(0.02)
            else:
                raise AssertionError(f"the worker never held a claim with requests going: {q}")
            signalled.append(time.monotonic())
            if to == "group":
                os.killpg(proc.pid, signal.SIGTERM)
            else:
                proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=120)
            stop.set()
            for t in threads:
                t.join(60)
            after = mem.store.summary_queue(time.time(), mem.config.indexing.max_attempts)
            stored = {}
            for key in batches:
                n, i = key[1:].split("-")
                stored[key] = sum(mem.store.message_by_ext_id(f"w{n}", f"{key}-{j}") is not None
                                  for j in range(BATCH))
    finally:
        stop.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert proc.returncode == 0, out
    assert "Traceback" not in out and "ERROR" not in out, out
    assert "memlane serve stopped" in out and "process died" not in out, out
    assert stream_end == ["complete"], stream_end
    assert after["done"] < SESSIONS, "the worker ended the backlog before the signal"
    assert (after["leased"], after["leased_until"]) == (0, None), after
    for what, got, sent in outcomes:
        if isinstance(got, BaseException):  # refused: only once the service was stopping
            assert signalled and sent >= signalled[0] - 1, (what, got)
        else:
            assert got == 200, (what, got)
    for key, got in batches.items():  # whole or nothing; answered 200: whole
        assert stored[key] in ((BATCH,) if got == 200 else (0, BATCH)), (key, got, stored[key])
    assert any(got == 200 for got in batches.values())


def test_a_request_still_running_when_the_shutdown_wait_runs_out_is_a_503(pg_url: str) -> None:
    """SIGTERM while a write waits (for a table lock taken from outside) longer than
    ``serve.shutdown_seconds``: uvicorn cancelled the request, logged "Exception in ASGI
    application" with a traceback and answered a plain-text 500, while the call's thread
    went on and stored the message once the lock was gone. Now the answer is a 503 in the
    service's shape saying what may have happened; the message is stored whole (or not at
    all); the process exits 0."""
    from tests.serve.http.test_pg_connections import _locked, _wait_for_waiter

    memory(pg_url).close()  # migrated before the lock
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
           "MEMLANE_EMBEDDING_BACKEND": "hashing", "MEMLANE_SERVE_SHUTDOWN_SECONDS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "memlane", "--db", pg_url, "serve", "--port",
                             str(port), "--no-worker"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    answers: list[Any] = []
    try:
        _ready(base, proc)
        with _locked(pg_url, "messages"):
            def send() -> None:
                try:
                    answers.append(httpx.post(base + "/v1/messages", timeout=60, json={
                        "scope": "s", "role": "user", "text": "held", "id": "h-1"}))
                except httpx.HTTPError as e:
                    answers.append(e)

            sender = threading.Thread(target=send, daemon=True)
            sender.start()
            _wait_for_waiter(pg_url, set())  # the write waits on the lock
            proc.send_signal(signal.SIGTERM)
            sender.join(60)  # answered once the shutdown's wait ran out, the lock still held
            assert not sender.is_alive(), "no answer"
        out, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    [r] = answers
    assert isinstance(r, httpx.Response), r
    assert r.status_code == 503 and r.headers["retry-after"] == "1", r.text
    message = r.json()["error"]["message"]
    assert "serve.shutdown_seconds" in message and "check before sending it again" in message
    assert proc.returncode == 0, out
    assert "Traceback" not in out and "Exception in ASGI application" not in out, out
    with memory(pg_url) as mem:  # whole, or not at all
        stored = mem.store.message_by_ext_id("s", "h-1")
        assert stored is None or stored.text == "held"
