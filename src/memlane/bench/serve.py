"""``memlane bench serve``: a bounded load run on loopback against a real ``memlane serve``.

It fills a fresh database (SQLite in a temporary folder, or the empty ``--db`` PostgreSQL
database) with synthetic conversations and indexes them, creates an API key, starts
``memlane serve`` as a subprocess on a free 127.0.0.1 port, then runs ``--clients``
threads for ``--seconds``, each looping over a mix of actions through ``POST /actions``:
batched adds (``--batch`` messages a request), scoped searches and scoped packs. It
prints throughput, p50/p95/p99 per action and the error count, then stops the service
with SIGTERM (graceful shutdown) and reports its exit status. Where ``/proc`` exists it
also prints the CPU time per request of the service (its processes) and of the load
generator: on a shared machine that moves much less with other work than latency does.
"""

from __future__ import annotations

import http.client as http_client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click
import httpx
import numpy as np
import orjson

from memlane.serve.cli_common import ignores_global
from memlane.store.urls import public_url

__all__ = ["run_serve_bench", "serve_command"]

_MIX = (("search", 0.6), ("pack", 0.2), ("add", 0.2))
_ACTIONS = tuple(name for name, _ in _MIX)
_MAX_WEIGHT = 1e6
"""A weight's largest value: only the ratios count, and every sum of them stays a float."""


def parse_mix(text: str) -> tuple[tuple[str, float], ...]:
    """``"search=0.6,pack=0.2,add=0.2"`` or ``"search"`` (that action alone) -> weights."""
    mix: dict[str, float] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, _, weight = part.partition("=")
        name = name.strip()
        if name not in _ACTIONS:
            raise click.BadParameter(f"unknown action {name!r}; use {', '.join(_ACTIONS)}",
                                     param_hint="--mix")
        if name in mix:  # the second weight replaced the first without a word
            raise click.BadParameter(f"{name!r} is given twice", param_hint="--mix")
        try:
            mix[name] = float(weight) if weight else 1.0
        except ValueError:
            raise click.BadParameter(f"weight of {name!r} is not a number: {weight!r}",
                                     param_hint="--mix") from None
        # inf (or weights summing past a float) made every draw fail: a run of no request
        # and a table of zeros, exit 0
        if not 0 <= mix[name] <= _MAX_WEIGHT:
            raise click.BadParameter(f"weight of {name!r} must be from 0 to {_MAX_WEIGHT:,.0f}, "
                                     f"got {weight.strip()!r}", param_hint="--mix")
    if not mix or sum(mix.values()) <= 0:
        raise click.BadParameter("give at least one action with a positive weight",
                                 param_hint="--mix")
    return tuple(mix.items())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fill(db: str, scopes: int, per_scope: int) -> tuple[str, list[str]]:
    """Synthetic conversations, indexed; returns an API key and query words."""
    from memlane.bench.ingest import synthetic_turns
    from memlane.config import load_config
    from memlane.memory import Memory
    from memlane.serve.keys import create_key

    turns = synthetic_turns(scopes * per_scope, seed=11)
    with Memory(config=load_config(environ={}, overrides={"db": db})) as mem:
        start = time.time() - 86_400 * 3
        batch = []
        for i, text in enumerate(turns):
            batch.append({"scope": f"bench-{i % scopes}", "role": "user" if i % 2 else "assistant",
                          "text": text, "at": start + i})
        for j in range(0, len(batch), 1000):
            mem.add_messages(batch[j:j + 1000])
        mem.index()
        key = create_key(mem.store, "*", name="bench").key
    words = sorted({w for t in turns[:500] for w in t.lower().strip(".").split() if len(w) > 4})
    return key, words


class _Connection:
    """One keep-alive HTTP/1.1 connection: the load generator's client.

    The standard library's ``http.client`` costs the client a fraction of httpx's CPU per
    request (measured in docs/serve.md). On a machine where the clients share the cores with
    the server, every millisecond the load generator spends is taken from the service.
    """

    def __init__(self, url: str, key: str) -> None:
        parts = urlsplit(url)
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 80
        self._headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        self._conn: http_client.HTTPConnection | None = None

    def post(self, path: str, body: Any) -> tuple[int, str]:
        if self._conn is None:
            self._conn = http_client.HTTPConnection(self._host, self._port, timeout=30.0)
        self._conn.request("POST", path, body=orjson.dumps(body), headers=self._headers)
        response = self._conn.getresponse()
        data = response.read()
        status = response.status
        return status, data.decode(errors="replace") if status != 200 else ""

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (``serve --workers N`` forks N), read from ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(entry.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.parent.name))
    tree, todo = [], [pid]
    while todo:
        p = todo.pop()
        tree.append(p)
        todo.extend(children.get(p, ()))
    return tree


