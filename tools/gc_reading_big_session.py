"""What ``memlane gc``'s reading of sessions (session 33; docs/facts.md, "Session 33:
relations gc places by reading their session") costs for one large session (rev34's
review; ``tools/gc_reading_cost.py`` measures many one-message sessions).

    PYTHONPATH=src python tools/gc_reading_big_session.py [N]

One session of ``N`` (2000) messages naming 22 people and two places, the first stating
"I work at Zqbake Corp in Lisbon as a baker." (its relation's end, the long object, is no
node), closed and indexed with the offline backend: its summary lists 20 entities, a full
list, so ``gc`` reads the session's messages with the patterns on every run. Prints the
relations, the summary's entity count, and the CPU seconds of the index and of each of
three ``Memory.gc`` runs."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memlane.testing import memory

NOW = datetime(2024, 6, 1, tzinfo=UTC)
NAMES = ["Ana", "Bruno", "Carla", "Diego", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas",
         "Kira", "Luis", "Marta", "Nuno", "Olga", "Pedro", "Quinn", "Rosa", "Sofia", "Tiago",
         "Uma", "Vasco"]


def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        mem = memory(Path(tmp) / "gc.db")
        try:
            rows = [{"scope": "a", "role": "user" if i % 2 == 0 else "assistant",
                     "text": f"I talked with {NAMES[i % len(NAMES)]} about the trip to Lisbon "
                             f"and Porto, day {i}.",
                     "at": (NOW - timedelta(minutes=n - i)).isoformat()} for i in range(n)]
            rows[0]["text"] = "I work at Zqbake Corp in Lisbon as a baker."
            mem.add_messages(rows)
            mem.close_session("a")
            started = time.process_time()
            mem.index(now=NOW)
            indexed = round(time.process_time() - started, 3)
            runs = []
            for _ in range(3):
                started = time.process_time()
                report = mem.gc(NOW)
                runs.append(round(time.process_time() - started, 3))
            run = mem.store._run
            relations = run("SELECT count(*) FROM relations").fetchone()[0]
            listed = len(json.loads(run("SELECT entities FROM items WHERE kind = 'summary'")
                                    .fetchone()[0]))
            print(f"messages {n}, relations {relations}, summary entities {listed}, "
                  f"removed {report.relations_removed}, index CPU s {indexed}, "
                  f"gc CPU s {sorted(runs)}")
        finally:
            mem.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
