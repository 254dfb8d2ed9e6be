# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""The HNSW build at the end of an indexing run, variant by variant, on one database.

    python tools/scale/hnswbuild.py 100000 [VARIANT ...] [--queries 500]

Indexes N bench messages once (static embedder, the graph build left out), then for each
variant: drops any HNSW index, runs one ``CREATE INDEX`` and reports its wall time, the
server's CPU seconds (every PostgreSQL process, parallel build workers included, from
/proc), any NOTICE the build raised (pgvector's "graph no longer fits into
maintenance_work_mem"), the index's size and recall@10 against exact float32 search
for QUERIES bench queries (unfiltered; ``hnsw.ef_search`` 150 and the other search
settings of the store's connections). A variant is ``key=value`` pairs joined by commas:

    ef=40,m=16,workers=2,mem=1GB,type=vector   (the defaults)

``type=halfvec`` indexes ``vec::halfvec(dim)`` with ``halfvec_cosine_ops`` (and searches
with a halfvec query). Each variant is run in the given order; repeat one to see its spread.
"""
import os, sys, time, uuid
from datetime import UTC, datetime

import numpy as np
import psycopg

from memlane.bench.ingest import _query, add_synthetic, exact_top, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory
from memlane.store.postgres import search as pgsearch
from memlane.testing.postgres import create_database, postgres_server

TICK = os.sysconf("SC_CLK_TCK")
DEFAULT = {"ef": "40", "m": "16", "workers": "2", "mem": "1GB", "type": "vector"}


def cpu(pid: int, children: bool = False) -> float:
    with open(f"/proc/{pid}/stat") as fh:
        f = fh.read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12]) + ((int(f[13]) + int(f[14])) if children else 0)) / TICK


def parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as fh:
        return int(fh.read().rsplit(")", 1)[1].split()[1])


def server_cpu(master: int) -> float:
    total = cpu(master, children=True)
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if parent(int(p)) == master:
                    total += cpu(int(p))
            except (OSError, IndexError, ValueError):
                continue
    return total


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    nq = int(sys.argv[sys.argv.index("--queries") + 1]) if "--queries" in sys.argv else 500
    if "--queries" in sys.argv:
        args.remove(str(nq))
    n = int(args[0])
    variants = args[1:] or ["ef=40"]
    pgsearch.HNSW_ABOVE = 10**12  # the indexing run builds no graph: the variants do
    with postgres_server() as url:
        db = create_database(url, f"hnsw_{uuid.uuid4().hex[:6]}")
        mem = Memory(config=load_config(environ={}, overrides={
            "db": db, "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
        turns = synthetic_turns(n)
        mem.index(now=add_synthetic(mem, turns, datetime(2024, 1, 1, tzinfo=UTC)))
        model = mem.embeddings.model
        rng = np.random.default_rng(11)
        queries = [mem.embeddings.for_query(_query(turns, rng)) for _ in range(nq)]
        got = mem.store.item_vectors(model, mem.store.filter_ids(__import__(
            "memlane.store.filters", fromlist=["Filters"]).Filters()))
        ids = np.fromiter(got, dtype=np.int64, count=len(got))
        matrix = np.stack([got[i] for i in ids.tolist()])
        dim = matrix.shape[1]
        want = [set(exact_top(matrix, ids, q, 10)) for q in queries]
        mem.close()
        conn = psycopg.connect(db, autocommit=True)
        notices: list[str] = []
        conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
        conn.execute("VACUUM ANALYZE vectors")
        master = parent(int(conn.execute("SELECT pg_backend_pid()").fetchone()[0]))
        print(f"{n} vectors of {dim} dims, {nq} queries;", os.popen("uptime").read().strip(), flush=True)
        print("| variant | wall s | server CPU s | index MB | recall@10 | notices | load avg |")
        print("|---|---:|---:|---:|---:|---|---|")
        for spec in variants:
            v = dict(DEFAULT, **dict(kv.split("=", 1) for kv in spec.split(",") if kv))
            t = v["type"]
            ops = {"vector": "vector_cosine_ops", "halfvec": "halfvec_cosine_ops"}[t]
            conn.execute("DROP INDEX IF EXISTS hnsw_x")
            conn.execute("CHECKPOINT")
            notices.clear()
            load0 = os.getloadavg()[0]
            c0, w0 = server_cpu(master), time.perf_counter()
            with conn.transaction():
                conn.execute(f"SET LOCAL maintenance_work_mem = '{v['mem']}'")
                conn.execute(f"SET LOCAL max_parallel_maintenance_workers = {int(v['workers'])}")
                conn.execute(
                    f"CREATE INDEX hnsw_x ON vectors USING hnsw ((vec::{t}({dim})) {ops})"
                    f" WITH (m = {int(v['m'])}, ef_construction = {int(v['ef'])})"
                    f" WHERE model = '{model}' AND dim = {dim}")
            wall, scpu = time.perf_counter() - w0, server_cpu(master) - c0
            size = conn.execute("SELECT pg_relation_size('hnsw_x')").fetchone()[0] / 2**20
            hits = 0
            with conn.transaction():
                conn.execute("SET LOCAL hnsw.ef_search = 150")
                conn.execute("SET LOCAL enable_seqscan = off")
                for q, w in zip(queries, want, strict=True):
                    lit = "[" + ",".join(f"{x:.7g}" for x in np.asarray(q, np.float32)) + "]"
                    rows = conn.execute(
                        f"SELECT item_id FROM vectors WHERE model = '{model}' AND dim = {dim}"
                        f" ORDER BY (vec::{t}({dim})) <=> %s::{t}({dim}) LIMIT 10", (lit,)).fetchall()
                    hits += len(w & {r[0] for r in rows})
            print(f"| {spec} | {wall:.1f} | {scpu:.1f} | {size:.0f} | {hits / (10 * nq):.3f} |"
                  f" {'; '.join(notices) or '-'} | {load0:.1f} → {os.getloadavg()[0]:.1f} |", flush=True)
        conn.close()


if __name__ == "__main__":
    main()
