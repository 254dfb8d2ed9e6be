"""`memlane serve` as a real process: loopback rule, address printed, SIGTERM shutdown."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.serve.cli_serve import is_loopback
from memlane.store import open_store


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_non_loopback_without_a_key_is_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    r = CliRunner().invoke(cli, ["--db", db, "serve", "--host", "0.0.0.0"])
    assert r.exit_code == 1
    assert "no API key is defined" in r.output and "memlane keys create" in r.output
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("example.org")


def test_keys_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    run = CliRunner()
    made = run.invoke(cli, ["--db", db, "keys", "create", "--scopes", "team-*,alex", "--read-only",
                            "--name", "ci"])
    assert made.exit_code == 0, made.output
    key = made.stdout.strip().splitlines()[0]
    assert key.startswith("ml_") and len(key) > 40
    listed = run.invoke(cli, ["--db", db, "keys", "list"])
    assert "ci" in listed.output and "team-*,alex" in listed.output and key not in listed.output
    store = open_store(db)
    assert store.api_keys()[0]["read_only"] is True
    assert key not in str(store.db.execute("SELECT * FROM api_keys").fetchall())  # hash only
    store.close()
    assert run.invoke(cli, ["--db", db, "keys", "revoke", "1"]).exit_code == 0
    assert "already revoked" in run.invoke(cli, ["--db", db, "keys", "revoke", "1"]).output
    missing = run.invoke(cli, ["--db", db, "keys", "revoke", "9"])
    assert missing.exit_code == 1 and "does not exist" in missing.output
    bad = run.invoke(cli, ["--db", db, "keys", "create", "--scopes", " , "])
    assert bad.exit_code == 2 and "Invalid value for '--scopes'" in bad.output  # session 24


def _serve(db: str, port: int, cwd: Path,
           env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``memlane serve`` on ``port`` (in ``env`` if given), returned once it answers /readyz."""
    proc = subprocess.Popen([sys.executable, "-m", "memlane.serve.cli", "--db", db, "serve",
                             "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, cwd=cwd, env=env)
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise AssertionError(proc.stdout.read().decode() if proc.stdout else "exited")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("service did not become ready")
        time.sleep(0.2)


def test_sigterm_stops_cleanly_with_the_database_intact(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    port = _port()
    proc = _serve(db, port, tmp_path)
    url = f"http://127.0.0.1:{port}"
    try:
        msgs = [{"scope": "s", "text": f"message {i}"} for i in range(200)]
        assert httpx.post(url + "/v1/messages", json={"messages": msgs}, timeout=30).status_code == 200
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    text = out.decode()
    assert proc.returncode == 0, text
    assert f"memlane serving http://127.0.0.1:{port}" in text
    assert "memlane serve stopped" in text and "Traceback" not in text
    store = open_store(db)
    try:
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert store.stats()["messages"] == 200
        assert store.pending_migrations() == []
    finally:
        store.close()


def test_a_request_in_flight_at_sigterm_is_answered_and_stored(tmp_path: Path) -> None:
    """SIGTERM while a request's body is still arriving: the service stops accepting new
    connections, waits for that request, answers it 200, stores it whole and exits 0."""
    db = str(tmp_path / "m.db")
    port = _port()
    proc = _serve(db, port, tmp_path)
    body = json.dumps({"messages": [{"scope": "late", "text": f"message {i}"}
                                    for i in range(50)]}).encode()
    head = (f"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            f"\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    try:
        conn = socket.create_connection(("127.0.0.1", port), timeout=30)
        conn.sendall(head + body[:100])
        # A request on another connection answered after this one's headers arrived: the
        # service has read them, so the first request is in flight.
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).status_code == 200
        proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        while True:  # shutting down: new connections are refused
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
            except OSError:
                break
            assert time.monotonic() < deadline, "the service kept accepting connections"
            time.sleep(0.05)
        assert proc.poll() is None, "the service exited with a request in flight"
        conn.sendall(body[100:])
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
        conn.close()
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
    assert len(json.loads(answer.split(b"\r\n\r\n", 1)[1])["messages"]) == 50
    assert proc.returncode == 0, out.decode()
    store = open_store(db)
    try:
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert store.stats()["messages"] == 50
    finally:
        store.close()


def _source_env() -> dict[str, str]:
    """The environment of a `memlane serve` subprocess that runs the source under test."""
    import os

    import memlane

    return {**os.environ, "PYTHONPATH": str(Path(memlane.__file__).parents[1])}


def test_sigterm_while_the_service_starts_stops_it(tmp_path: Path) -> None:
    """SIGTERM between the "memlane serving" line and uvicorn's own signal handlers (while
    the app is built) was swallowed by a no-op handler: the service came up and ran on
    until a second signal. Now it is kept and stops the service, with status 0."""
    db = str(tmp_path / "m.db")
    for delay in (0.0, 0.2):
        port = _port()
        proc = subprocess.Popen([sys.executable, "-m", "memlane.serve.cli", "--db", db, "serve",
                                 "--port", str(port), "--no-worker"], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, cwd=tmp_path, env=_source_env())
        try:
            assert proc.stdout is not None
            seen = ""
            while not seen.startswith("memlane serving"):  # after "created database ..."
                seen = proc.stdout.readline().decode()
                assert seen, "the service exited before it said it was serving"
            time.sleep(delay)
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
        text = out.decode()
        assert proc.returncode == 0, (delay, text)
        assert "memlane serve stopped" in text and "Traceback" not in text, text


def test_a_port_in_use_still_exits_with_uvicorns_startup_failure(tmp_path: Path) -> None:
    """Session 23: and says so in one line naming the address, before it claims to serve
    (it printed "memlane serving http://…", started its app, then ended with uvicorn's
    "[Errno 98]" log lines)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "memlane.serve.cli", "--db",
                               str(tmp_path / "m.db"), "serve", "--port", str(port),
                               "--no-worker"], capture_output=True, cwd=tmp_path,
                              env=_source_env(), timeout=60)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 3, out + err
    assert "memlane serve stopped" not in err
    assert "memlane serving" not in out and "Application startup" not in err, out + err
    assert f"Error: cannot listen on 127.0.0.1:{port}: Address already in use" in err, err
    assert "another memlane serve" in err and "Traceback" not in err


def test_a_host_that_names_no_address_is_refused_in_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    assert CliRunner().invoke(cli, ["--db", db, "keys", "create", "--scopes", "*"]).exit_code == 0
    r = CliRunner().invoke(cli, ["--db", db, "serve", "--host", "no-such-host.invalid",
                                 "--port", str(_port()), "--no-worker"])
    assert r.exit_code == 3, r.output
    assert "cannot listen on no-such-host.invalid:" in r.output
    assert "memlane serving" not in r.output


def test_sigterm_ends_open_live_streams_cleanly(tmp_path: Path) -> None:
    """SIGTERM with /state/memory streams open: sse-starlette cancelled each stream
    mid-response, so every client read a truncated body (httpx: RemoteProtocolError,
    "incomplete chunked read") and the service logged "ASGI callable returned without
    completing response" as an ERROR. Now each stream ends itself within a poll, its
    response complete, and an EventSource reconnects to the next service as after any
    end of stream."""
    import threading

    db = str(tmp_path / "m.db")
    port = _port()
    proc = _serve(db, port, tmp_path, _source_env())
    url = f"http://127.0.0.1:{port}"
    ends: list[str] = []
    opened = threading.Semaphore(0)

    def listen() -> None:
        try:
            with httpx.stream("GET", f"{url}/state/memory", params={"scope": "s"},
                              timeout=httpx.Timeout(10, read=60)) as r:
                for line in r.iter_lines():
                    if line.startswith("event: snapshot"):
                        opened.release()
            ends.append("complete")
        except httpx.HTTPError as e:
            ends.append(f"{type(e).__name__}: {e}")
            opened.release()

    try:
        listeners = [threading.Thread(target=listen, daemon=True) for _ in range(3)]
        for t in listeners:
            t.start()
        for _ in listeners:
            assert opened.acquire(timeout=30)
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
        for t in listeners:
            t.join(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    text = out.decode()
    assert proc.returncode == 0, text
    assert ends == ["complete"] * 3, ends
    assert "without completing response" not in text and "Traceback" not in text, text


def test_an_address_refused_names_the_key_or_variable_that_gave_it(tmp_path: Path, monkeypatch) -> None:
    """``MEMLANE_SERVE_HOST=0.0.0.0 memlane serve`` said "refusing to bind 0.0.0.0" and a
    host that names nothing "cannot listen on …:8420", naming neither the variable nor
    ``serve.host``/``serve.port``: a user who set one long ago looked at the command line
    they typed, which named no address. An option's value is named by the option alone."""
    db = str(tmp_path / "m.db")
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["--db", db, "add", "--scope", "s", "hi"]).exit_code == 0
    open_ = CliRunner(env={"MEMLANE_SERVE_HOST": "0.0.0.0"}).invoke(cli, ["--db", db, "serve"])
    assert open_.exit_code == 1, open_.output
    assert "refusing to bind 0.0.0.0 (serve.host, set by MEMLANE_SERVE_HOST): " in open_.output
    (tmp_path / "memlane.toml").write_text('[memory.serve]\nhost = "10.1.2.3"\n')
    filed = CliRunner().invoke(cli, ["--db", db, "serve"])
    assert "refusing to bind 10.1.2.3 (serve.host of the config): " in filed.output, filed.output
    typed = CliRunner().invoke(cli, ["--db", db, "serve", "--host", "10.1.2.3"])
    assert "refusing to bind 10.1.2.3: no API key" in typed.output, typed.output
    (tmp_path / "memlane.toml").unlink()
    assert CliRunner().invoke(cli, ["--db", db, "keys", "create", "--scopes", "*"]).exit_code == 0
    port = _port()
    bad = CliRunner(env={"MEMLANE_SERVE_HOST": "no-such-host.invalid", "MEMLANE_SERVE_PORT": str(port)}
                    ).invoke(cli, ["--db", db, "serve", "--no-worker"])
    assert bad.exit_code == 3, bad.output
    assert (f"cannot listen on no-such-host.invalid:{port} (serve.host, set by MEMLANE_SERVE_HOST; "
            "serve.port, set by MEMLANE_SERVE_PORT): ") in bad.output, bad.output
