"""What migration ``value_keys`` (session 28; docs/facts.md) costs on a SQLite file.

    PYTHONPATH=src python tools/value_rekey_cost.py DB [--facts 20000]

``DB`` a new file. Stores ``--facts`` ``likes`` facts keyed as before session 28 (accents
kept), ten values of a scope and subject, of which three pairs fold together ("São
Paulo"/"Sao Paulo", "Crème brûlée"/"Creme brulee", "Zürich"/"Zurich"), then runs the
re-keying step twice, each in one transaction: the first merges, the second finds nothing
to do. Prints CPU and wall seconds of each and what is left current."""

from __future__ import annotations

import argparse
import re
import time

from memlane.index.normalize import normalize_name
from memlane.store import open_store
from memlane.store.rekey import rekey_values

VALUES = ["São Paulo", "Sao Paulo", "Crème brûlée", "Creme brulee", "Zürich", "Zurich", "Lisbon", "jazz",
          "Bogotá", "Kraków"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--facts", type=int, default=20_000)
    a = ap.parse_args()
    s = open_store(a.db)
    with s.atomic():
        for i in range(a.facts):
            v = VALUES[i % len(VALUES)]
            s.insert_fact({"item_id": None, "scope": f"s{(i // 10) % 50}", "subject": f"p{i // 100}",
                           "predicate": "likes", "object": v, "norm_subject": f"p{i // 100}",
                           "norm_predicate": "likes",
                           "norm_object": re.sub(r"^(the|a|an) ", "", normalize_name(v)),
                           "source": "stated", "session_id": None, "message_id": None, "at": 1e9 + i})
    for run in ("first", "again"):
        cpu, wall = time.process_time(), time.perf_counter()
        with s.atomic():
            rekey_values(s.db)
        print(f"{run}: {time.process_time() - cpu:.2f} s CPU, {time.perf_counter() - wall:.2f} s wall")
    current = s.db.execute("SELECT count(*) FROM facts WHERE status = 'current'").fetchone()[0]
    print(f"current facts {current} of {a.facts}")
    s.close()


if __name__ == "__main__":
    main()
