"""``memlane serve --workers 2``: ``/metrics`` answers for the whole service, whichever
process takes the scrape.

Found scraping a two-process service: each scrape was the answering process's own
registry, so ``memlane_http_requests_total`` went up and down between scrapes (Prometheus
reads each fall as a restart) and no scrape held every request. Each process now counts
in prometheus-client's multiprocess folder, which a scrape adds up, and ``serve`` removes
its folder when it stops."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from memlane.serve.keys import create_key
from memlane.store import open_store
from tests import commands


def _port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _count(text: str, route: str) -> float:
    total = 0.0
    for line in text.splitlines():
        if line.startswith("memlane_http_requests_total{") and f'route="{route}"' in line:
            total += float(line.rsplit(" ", 1)[1])
    return total


def test_metrics_add_up_every_process(tmp_path: Path) -> None:
    import memlane

    db = str(tmp_path / "m.db")
    store = open_store(db)
    try:
        admin = create_key(store, "*").key
    finally:
        store.close()
    port = _port()
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    env["PYTHONPATH"] = str(Path(memlane.__file__).parents[1])
    env["TMPDIR"] = str(tmp_path)  # where serve makes its metrics folder
    # in a group of its own: a hang kills the supervisor and its workers (tests/commands.py)
    proc = commands.start([sys.executable, "-m", "memlane.serve.cli", "--db", db, "serve",
                           "--port", str(port), "--workers", "2", "--no-worker"],
                          stderr=subprocess.STDOUT, cwd=tmp_path, env=env, text=False)
    url = f"http://127.0.0.1:{port}"
    auth = {"Authorization": f"Bearer {admin}"}
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(
        line.decode(errors="replace") for line in proc.stdout), daemon=True)  # type: ignore[union-attr]
    reader.start()
    try:
        deadline = time.monotonic() + 90
        while sum("Application startup complete" in x for x in list(lines)) < 2:
            assert proc.poll() is None, "".join(lines)
            assert time.monotonic() < deadline, "".join(lines)
            time.sleep(0.2)
        pids = {p for p in os.listdir(tmp_path) if p.startswith("memlane-metrics-")}
        n = 30
        for _ in range(n):  # each on a new connection: the kernel spreads them
            assert httpx.get(url + "/v1/stats", headers=auth, timeout=10).status_code == 200
        for _ in range(8):  # each scrape, whichever process answers, counts them all
            text = httpx.get(url + "/metrics", headers=auth, timeout=10).text
            assert _count(text, "/v1/stats") == n, text
        assert len(pids) == 1, pids
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0, "".join(lines)
        assert not (tmp_path / next(iter(pids))).exists()  # serve's folder went with it
        reader.join(timeout=10)
        assert "memlane serve stopped" in "".join(lines), "".join(lines)  # as one process says
        assert commands.wait_group_gone(proc, 30), "".join(lines)  # no worker left behind
    finally:
        reader.join(timeout=0 if proc.poll() is None else 10)  # the output read to its end
        commands.end(proc)
        reader.join(timeout=10)
