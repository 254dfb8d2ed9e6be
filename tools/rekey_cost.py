"""What migration ``name_keys`` (session 27; docs/facts.md) costs on a SQLite file.

    PYTHONPATH=src python tools/rekey_cost.py DB [--facts 20000] [--entities 5000]

``DB`` a new file. Stores ``--facts`` facts and ``--entities`` entities keyed as before
session 27 (``normalize_name``: accents kept), ten spellings of five names ("José"/"Jose",
"Zoë"/"Zoe", "Renée"/"Renee", "Björn"/"Bjorn", and two without accents), ten names of a
scope together, then runs the re-keying step twice, each in one transaction: the first
merges, the second finds nothing to do. Prints CPU and wall seconds of each and what is left
current. ``rekey_twice`` is also ``tools/value_rekey_cost.py``'s and ``tools/name_rekey_cost.py``'s."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from memlane.index.normalize import normalize_name
from memlane.store import open_store
from memlane.store.rekey import rekey_names

NAMES = ["José", "Jose", "Zoë", "Zoe", "Ana", "Renée", "Renee", "Björn", "Bjorn", "Tom"]


def rekey_twice(s: Any, rekey: Callable[[Any], object]) -> None:
    """Run the re-keying step ``rekey`` on the SQLite store ``s``'s connection twice, each in
    one transaction (the first merges, the second finds nothing to do); print the CPU and
    wall seconds of each."""
    for run in ("first", "again"):
        cpu, wall = time.process_time(), time.perf_counter()
        with s.atomic():
            rekey(s.db)
        print(f"{run}: {time.process_time() - cpu:.2f} s CPU, {time.perf_counter() - wall:.2f} s wall")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--facts", type=int, default=20_000)
    ap.add_argument("--entities", type=int, default=5_000)
    a = ap.parse_args()
    s = open_store(a.db)
    with s.atomic():
        for i in range(a.facts):
            n = f"{NAMES[i % len(NAMES)]} {i // 100}"
            s.insert_fact({"item_id": None, "scope": f"s{(i // 10) % 50}", "subject": n,
                           "predicate": "lives_in", "object": f"city{i}", "norm_subject": normalize_name(n),
                           "norm_predicate": "lives_in", "norm_object": f"city{i}", "source": "stated",
                           "session_id": None, "message_id": None, "at": 1e9 + i})
        for i in range(a.entities):
            n = f"{NAMES[i % len(NAMES)]} {i // 10}"
            s.upsert_entity(f"s{(i // 10) % 50}", n, normalize_name(n), "person", "", 1e9 + i)
    rekey_twice(s, rekey_names)
    current = s.db.execute("SELECT count(*) FROM facts WHERE status = 'current'").fetchone()[0]
    entities = s.db.execute("SELECT count(*) FROM entities").fetchone()[0]
    print(f"current facts {current} of {a.facts}, entities {entities} of {a.entities}")
    s.close()


if __name__ == "__main__":
    main()
