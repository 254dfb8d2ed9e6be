"""CPU of a page of the meaning backfill's walk on a SQLite database of many items no
session holds (``Store.loose_items``) and many sessions (``list_sessions(after=...)``), with
and without the indexes of migration 0022 (``items_loose``, ``sessions_time``)
(docs/hardening.md, "Session 35: rev35").

    PYTHONPATH=src .venv/bin/python tools/walk_pages.py --items 200000 --sessions 100000

Builds a migrated database under a temporary directory, stores one upserted decision and
one closed session, then copies the item's row ``--items`` times (SQL inserts: kinds drawn
from decision, preference, note, fact; no session) and the session's ``--sessions`` times
(a minute apart, 500 scopes), and prints the CPU (``time.process_time``) of a page of 50
from the top, from the middle and near the bottom, and of ``count_loose_items``, with the
indexes and then with them dropped (session 34's reads).
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
    ap.add_argument("--sessions", type=int, default=100_000)
    a = ap.parse_args()

    from memlane.retrieve.meaning import RESCORED_KINDS
    from memlane.store.sqlite.store import SqliteStore
    from memlane.testing import memory

    kinds = sorted(RESCORED_KINDS)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "loose.db"
        with memory(path) as m:
            m.upsert("a decision", kind="decision", scope="a")
            m.add_message("a", "user", "a turn")
            m.close_session("a")
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
        srow = db.execute("SELECT * FROM sessions").fetchone()
        scols = [r[1] for r in db.execute("PRAGMA table_info(sessions)")]
        sessions = []
        for i in range(a.sessions):
            r = list(srow)
            r[0], r[scols.index("scope")] = None, f"s{i % 500}"
            r[scols.index("started_at")] = 1.7e9 + 60 * i
            sessions.append(r)
        db.executemany(f"INSERT INTO sessions ({', '.join(scols)}) VALUES"
                       f" ({', '.join('?' * len(scols))})", sessions)
        db.commit()
        top = int(db.execute("SELECT max(id) FROM items").fetchone()[0])
        mid = db.execute("SELECT started_at, id FROM sessions ORDER BY started_at DESC, id DESC"
                         " LIMIT 1 OFFSET ?", (a.sessions // 2,)).fetchone()
        for label in ("with the indexes", "without (session 34)"):
            if label != "with the indexes":
                db.execute("DROP INDEX items_loose")
                db.execute("DROP INDEX sessions_time")
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
            for after in (None, (float(mid[0]), int(mid[1]))):
                t = time.process_time()
                s.list_sessions(limit=50, after=after)
                where = "top" if after is None else "middle"
                out.append(f"sessions from the {where}: {(time.process_time() - t) * 1e3:.1f} ms")
            s.close()
            print(f"{label:<21} " + "; ".join(out))
        db.close()


if __name__ == "__main__":
    main()
