"""The CPU time of a search that finds nothing in a scope of many ``shared`` items, under
the default privacy (session 34; docs/hardening.md, "Session 34: fix34").

    PYTHONPATH=src python tools/no_match_cost.py [--items 50000] [--runs 20] [--db PATH]

A SQLite file (kept with ``--db`` when it exists, so one file serves a run before and after
a change) holds ``--items`` items of privacy ``shared`` in scope ``big``, none sharing a word
with the query. Each run is what ``memlane search zebra --scope big`` does: the search, and
``nothing_note`` saying why nothing matched (which asks whether the scope holds a memory the
default privacy leaves out, and whether the scope holds anything). Prints one JSON line: the
CPU seconds (``time.process_time``) of the runs, per run, and the note.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from memlane.memory import Memory
from memlane.serve.render import nothing_note


def fill(mem: Memory, n: int) -> None:
    with mem.store.atomic():
        mem.store.insert_items([{"kind": "note", "text": f"alpha beta gamma {i}", "at": 1000.0 + i,
                                 "scope": "big", "privacy": "shared"} for i in range(n)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=50_000)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--db", default=None, help="SQLite file to use (filled when it does not exist)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.db) if args.db else Path(tmp) / "big.db"
        new = not path.exists()
        mem = Memory(path)
        try:
            if new:
                fill(mem, args.items)
            note = ""
            nothing_note(mem, "big", search=True)  # warm: caches, the first statement's plan
            start = time.process_time()
            for _ in range(args.runs):
                hits = mem.search("zebra", scope="big")
                assert not hits
                note = nothing_note(mem, "big", search=True)
            cpu = time.process_time() - start
        finally:
            mem.close()
    print(json.dumps({"items": args.items, "runs": args.runs, "cpu_s": round(cpu, 4),
                      "cpu_ms_per_run": round(cpu / args.runs * 1000, 3), "note": note}))


if __name__ == "__main__":
    main()
