# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""What each part of an item insert costs the server: N bench items (indexed once, no HNSW
graph), copied again batch by batch into copies of ``items`` that differ in one thing.

    python tools/scale/pginsertprof.py 100000 [VARIANT ...]

A variant names what its copy leaves out, joined by commas: an index of ``items`` (e.g.
``items_lane``), ``fk`` (the two foreign keys, which the copy otherwise has), ``tsv`` (the
generated tsvector and its GIN index: a plain column instead) or ``all`` (a copy with
everything). Each copy takes the rows of ``items`` in batches of 640 by id (the indexer's
batch: 64 sessions of 10 turns), one ``INSERT ... SELECT`` a batch; reported: the server's
CPU seconds for the batches (the backend's, from /proc) and the wall time.
"""
import os, sys, time, uuid
from datetime import UTC, datetime

import psycopg

from memlane.bench.ingest import add_synthetic, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory
from memlane.store.postgres import search as pgsearch
from memlane.testing.postgres import create_database, postgres_server

TICK = os.sysconf("SC_CLK_TCK")


def cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as fh:
        f = fh.read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / TICK


def main() -> None:
    n = int(sys.argv[1])
    variants = sys.argv[2:] or ["all"]
    pgsearch.HNSW_ABOVE = 10**12
    with postgres_server() as url:
        db = create_database(url, f"ins_{uuid.uuid4().hex[:6]}")
        mem = Memory(config=load_config(environ={}, overrides={
            "db": db, "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
        mem.index(now=add_synthetic(mem, synthetic_turns(n), datetime(2024, 1, 1, tzinfo=UTC)))
        mem.close()
        conn = psycopg.connect(db, autocommit=True)
        conn.execute("VACUUM ANALYZE")
        pid = int(conn.execute("SELECT pg_backend_pid()").fetchone()[0])
        cols = [r[0] for r in conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'items'"
            " AND column_name <> 'tsv' ORDER BY ordinal_position")]
        lo, hi = conn.execute("SELECT min(id), max(id) FROM items").fetchone()
        indexes = [r[0] for r in conn.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'items' ORDER BY indexname")]
        print(f"{n} items; indexes of items: {', '.join(indexes)};",
              os.popen("uptime").read().strip(), flush=True)
        print("| copy without | batches | wall s | server CPU s | load avg |")
        print("|---|---:|---:|---:|---|")
        col_list = ", ".join(cols)
        for spec in variants:
            leave = set(spec.split(",")) - {"all"}
            conn.execute("DROP TABLE IF EXISTS items_x")
            conn.execute("CREATE TABLE items_x (LIKE items INCLUDING ALL)")
            if "tsv" in leave:
                conn.execute("ALTER TABLE items_x ALTER COLUMN tsv DROP EXPRESSION")
            for name in indexes:
                copy = conn.execute(
                    "SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
                    " JOIN pg_class t ON t.oid = x.indrelid WHERE t.relname = 'items_x'"
                    " AND pg_get_indexdef(x.indexrelid) = replace(pg_get_indexdef(%s::regclass),"
                    " 'ON public.items ', 'ON public.items_x ')", (name,)).fetchone()
                if copy and (name in leave or (name == "items_tsv" and "tsv" in leave)):
                    conn.execute(f'DROP INDEX "{copy[0]}"')
            if "fk" not in leave:
                conn.execute("ALTER TABLE items_x ADD FOREIGN KEY (session_id) REFERENCES sessions (id)"
                             " ON DELETE CASCADE")
                conn.execute("ALTER TABLE items_x ADD FOREIGN KEY (message_id) REFERENCES messages (id)"
                             " ON DELETE CASCADE")
            conn.execute("CHECKPOINT")
            load0 = os.getloadavg()[0]
            c0, w0 = cpu(pid), time.perf_counter()
            k = 0
            for start in range(lo, hi + 1, 640):
                conn.execute(f"INSERT INTO items_x ({col_list}) SELECT {col_list} FROM items"
                             " WHERE id >= %s AND id < %s ORDER BY id", (start, start + 640))
                k += 1
            wall, scpu = time.perf_counter() - w0, cpu(pid) - c0
            print(f"| {spec} | {k} | {wall:.1f} | {scpu:.2f} | {load0:.1f} → {os.getloadavg()[0]:.1f} |",
                  flush=True)
        conn.close()


if __name__ == "__main__":
    main()
