"""What migration ``name_symbols`` (session 31; docs/facts.md) costs on a SQLite file.

    PYTHONPATH=src:tools python tools/name_rekey_cost.py DB [--facts 20000]

``DB`` a new file. Stores ``--facts`` ``likes`` facts, a tenth as many entities and a quarter
as many relations, their names keyed as before session 31 (every symbol a space: "C++",
"C#" and "C" one key), then runs the re-keying step twice, each in one transaction: the
first writes every key, the second finds nothing to do. Prints CPU and wall seconds of each
(``tools/rekey_cost.py``'s ``rekey_twice``)."""

from __future__ import annotations

import argparse

from memlane.index.normalize import normalize_value
from memlane.store import open_store
from memlane.store.rekey import _before_symbols, rekey_symbols
from rekey_cost import rekey_twice

NAMES = ["C++", "C#", "F#", "AT&T", "Ana", "José", "Lisbon", "Procter & Gamble", "team (EU)", "5 °C room"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--facts", type=int, default=20_000)
    a = ap.parse_args()
    s = open_store(a.db)
    with s.atomic():
        for i in range(a.facts):
            subject, value = f"{NAMES[i % 10]} {i // 100}", NAMES[(i // 10) % 10]
            s.insert_fact({"item_id": None, "scope": f"s{(i // 10) % 50}", "subject": subject,
                           "predicate": "likes", "object": value, "norm_subject": _before_symbols(subject),
                           "norm_predicate": "likes", "norm_object": normalize_value(value),
                           "source": "stated", "session_id": None, "message_id": None, "at": 1e9 + i})
        for i in range(a.facts // 10):
            name = f"{NAMES[i % 10]} {i // 10}"
            s.upsert_entity(f"s{i % 50}", name, _before_symbols(name), "thing", "", 1e9 + i)
        for i in range(a.facts // 4):
            s.insert_relation(f"s{i % 50}", _before_symbols(f"{NAMES[i % 10]} {i // 100}"), "likes",
                              _before_symbols(NAMES[(i // 7) % 10]), None, None, 1e9 + i)
    rekey_twice(s, rekey_symbols)
    s.close()


if __name__ == "__main__":
    main()
