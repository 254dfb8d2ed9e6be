# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""The vector and lexical statements of the bench's searches, alone, on a kept database
(``pgbench.py N 50 --keep DIR``; database ``bench_N``); docs/scaling.md, ninth round.

    python tools/scale/pgwalk.py settings DIR 10000 "CFG;CFG;..."
    python tools/scale/pgwalk.py filtered DIR 10000 500,1000,3000

``settings``: the 200-candidate vector statement of the bench's 200 queries over all
scopes under each configuration (``CFG``: comma-separated ``name=value`` settings, empty
for the store's own, ``exact`` for the exact scan): server CPU a statement, wall p50/p95,
recall@10 of its top 10 and of the whole list against exact float32 search.
``filtered``: the exact scan against the graph walk over the newest N items (a filter on
``at``), 60 queries: server CPU a statement and recall@10 against the exact scan.
"""
import os, statistics, json, sys, time
import numpy as np
from memlane.bench.ingest import _query, synthetic_turns
from memlane.testing.postgres import postgres_server
from memlane.config import load_config
from memlane.memory import Memory
from memlane.store.filters import Filters
import memlane.store.postgres.search as S
from memlane.store.postgres.db import Vector

mode, folder, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
arg = sys.argv[4] if len(sys.argv) > 4 else ""


def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def settings():
    configs = arg.split(";")
    LIMIT = 200
    with postgres_server(keep=folder) as url:
        mem = Memory(config=load_config(environ={}, overrides={"db": url.rsplit("/", 1)[0] + f"/bench_{n}",
            "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
        st, db, model = mem.store, mem.store.db, mem.embeddings.model
        turns = synthetic_turns(n); rng = np.random.default_rng(11)
        qs = [mem.embeddings.for_query(_query(turns, rng)) for _ in range(200)]
        pid = db.execute("SELECT pg_backend_pid()").fetchone()[0]
        allv = st.item_vectors(model, st.filter_ids(Filters()))
        ids = np.fromiter(allv, dtype=np.int64); M = np.stack([allv[i] for i in ids.tolist()])
        Mn = M / np.linalg.norm(M, axis=1, keepdims=True)
        truth = []
        for q in qs:
            s = Mn @ (q / np.linalg.norm(q)); o = np.lexsort((ids, -s))[:LIMIT]; truth.append(ids[o].tolist())
        where, params = st._where(Filters())
        print(os.popen("uptime").read().strip(), "vectors", len(ids), flush=True)
        for cfg in configs:
            sets = [s for s in cfg.split(",") if s and s != "exact"]
            for s in sets: db.execute(f"SET {s}")
            exact = "exact" in cfg
            for rep in range(2):
                lat, rec10, rec200 = [], [], []
                c0 = cpu(pid)
                for q, tr in zip(qs, truth):
                    t = time.perf_counter()
                    got = S.vector_search(db, model, q, where, params, LIMIT, scoped=False, indexed=not exact)
                    lat.append((time.perf_counter() - t) * 1e3)
                    g = [i for i, _ in got]
                    rec10.append(len(set(g[:10]) & set(tr[:10])) / 10); rec200.append(len(set(g) & set(tr)) / len(tr))
                c1 = cpu(pid)
            lat.sort()
            print(json.dumps({"cfg": cfg, "p50": round(statistics.median(lat), 2), "p95": round(lat[189], 2), "mean": round(statistics.mean(lat), 2),
                  "server_ms": round((c1 - c0) * 1e3 / len(qs), 2), "recall10_of_list": round(statistics.mean(rec10), 4),
                  "recall_list": round(statistics.mean(rec200), 4)}), flush=True)
            for s in sets: db.execute(f"RESET {s.split('=')[0].strip()}")
            # restore session settings
            db.execute("SET hnsw.ef_search = 150"); db.execute("SET hnsw.iterative_scan = relaxed_order"); db.execute("SET hnsw.max_scan_tuples = 40000")
        print(os.popen("uptime").read().strip(), flush=True)
        mem.close()


def filtered():
    sizes = [int(x) for x in arg.split(",")]
    LIMIT, NQ = 200, 60
    with postgres_server(keep=folder) as url:
        mem = Memory(config=load_config(environ={}, overrides={"db": url.rsplit("/", 1)[0] + f"/bench_{n}",
            "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
        st, db, model = mem.store, mem.store.db, mem.embeddings.model
        turns = synthetic_turns(n); rng = np.random.default_rng(11)
        qs = [mem.embeddings.for_query(_query(turns, rng)) for _ in range(NQ)]
        pid = db.execute("SELECT pg_backend_pid()").fetchone()[0]
        dim = len(qs[0])
        print(os.popen("uptime").read().strip(), flush=True)
        for N in sizes:
            at = db.execute("SELECT at FROM items WHERE status='active' ORDER BY at DESC OFFSET %s LIMIT 1", (N - 1,)).fetchone()
            f = Filters(since=at[0]) if at else Filters()
            where, params = st._where(f)
            cnt = db.execute(f"SELECT count(*) FROM items i WHERE {where}", params).fetchone()[0]
            out = {"N": cnt}
            truth = None
            for how in ("exact", "walk", "exact", "walk"):
                lat = []; lists = []
                c0 = cpu(pid)
                for q in qs:
                    t = time.perf_counter()
                    if how == "exact":
                        got = S._exact(db, model, Vector(q), dim, where, params, LIMIT, None)
                    else:
                        got = S._approximate(db, model, Vector(q), dim, where, params, LIMIT, None)
                    lat.append((time.perf_counter() - t) * 1e3); lists.append([i for i, _ in got])
                c1 = cpu(pid)
                if how == "exact": truth = lists
                rec = statistics.mean(len(set(a[:10]) & set(b[:10])) / max(1, len(b[:10])) for a, b in zip(lists, truth))
                short = sum(len(a) < min(LIMIT, cnt) for a in lists)
                out[how] = {"server_ms": round((c1 - c0) * 1e3 / NQ, 2), "p50": round(statistics.median(lat), 2), "recall10": round(rec, 3), "short": short}
            print(json.dumps(out), flush=True)
        print(os.popen("uptime").read().strip(), flush=True)
        mem.close()


{"settings": settings, "filtered": filtered}[mode]()
