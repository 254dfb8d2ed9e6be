# Scripts behind docs/scaling.md (run with the project venv).
"""CPU time of one ``add_message`` on a fresh SQLite file (no indexing): 500 warm-up
messages, then 5,500 timed, over 20 scopes. CPU time, not wall time: the wall-clock rate of
``memlane bench ingest`` moves by ±20% between runs of the same code on this machine.

    python tools/scale/addcpu.py LABEL

Compare two trees with ``PYTHONPATH=OTHER/src python tools/scale/addcpu.py other``.
"""
import os, sys, tempfile, time
from datetime import UTC, datetime, timedelta

from memlane.config import load_config
from memlane.memory import Memory

label = sys.argv[1] if len(sys.argv) > 1 else "this tree"
with tempfile.TemporaryDirectory() as d:
    mem = Memory(config=load_config(environ={}, overrides={
        "db": os.path.join(d, "a.db"), "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    texts = [f"message number {i} about the garden and the {i % 17} tomatoes we planted" for i in range(6000)]
    for i in range(500):
        mem.add_message(f"scope-{i % 20}", "user", texts[i], at=t0 + timedelta(seconds=i))
    c, w = time.process_time(), time.perf_counter()
    for i in range(500, 6000):
        mem.add_message(f"scope-{i % 20}", "user" if i % 2 else "assistant", texts[i],
                        at=t0 + timedelta(seconds=i))
    cpu, wall = time.process_time() - c, time.perf_counter() - w
    mem.close()
print(f"{label}: CPU {cpu / 5500 * 1e6:.0f} us a message, {5500 / wall:.0f} messages/s")
