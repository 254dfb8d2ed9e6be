"""Every kind of writer and reader of one PostgreSQL database at once, on a server that logs
its lock waits and deadlocks: how many deadlocks and lock timeouts it logged (session 25's
stress, kept and extended in session 26; docs/hardening.md).

    PYTHONPATH=src python tools/lock_stress.py --seconds 40 [--json]

A private server (``memlane.testing.postgres``, ``log_lock_waits``, ``deadlock_timeout``
30 ms: the log names both statements of every deadlock) and a ``memlane serve`` on it with
its own index worker (which runs hygiene every round). Seeded with closed, indexed sessions
of four scopes stating facts that supersede each other. Then, until ``--seconds`` have
passed: live messages (two threads, sessions closed now and then), late messages over HTTP
between closed sessions (sessions merged, messages moved), index runs (two threads),
hygiene runs (two threads of ``gc`` with the facts' lanes capped, notes expiring), facts told (superseded
and reinforced), facts forgotten over HTTP, erasers (``forget_item`` of turns, facts',
summaries' and observations' items; sessions over HTTP), imports of JSON Lines files,
searches (two threads over HTTP, two in the process: each touches the facts it returns), ``memlane
copy`` reading the whole database into a SQLite file, and (session 27) whole scopes erased
over HTTP (scopes ``e0``-``e2``, written by the live threads with the same texts as the
others, so their embedding cache rows are shared), batches of messages of several scopes
in random order over HTTP (late ones among them), packs journaled over HTTP, the live
stream's reads (``live_read``, which sequences the change log) and items pinned.

Prints the server log's counts (``deadlock detected``, lock timeouts, lock waits logged)
with the statements of each deadlock, and per kind the operations done and the errors
met (a thing another thread erased first, "does not exist", is counted apart: not an
error of locks). Bounded: every thread stops at the deadline, joins are bounded.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from memlane.bench.serve import _free_port, _wait_ready
from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing.postgres import postgres_server

SCOPES = ("s0", "s1", "s2", "s3")
ERASED = ("e0", "e1", "e2")  # erased whole now and then, written again by the live threads
CITIES = ("Porto", "Lisbon", "Berlin", "Madrid", "Leeds", "York")
WORK = ("Feedzai", "Acme", "Globex", "Initech")
LOG_SETTINGS = {"log_lock_waits": "on", "deadlock_timeout": "'30ms'", "max_connections": "300"}
OVERRIDES = {"hygiene": {"lane_caps": ["ephemeral=20", "profile=12", "semantic=30"]},
             "embedding": {"backend": "hashing"}}
TOML = ('[memory.hygiene]\nlane_caps = ["ephemeral=20", "profile=12", "semantic=30"]\n'
        '[memory.embedding]\nbackend = "hashing"\n[memory.serve]\nworker_poll_seconds = 0.5\n')


def memory(url: str) -> Memory:
    return Memory(config=load_config(environ={}, overrides={"db": url, **OVERRIDES}))


def said(rng: random.Random) -> str:
    return rng.choice([f"I live in {rng.choice(CITIES)}", f"I work at {rng.choice(WORK)}",
                       f"I moved to {rng.choice(CITIES)} last week",
                       f"my sister Ana lives in {rng.choice(CITIES)}",
                       "what a day it has been", "the deploy went out on Tuesday"])


class Stress:
    """The threads, their counts and their errors."""

    def __init__(self, url: str, base: str, deadline: float, seed: int) -> None:
        self.url, self.base, self.deadline = url, base, deadline
        self.seed = seed
        self.done: collections.Counter[str] = collections.Counter()
        self.gone: collections.Counter[str] = collections.Counter()
        self.errors: dict[str, collections.Counter[str]] = collections.defaultdict(
            collections.Counter)
        self.lock = threading.Lock()

    def loop(self, kind: str, step: Callable[[random.Random], Any], pause: float) -> None:
        rng = random.Random(f"{self.seed}-{kind}")
        while time.monotonic() < self.deadline:
            try:
                step(rng)
                with self.lock:
                    self.done[kind] += 1
            except Exception as e:  # noqa: BLE001 - counted and printed
                text = str(e)
                with self.lock:
                    if "does not exist" in text or " 404" in text:
                        self.gone[kind] += 1
                    else:
                        self.errors[kind][re.sub(r"\d+", "N", text.splitlines()[0])[:160]] += 1
            time.sleep(rng.uniform(0, pause))

    def http(self, method: str, path: str, **kw: Any) -> Any:
        r = httpx.request(method, self.base + path, timeout=60, **kw)
        if r.status_code >= 400:
            raise RuntimeError(f"HTTP {r.status_code} {method} {path}: {r.text[:300]}")
        return r.json()


def seed_database(url: str, now: float) -> None:
    rng = random.Random(1)
    with memory(url) as mem:
        for scope in SCOPES:
            for day in range(8):
                at = now - (30 - day * 2) * 86_400
                for k in range(4):
                    mem.add_message(scope, "user", said(rng), at=at + k * 60)
                mem.close_session(scope)
        mem.index()


def run(seconds: float, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="memlane-stress-",
                                     ignore_cleanup_errors=True) as tmp:
        os.chmod(tmp, 0o755)  # run as root, the server runs as a user of its own
        return stressed(Path(tmp), seconds, seed)


def stressed(folder: Path, seconds: float, seed: int) -> dict[str, Any]:
    with postgres_server(LOG_SETTINGS, keep=folder / "pg") as url:
        now = time.time()
        seed_database(url, now)
        log = folder / "pg" / "server.log"
        start_at = log.stat().st_size
        port = _free_port()
        toml = folder / "memlane.toml"
        toml.write_text(TOML)
        env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
        server = subprocess.Popen(
            [sys.executable, "-m", "memlane", "serve", "--db", url, "--port", str(port),
             "--config", str(toml)], env=env, stdout=subprocess.DEVNULL,
            stderr=open(folder / "serve.log", "w"))
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_ready(base, server, timeout=60.0)
            stress = Stress(url, base, time.monotonic() + seconds, seed)
            threads = start_threads(stress, url, folder, now)
            for t in threads:
                t.join(seconds + 120)
            alive = [t.name for t in threads if t.is_alive()]
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
        text = log.read_text(errors="replace")[start_at:]
    deadlocks = []
    for block in re.findall(r"ERROR:  deadlock detected\n(?:.*\n){0,8}", text):
        deadlocks.append([ln.strip() for ln in block.splitlines()
                          if "Process" in ln or "STATEMENT" in ln][:4])
    return {
        "seconds": seconds,
        "deadlocks": len(re.findall(r"ERROR:  deadlock detected", text)),
        "lock_timeouts": len(re.findall(r"lock timeout", text)),
        "lock_waits_logged": len(re.findall(r"still waiting for", text)),
        "done": dict(stress.done),
        "already_gone": dict(stress.gone),
        "errors": {k: dict(v) for k, v in stress.errors.items()},
        "deadlock_statements": deadlocks,
        "threads_left": alive,
    }


def start_threads(s: Stress, url: str, folder: Path, now: float) -> list[threading.Thread]:
    mems = [memory(url) for _ in range(4)]
    live, work, erase, other = mems

    def add_live(rng: random.Random) -> None:
        scope = rng.choice(SCOPES + ERASED)
        live.add_message(scope, rng.choice(["user", "assistant"]), said(rng))
        if rng.random() < 0.15:
            live.close_session(scope)

    def add_late(rng: random.Random) -> None:  # between closed sessions: merges and moves
        at = now - rng.uniform(2, 30) * 86_400
        s.http("POST", "/v1/messages", json={"scope": rng.choice(SCOPES), "role": "user",
                                             "text": said(rng), "at": at})

    def index(rng: random.Random) -> None:
        work.index()

    def hygiene(rng: random.Random) -> None:
        scope = rng.choice(SCOPES)
        other.upsert(f"a passing note {rng.random()}", scope=scope, ttl_seconds=1,
                     lane="ephemeral")
        other.gc()

    def tell_fact(rng: random.Random) -> None:
        other.add_fact("user", rng.choice(["lives_in", "works_at"]),
                       rng.choice(CITIES + WORK), scope=rng.choice(SCOPES))

    def forget_fact_http(rng: random.Random) -> None:
        facts = s.http("GET", "/v1/facts", params={"scope": rng.choice(SCOPES)})["facts"]
        if facts:
            s.http("DELETE", f"/v1/facts/{rng.choice(facts)['id']}")

    def forget_item(rng: random.Random) -> None:
        kind = rng.choice(["turn", "fact", "summary", "observation"])
        ids = [r[0] for r in erase.store.db.execute(
            "SELECT id FROM items WHERE kind = %s AND scope = %s ORDER BY random() LIMIT 1",
            (kind, rng.choice(SCOPES))).fetchall()]
        if ids:
            erase.forget_item(ids[0])

    def forget_session_http(rng: random.Random) -> None:
        sessions = s.http("GET", "/v1/sessions", params={"scope": rng.choice(SCOPES)})
        closed = [x for x in sessions["sessions"] if x["status"] != "open"]
        if len(closed) > 6:
            s.http("DELETE", f"/v1/sessions/{rng.choice(closed)['id']}")

    def batch_http(rng: random.Random) -> None:  # several scopes in one transaction
        rows = [{"scope": sc, "role": "user", "text": said(rng),
                 "at": now - rng.uniform(0, 30) * 86_400 if rng.random() < 0.5 else time.time()}
                for sc in rng.sample(SCOPES + ERASED, rng.randint(2, 4))]
        s.http("POST", "/v1/messages", json={"messages": rows})

    def forget_scope_http(rng: random.Random) -> None:
        s.http("DELETE", f"/v1/scopes/{rng.choice(ERASED)}")

    def pack_http(rng: random.Random) -> None:
        s.http("POST", "/v1/pack", json={"query": rng.choice(
            ["where do I live", "what happened on Tuesday"]), "scope": rng.choice(SCOPES + ERASED)})

    def live_stream(rng: random.Random) -> None:  # what a /state/memory poll does
        with live.store.live_read():
            live.store.changes_after(rng.choice(SCOPES + ERASED), 0, 200)

    def pin(rng: random.Random) -> None:
        ids = [r[0] for r in other.store.db.execute(
            "SELECT id FROM items WHERE scope = %s ORDER BY random() LIMIT 1",
            (rng.choice(SCOPES),)).fetchall()]
        if ids:
            other.pin(ids[0], rng.random() < 0.7)

    def import_file(rng: random.Random) -> None:
        path = folder / f"import-{threading.get_ident()}.jsonl"
        scope = rng.choice(SCOPES)
        start = now - rng.uniform(1, 30) * 86_400
        label = f"chat-{rng.randrange(6)}"
        lines = [{"scope": scope, "role": "user", "text": said(rng), "at": start + i * 30,
                  "session": label} for i in range(rng.randint(2, 6))]
        path.write_text("".join(json.dumps(x) + "\n" for x in lines))
        other.import_file(path)

    def search_http(rng: random.Random) -> None:
        s.http("POST", "/v1/search", json={"query": rng.choice(
            ["where do I live", "where do I work", "where does Ana live"]),
            "scope": rng.choice(SCOPES + (None,)), "k": 20})

    def search_here(rng: random.Random) -> None:
        other.search(rng.choice(["where do I live and work", "the deploy"]),
                     scope=rng.choice(SCOPES), k=20)

    def copy(rng: random.Random) -> None:
        target = folder / f"copy-{rng.randrange(10**9)}.db"
        done = subprocess.run(
            [sys.executable, "-m", "memlane", "copy", "--from", url, "--to", str(target)],
            capture_output=True, text=True, timeout=300)
        target.unlink(missing_ok=True)
        if done.returncode != 0:
            raise RuntimeError((done.stderr or done.stdout).strip()[-300:])

    kinds: list[tuple[str, Callable[[random.Random], Any], float]] = [
        ("live", add_live, 0.05), ("live", add_live, 0.05), ("late_http", add_late, 0.1),
        ("index", index, 0.2), ("index", index, 0.2), ("hygiene", hygiene, 0.3),
        ("hygiene", hygiene, 0.3),
        ("tell_fact", tell_fact, 0.1), ("forget_fact_http", forget_fact_http, 0.3),
        ("forget_item", forget_item, 0.2), ("forget_session_http", forget_session_http, 1.0),
        ("import", import_file, 0.3), ("search_http", search_http, 0.05),
        ("search_http", search_http, 0.05), ("search", search_here, 0.1),
        ("search", search_here, 0.1),
        ("copy", copy, 1.0),
        ("forget_scope_http", forget_scope_http, 1.0), ("pack_http", pack_http, 0.2),
        ("forget_fact_http", forget_fact_http, 0.3), ("forget_item", forget_item, 0.2),
        ("batch_http", batch_http, 0.1), ("batch_http", batch_http, 0.1),
        ("live_stream", live_stream, 0.1), ("pin", pin, 0.3),
    ]
    threads = [threading.Thread(target=s.loop, args=k, name=f"{k[0]}-{i}", daemon=True)
               for i, k in enumerate(kinds)]
    for t in threads:
        t.start()
    return threads


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=40.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="one JSON line")
    args = ap.parse_args()
    out = run(args.seconds, args.seed)
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
