# Scripts behind docs/scaling.md (run with the project venv; they start their own test PostgreSQL).
"""Paired A/B in one process, query by query (order alternating): the seventh round's
candidate read path (the vector list's items read only while the lexical list was still
being ranked, the rest by the search's get_items) against the current one (each list's items
read where it was ranked, the walk's with it: docs/scaling.md, eighth round). Unscoped
searches only (the path differs only there); the answers are compared too.

    python tools/scale/pgpaired.py DIR 10000 [ROUNDS]

DIR: a server's data kept by ``pgbench.py 10000 50 --keep DIR`` (database ``bench_N``).
"""
import sys, time, gc, statistics, numpy as np
from memlane.bench.ingest import _query, synthetic_turns
from memlane.testing.postgres import postgres_server
from memlane.config import load_config
from memlane.memory import Memory
import memlane.store.postgres.search as S
folder, n = sys.argv[1], int(sys.argv[2]); rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
new_impl = S.PostgresSearch.lexical_and_vector_search

def old_impl(self, terms, model, query, f, limit, *, timings=None):
    if limit <= 0 or len(query) == 0 or not S._clean_terms(terms) or not self._overlap(model, len(query), f):
        return S.SqlStore.lexical_and_vector_search(self, terms, model, query, f, limit, timings=timings)
    where, params = self._where(f)
    reads = self._reads()
    def lexical_timed():
        return S.lexical_search(self.db, terms, where, params, limit, self._term_stats, None)
    lexical = self._search_pool().submit(lexical_timed)
    vector = self.vector_search(model, query, f, limit)
    if reads is not None and not lexical.done():
        self._prefetch_items(i for i, _ in vector)
    return lexical.result(), vector  # (the walk: the current one's, sorted by distance)

with postgres_server(keep=folder) as url:
    mem = Memory(config=load_config(environ={}, overrides={"db": url.rsplit("/", 1)[0] + f"/bench_{n}",
        "embedding": {"backend": "static"}, "indexing": {"enabled": False}}))
    turns = synthetic_turns(n); rng = np.random.default_rng(11)
    qs = [_query(turns, rng) for _ in range(200)]
    for q in qs[:20]: mem.search(q, k=10)
    gc.collect(); gc.freeze()
    lat = {"old": [], "new": []}; same = True
    for r in range(rounds):
        for i, q in enumerate(qs):
            order = ("old", "new") if (i + r) % 2 == 0 else ("new", "old")
            got = {}
            for which in order:
                S.PostgresSearch.lexical_and_vector_search = old_impl if which == "old" else new_impl
                t = time.perf_counter(); hits = mem.search(q, k=10); lat[which].append((time.perf_counter() - t) * 1e3)
                got[which] = [(h.item.id, h.score) for h in hits]
            same &= got["old"] == got["new"]
    for k, v in lat.items():
        v2 = sorted(v); print(f"{k}: p50 {statistics.median(v):.1f} p95 {v2[int(len(v2)*0.95)-1]:.1f} mean {statistics.mean(v):.1f}")
    d = [b - a for a, b in zip(lat["old"], lat["new"])]
    print(f"new - old: mean {statistics.mean(d):.2f} ms, median {statistics.median(d):.2f}; answers identical: {same}")
    mem.close()