def _cpu_seconds(pids: list[int]) -> float | None:
    """User + system CPU seconds of ``pids`` so far (``/proc``), or None where there is none."""
    if not Path("/proc/self/stat").exists():
        return None
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _pct(values: list[float], q: float) -> float:
    return round(float(np.percentile(values, q)), 1) if values else 0.0


def run_serve_bench(*, clients: int = 8, seconds: float = 20.0, db: str | None = None,
                    batch: int = 50, scopes: int = 50, per_scope: int = 40,
                    seed: int = 3,
                    mix: tuple[tuple[str, float], ...] = _MIX, workers: int = 1) -> dict[str, Any]:
    """One load run; returns the figures (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="memlane-bench-serve-") as tmp:
        target = db or str(Path(tmp) / "bench.db")
        key, words = _fill(target, scopes, per_scope)
        port = _free_port()
        env = {**os.environ, "MEMLANE_SERVE_INDEX_WORKER": "false"}
        env.pop("MEMLANE_CONFIG", None)
        log = open(Path(tmp) / "serve.log", "w+b")  # noqa: SIM115 - closed below
        proc = subprocess.Popen(
            [sys.executable, "-m", "memlane.serve.cli", "--db", target, "serve",
             "--port", str(port), "--no-worker", "--workers", str(workers)], stdout=log, stderr=subprocess.STDOUT, env=env,
            cwd=tmp)
        url = f"http://127.0.0.1:{port}"
        try:
            try:
                _wait_ready(url, proc, timeout=60.0)
            except click.ClickException as exc:  # say why: its own words are in its log
                log.flush()
                log.seek(0)
                said = log.read().decode(errors="replace").strip()[-1500:]
                raise click.ClickException(f"{exc.message}; it said:\n{said}" if said
                                           else exc.message) from None
            _warm(url, key, words, scopes)
            pids = _process_tree(proc.pid)
            server0, client0 = _cpu_seconds(pids), time.process_time()
            result = _load(url, key, words, clients, seconds, batch, scopes, seed, mix)
            server1, client1 = _cpu_seconds(pids), time.process_time()
            requests = sum(a["count"] for a in result["actions"].values()) or 1
            result["client_cpu_ms_per_request"] = round((client1 - client0) * 1000 / requests, 2)
            result["server_cpu_ms_per_request"] = (
                round((server1 - server0) * 1000 / requests, 2)
                if server0 is not None and server1 is not None else None)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                rc = proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                rc = proc.wait(timeout=10)
            log.seek(0)
            tail = log.read().decode(errors="replace")[-2000:]
            log.close()
        result.update({"backend": "postgres" if target.startswith("postgres") else "sqlite",
                       "shutdown_exit_code": rc, "clients": clients, "seconds": seconds,
                       "batch": batch, "workers": workers,
                       "messages_before": scopes * per_scope})
        if rc != 0:
            result["serve_log_tail"] = tail
        return result


def _wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise click.ClickException(f"memlane serve exited with status {proc.returncode}")
        try:
            if httpx.get(url + "/readyz", timeout=2.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise click.ClickException(f"memlane serve was not ready within {timeout:.0f}s")


def _warm(url: str, key: str, words: list[str], scopes: int) -> None:
    """Load the embedder and vector index before timing (the first search pays for it)."""
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"},
                      timeout=120.0) as http:
        for i in range(3):
            http.post("/actions", json={"kind": "memory.pack", "input": {
                "query": f"{words[i]} {words[-i - 1]}", "scope": f"bench-{i % scopes}"}})


def _load(url: str, key: str, words: list[str], clients: int, seconds: float, batch: int,
          scopes: int, seed: int, mix: tuple[tuple[str, float], ...]) -> dict[str, Any]:
    latencies: dict[str, list[float]] = {name: [] for name, _ in mix}
    errors: list[str] = []
    added = [0]
    lock = threading.Lock()
    start_at = time.monotonic() + 0.5
    stop_at = start_at + seconds

    def client(n: int) -> None:
        rng = random.Random(seed * 1000 + n)
        names = [name for name, _ in mix]
        weights = [w for _, w in mix]
        seq = 0
        http = _Connection(url, key)
        try:
            while time.monotonic() < start_at:
                time.sleep(0.01)
            while time.monotonic() < stop_at:
                name = rng.choices(names, weights)[0]
                scope = f"bench-{rng.randrange(scopes)}"
                query = " ".join(rng.sample(words, 2))
                if name == "search":
                    body = {"kind": "memory.search", "input": {"query": query, "scope": scope}}
                elif name == "pack":
                    body = {"kind": "memory.pack",
                            "input": {"query": query, "scope": scope, "budget": 500}}
                else:
                    scope = f"load-{n}-{seq // 20}"  # new conversations, as live traffic makes
                    body = {"kind": "memory.add", "input": {"messages": [
                        {"scope": scope, "role": "user", "text": f"{query} number {seq} {i}"}
                        for i in range(batch)]}}
                    seq += 1
                t0 = time.perf_counter()
                try:
                    status, text = http.post("/actions", body)
                    ok = status == 200
                    why = f"{name}: {status} {text[:120]}"
                except (OSError, http_client.HTTPException) as e:
                    ok, why = False, f"{name}: {type(e).__name__} {e}"
                    http.close()
                ms = (time.perf_counter() - t0) * 1000
                with lock:
                    if ok:
                        latencies[name].append(ms)
                        if name == "add":
                            added[0] += batch
                    else:
                        errors.append(why)
        finally:
            http.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 90)
    elapsed = max(time.monotonic() - start_at, 1e-9)
    actions = {name: {"count": len(v), "per_s": round(len(v) / elapsed, 1), "p50_ms": _pct(v, 50),
                      "p95_ms": _pct(v, 95), "p99_ms": _pct(v, 99)}
               for name, v in latencies.items()}
    return {"elapsed_s": round(elapsed, 1), "actions": actions,
            "requests_per_s": round(sum(len(v) for v in latencies.values()) / elapsed, 1),
            "messages_added_per_s": round(added[0] / elapsed, 1),
            "errors": len(errors), "first_errors": errors[:5]}


@ignores_global(config="measures memlane's defaults on a fresh database and reads no config file")
@click.command("serve")
@click.option("--clients", default=8, show_default=True, type=click.IntRange(1, 256),
              help="Concurrent client threads.")
@click.option("--seconds", default=20.0, show_default=True, type=click.FloatRange(1, 3600),
              help="How long the load runs.")
@click.option("--db", default=None, metavar="URL",
              help="An empty scratch PostgreSQL database (default: a temporary SQLite file).")
@click.option("--batch", default=50, show_default=True, type=click.IntRange(1, 10_000),
              help="Messages per add request.")
@click.option("--mix", "mix_text", default="search=0.6,pack=0.2,add=0.2", show_default=True,
              help="Action weights, or one action alone (e.g. --mix search).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="memlane serve processes (memlane serve --workers).")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def serve_command(clients: int, seconds: float, db: str | None, batch: int, mix_text: str,
                  workers: int, as_json: bool) -> None:
    """Load a real memlane serve on loopback: mixed add/search/pack, latency per action."""
    mix = parse_mix(mix_text)
    if db:
        from memlane.bench.cli import scratch_db

        scratch_db(db)
    click.echo("filling and starting memlane serve on "
               f"{public_url(db) if db else 'a temporary SQLite file'}…", err=True)
    r = run_serve_bench(clients=clients, seconds=seconds, db=db, batch=batch, mix=mix,
                        workers=workers)
    if as_json:
        click.echo(json.dumps(r, indent=2))
    else:
        _print_run(r)
    if r["errors"] and not any(a["count"] for a in r["actions"].values()):
        raise click.ClickException(f"every request failed ({r['errors']}); the first: "
                                   f"{r['first_errors'][0]}")


def _print_run(r: dict[str, Any]) -> None:
    click.echo(f"{r['backend']}, {r['workers']} serve process(es): {r['clients']} clients "
               f"for {r['elapsed_s']}s, "
               f"{r['requests_per_s']:,.0f} requests/s, {r['messages_added_per_s']:,.0f} "
               f"messages added/s (batches of {r['batch']}), {r['errors']} error(s); "
               f"shutdown exit code {r['shutdown_exit_code']}")
    if r["server_cpu_ms_per_request"] is not None:
        click.echo(f"CPU per request: server {r['server_cpu_ms_per_request']} ms, "
                   f"load generator {r['client_cpu_ms_per_request']} ms")
    click.echo("| action | count | per s | p50 ms | p95 ms | p99 ms |")
    click.echo("|---|---:|---:|---:|---:|---:|")
    for name, a in r["actions"].items():
        click.echo(f"| {name} | {a['count']:,} | {a['per_s']:,.1f} | {a['p50_ms']} | "
                   f"{a['p95_ms']} | {a['p99_ms']} |")
    for e in r["first_errors"]:
        click.echo(f"error: {e}", err=True)
