"""CPU of a page of the items no session holds (``Store.loose_items``, the meaning backfill's
walk) on a SQLite database of many such items, with and without the ``items_loose`` index
(docs/hardening.md, "Session 35: rev35").

    PYTHONPATH=src .venv/bin/python tools/loose_items_pages.py --items 200000

Builds a migrated database under a temporary directory, stores one upserted decision, then
copies its row ``--items`` times (SQL inserts: kinds drawn from decision, preference, note,
fact; no session), and prints the CPU (``time.process_time``) of a page of 50 from the top,
from the middle and near the bottom, and of ``count_loose_items``, with the index and then
with it dropped (session 34's reads).
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=200_000)
    a = ap.parse_args()

    from memlane.retrieve.meaning import RESCORED_KINDS
    from memlane.store.sqlite.store import SqliteStore
    from memlane.testing import memory

    kinds = sorted(RESCORED_KINDS)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "loose.db"
        with memory(path) as m:
            m.upsert("a decision", kind="decision", scope="a")
        db = sqlite3.connect(path)
        row = db.execute("SELECT * FROM items").fetchone()
        cols = [r[1] for r in db.execute("PRAGMA table_info(items)")]
        rnd = random.Random(7)
        rows = []
        for i in range(a.items):
            r = list(row)
            r[0], r[cols.index("dedupe_hash")] = None, None
            r[cols.index("text")] = f"decision number {i}"
            r[cols.index("kind")] = rnd.choice(["decision", "preference", "note", "fact"])
            rows.append(r)
        db.executemany(f"INSERT INTO items ({', '.join(cols)}) VALUES"
                       f" ({', '.join('?' * len(cols))})", rows)
        db.commit()
        top = int(db.execute("SELECT max(id) FROM items").fetchone()[0])
        for label in ("items_loose", "without it (session 34)"):
            if label != "items_loose":
                db.execute("DROP INDEX items_loose")
                db.commit()
            s = SqliteStore(path)
            out = []
            for before in (None, top // 2, 1000):
                t = time.process_time()
                s.loose_items(kinds, before=before, limit=50)
                out.append(f"page below {before}: {(time.process_time() - t) * 1e3:.1f} ms")
            t = time.process_time()
            n = s.count_loose_items(kinds)
            out.append(f"count ({n}): {(time.process_time() - t) * 1e3:.1f} ms")
            s.close()
            print(f"{label:<24} " + "; ".join(out))
        db.close()


if __name__ == "__main__":
    main()
