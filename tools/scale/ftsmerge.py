# Scripts behind docs/scaling.md (run with the project venv).
"""Merge a SQLite store's lexical index into one segment, as a bulk load now ends.

    python tools/scale/ftsmerge.py DB

For a database built before ``merge_lexical_index`` ran at the end of the bench's bulk
load (``tools/scale/lexprof.py DB N``, ``memlane bench ingest --bulk``): runs it and prints
the segments (by ``items_fts_idx``) and FTS5 records before and after, and the seconds taken.
"""
import sys, time

from memlane.store import open_store

store = open_store(sys.argv[1])


def shape() -> tuple[int, int]:
    seg = store.db.execute("SELECT count(DISTINCT segid) FROM items_fts_idx").fetchone()[0]
    return seg, store.db.execute("SELECT count(*) FROM items_fts_data").fetchone()[0]


print("segments, records before:", shape(), flush=True)
t = time.perf_counter()
store.merge_lexical_index()
print(f"merged in {time.perf_counter() - t:.1f} s; segments, records after:", shape())
store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
store.close()
