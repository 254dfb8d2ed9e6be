# Scripts behind docs/scaling.md (run with the project venv; starts its own test PostgreSQL
# unless given a server URL).
"""add_message throughput per block of messages, as ``memlane bench ingest`` adds them.

    python tools/scale/addrate.py N [BLOCK] [--db URL]

On a fresh database of the test server (fsync off), or a fresh SQLite file with
``--sqlite``. Prints messages/s for each block, so a rate that falls as the tables grow
shows, and the table and index sizes at the end.
"""
import os, sys, tempfile, time, uuid
from contextlib import nullcontext
from datetime import UTC, datetime, timedelta

from memlane.bench.ingest import synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing.postgres import create_database, postgres_server

args = [a for a in sys.argv[1:] if not a.startswith("--")]
n = int(args[0]); block = int(args[1]) if len(args) > 1 else 10_000
server = sys.argv[sys.argv.index("--db") + 1] if "--db" in sys.argv else None
sqlite = "--sqlite" in sys.argv
turns = synthetic_turns(n)
with (nullcontext(server) if server or sqlite else postgres_server()) as url, tempfile.TemporaryDirectory() as tmp:
    db = str(os.path.join(tmp, "a.db")) if sqlite else create_database(url, f"addrate_{uuid.uuid4().hex[:6]}")
    mem = Memory(config=load_config(environ={}, overrides={
        "db": db, "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
    print(os.popen("uptime").read().strip(), flush=True)
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    start = time.perf_counter()
    for i, text in enumerate(turns):
        session, pos = divmod(i, 10)
        at = t0 + timedelta(hours=session, seconds=pos)
        mem.add_message(f"conv-{session % 100}", "user" if pos % 2 == 0 else "assistant", text, at)
        if (i + 1) % block == 0:
            now = time.perf_counter()
            print(f"{i + 1:>9,} messages: {block / (now - start):,.0f}/s", flush=True)
            start = now
    if not sqlite:
        for r in mem.store.db.execute(
                "SELECT relname, pg_size_pretty(pg_total_relation_size(oid)) FROM pg_class"
                " WHERE relname IN ('messages', 'sessions', 'changes', 'counters')").fetchall():
            print(*r)
    print(os.popen("uptime").read().strip(), flush=True)
    mem.close()
