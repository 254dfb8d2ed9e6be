"""What ``memlane gc``'s reading of sessions (session 33; docs/facts.md, "Session 33:
relations gc places by reading their session") costs on a SQLite file.

    PYTHONPATH=src python tools/gc_reading_cost.py [N]

``N`` (300) one-message sessions in one scope, each stating "I work at Zqbake Corp in
Lisbon as a baker, day i." (its relation's end, the long object, is no node, and no
summary says so: ``gc`` reads the session's messages on every run), closed and indexed;
then ``Memory.gc`` three times. Prints the relations, those removed, and the CPU seconds
of each run, sorted."""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memlane.testing import memory

NOW = datetime(2024, 6, 1, tzinfo=UTC)


def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        mem = memory(Path(tmp) / "gc.db")
        try:
            for i in range(n):
                mem.add_message("a", "user", f"I work at Zqbake Corp in Lisbon as a baker, day {i}.",
                                at=NOW - timedelta(days=n - i))
                mem.close_session("a")
            mem.index(now=NOW)
            runs = []
            for _ in range(3):
                started = time.process_time()
                report = mem.gc(NOW)
                runs.append(round(time.process_time() - started, 3))
            relations = mem.store._run("SELECT count(*) FROM relations").fetchone()[0]
            print(f"relations {relations}, removed {report.relations_removed}, "
                  f"gc CPU s {sorted(runs)}")
        finally:
            mem.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
