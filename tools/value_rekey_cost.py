"""What migration ``value_keys`` (session 28; docs/facts.md) costs on a SQLite file.

    PYTHONPATH=src python tools/value_rekey_cost.py DB [--facts 20000]

``DB`` a new file. Stores ``--facts`` ``likes`` facts keyed as before session 28 (accents
kept), ten values of a scope and subject, of which three pairs fold together ("São
Paulo"/"Sao Paulo", "Crème brûlée"/"Creme brulee", "Zürich"/"Zurich"), then runs the
re-keying step twice, each in one transaction: the first merges, the second finds nothing
to do. Prints CPU and wall seconds of each (``tools/rekey_cost.py``'s ``rekey_twice``) and
what is left current."""

from __future__ import annotations

import argparse
import re

from memlane.index.normalize import normalize_name
from memlane.store import open_store
from memlane.store.rekey import rekey_values
from rekey_cost import rekey_twice

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
    rekey_twice(s, rekey_values)
    current = s.db.execute("SELECT count(*) FROM facts WHERE status = 'current'").fetchone()[0]
    print(f"current facts {current} of {a.facts}")
    s.close()


if __name__ == "__main__":
    main()
