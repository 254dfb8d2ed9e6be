# Scripts behind docs/scaling.md (run with the project venv; --pg starts its own test PostgreSQL).
"""A live-stream reader catching up: 10,000 add_message calls in one scope, then the best
wall time of 5 polls of all 10,000 changes (``live.poll(store, scope, 0, 10000)``: the
read, the documents filled in, the patches built).

    python tools/scale/livepoll.py LABEL [--pg]

Compare two trees with ``PYTHONPATH=OTHER/src python tools/scale/livepoll.py other``.
"""
import os, sys, tempfile, time

from memlane.config import load_config
from memlane.memory import Memory
from memlane.serve import live

label = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "--pg" else "this tree"


def run(url: str) -> None:
    mem = Memory(url, config=load_config(environ={}, overrides={
        "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
    for i in range(10000):
        mem.add_message("chat", "user", f"m {i}", at=1.7e9 + i * 10)
    live.poll(mem.store, "chat", 0, 10)  # PostgreSQL: sequence the rows first
    best = float("inf")
    for _ in range(5):
        w = time.perf_counter()
        got = live.poll(mem.store, "chat", 0, 10000)
        best = min(best, time.perf_counter() - w)
    mem.close()
    print(f"{label}: a poll of {len(got.changes)} changes, best of 5: {best * 1e3:.0f} ms")


if "--pg" in sys.argv:
    from memlane.testing.postgres import create_database, postgres_server
    with postgres_server() as server:
        run(create_database(server, "livepoll", replace=True))
else:
    with tempfile.TemporaryDirectory() as d:
        run(os.path.join(d, "a.db"))
