"""`memlane serve` as a real process: loopback rule, address printed, SIGTERM shutdown."""

from __future__ import annotations

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
    assert bad.exit_code == 1 and "scopes" in bad.output


def test_sigterm_stops_cleanly_with_the_database_intact(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    port = _port()
    proc = subprocess.Popen([sys.executable, "-m", "memlane.serve.cli", "--db", db, "serve",
                             "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, cwd=tmp_path)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
            try:
                if httpx.get(url + "/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "service did not become ready"
            time.sleep(0.2)
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
