"""How often a writable SQLite database asks ``opens_read_only`` (whether the file was made
read-only while open) and what that costs (session 39; docs/hardening.md, "Session 39:
rev39").

    PYTHONPATH=src python tools/write_judgment_cost.py [--runs 200] [--db PATH]

A SQLite file (kept with ``--db`` when it exists, so one file serves a run before and after
a change) holds one indexed session and a fact of scope ``s``. For ``add_message``,
``search`` and ``pack`` it counts the ``opens_read_only`` calls of one call (the module's
function wrapped), and times the judgment a write asks (``Database._made_read_only``, or
``opens_read_only`` itself where the database has none) over ``--runs`` calls, and each of
the three calls: medians in microseconds, CPU time (``time.process_time_ns``, less noisy
than wall time on a shared machine). Session 40: also the statements of each call that
``_WRITE_STATEMENT`` (the first-word regex a single statement outside a transaction is
read by, ``Database._writing``) matched against, and what matching them all costs once
(``write_regex_us``, the median of ``--runs`` passes over the call's statements). Prints
one JSON line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memlane.memory import Memory
from memlane.store.sqlite import db as sqlite_db


def fill(mem: Memory) -> None:
    mem.add_message("s", "user", "I moved to Lisbon in March", at="2024-03-02T10:00:00Z")
    mem.add_message("s", "assistant", "Lisbon is lovely in spring", at="2024-03-02T10:01:00Z")
    mem.close_session("s")
    mem.index("2024-06-01T00:00:00Z")
    mem.add_fact("user", "lives in", "Lisbon", scope="s")


def median_us(call: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time_ns()
        call()
        times.append(time.process_time_ns() - start)
    return round(statistics.median(times) / 1000, 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--db", default=None, help="SQLite file to use (filled when it does not exist)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.db) if args.db else Path(tmp) / "m.db"
        new = not path.exists()
        with Memory(str(path)) as mem:
            if new:
                fill(mem)
            db = mem.store.db  # type: ignore[attr-defined]
            asked = [0]
            judge = sqlite_db.opens_read_only

            def counted(*a: Any, **k: Any) -> bool:
                asked[0] += 1
                return judge(*a, **k)

            calls = {
                "add_message": lambda: mem.add_message("s", "user", "the tram was late"),
                "search": lambda: mem.search("Lisbon", scope="s"),
                "pack": lambda: mem.pack("where do I live", scope="s"),
            }
            regex = getattr(sqlite_db, "_WRITE_STATEMENT", None)
            read: list[str] = []

            class Recorded:  # the regex, its statements recorded
                @staticmethod
                def match(sql: str) -> Any:
                    read.append(sql)
                    return regex.match(sql) if regex is not None else None

            sqlite_db.opens_read_only = counted
            if regex is not None:
                sqlite_db._WRITE_STATEMENT = Recorded  # type: ignore[assignment]
            try:
                per_call, statements = {}, {}
                for name, call in calls.items():
                    call()  # (a first call's caches filled)
                    asked[0] = 0
                    read.clear()
                    call()
                    per_call[name] = asked[0]
                    statements[name] = list(read)
            finally:
                sqlite_db.opens_read_only = judge
                if regex is not None:
                    sqlite_db._WRITE_STATEMENT = regex
            made = getattr(db, "_made_read_only", None)
            one = made if made is not None else (lambda: judge(db._file, resolved=True))
            out = {"asks_per_call": per_call, "judgment_us": median_us(one, args.runs * 10)}
            if regex is not None:
                out["write_regex_per_call"] = {n: len(v) for n, v in statements.items()}
                out["write_regex_us"] = {
                    n: median_us(lambda v=v: [regex.match(sql) for sql in v], args.runs * 10)
                    for n, v in statements.items()}
            out.update({f"{name}_us": median_us(call, args.runs) for name, call in calls.items()})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
