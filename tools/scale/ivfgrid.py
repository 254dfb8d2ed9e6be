# Scripts behind docs/scaling.md (run with the project venv).
"""IVF settings on the bench's real vectors: probe width, candidates re-scored, code type.

    python tools/scale/ivfgrid.py DB N [CODES ...]

DB holds the bench's N synthetic turns (``tools/scale/lexprof.py DB N``). Reads every
vector of the static embedder into a ``VectorIndex`` (as the store does), builds IVF lists
with each code type given (a faiss ``index_factory`` suffix: ``SQ8`` default; also
``SQfp16``, ``SQ4``, ``PQ128x4fs``...; ``+kept2`` keeps every dimension in the lists,
``+kept0.97`` another share of the spread: ``vector_index.SPREAD_KEPT``) and, for a
grid of ``nprobe`` and candidate counts, times ``VectorIndex.search`` on the bench's
queries (limit 10, and the 316-row pool a 200-candidate search asks for) with recall@10
against the exact float32 scan of the same index.
"""
import os, statistics, sys, time

import numpy as np

import memlane.store.vector_index as vi
from memlane.bench.ingest import _query, rss_mb, synthetic_turns
from memlane.config import load_config
from memlane.memory import Memory

db, n = sys.argv[1], int(sys.argv[2])
codes = sys.argv[3:] or ["SQ8"]
turns = synthetic_turns(n)
mem = Memory(config=load_config(environ={}, overrides={"db": db, "embedding": {"backend": "static"},
                                                       "indexing": {"enabled": False}}))
store, model = mem.store, mem.embeddings.model
rng = np.random.default_rng(11)
qs = [mem.embeddings.for_query(_query(turns, rng)) for _ in range(250)]  # the bench's 200 searches, 50 recall
index = store._sync_index(model, mem.embedder.dim)
print(f"loaded {len(index)} rows, rss {rss_mb():.0f} MiB", os.popen("uptime").read().strip(), flush=True)
index.ann_above = 10**12
ref = [[i for i, _ in index.search(q, 10)] for q in qs]
index.ann_above = 0
import faiss

_factory = faiss.index_factory
for code in codes:
    # "SQ8+sph": spherical k-means (unit centroids); "SQ8+flat": codes of the vectors, not
    # residuals; "SQ8+it20": 20 k-means iterations
    code, _, opt = code.partition("+")
    vi.NITER = int(opt[2:]) if opt.startswith("it") else 10
    # "SQ8+kept2": lists of every dimension (no projection); "SQ8+kept0.97": another share
    vi.SPREAD_KEPT = float(opt[4:]) if opt.startswith("kept") else 0.98

    def factory(*args, opt=opt):
        built = _factory(*args)
        ivf = faiss.extract_index_ivf(built)
        if opt == "sph":
            ivf.cp.spherical = True
        if opt == "flat":
            ivf.by_residual = False
        return built

    faiss.index_factory = factory
    vi.CODES = code
    t = time.perf_counter()
    index._ivf = vi._Ivf(index._mat, index._n)
    proj = index._ivf.proj
    print(f"codes {code} {opt}: build {time.perf_counter() - t:.0f} s, nlist {index._ivf.nlist},"
          f" dimensions {index.dim if proj is None else proj.shape[1]}, rss {rss_mb():.0f} MiB",
          flush=True)
    for nprobe in (index._ivf.nlist // 5, index._ivf.nlist // 4, index._ivf.nlist // 3):
        index._ivf.ivf.nprobe = nprobe
        for cands in (2000,):
            vi.CANDIDATES = cands
            for limit in (10,):
                lat, hit, cpu = [], 0, time.process_time()
                for q, r in zip(qs, ref, strict=True):
                    s = time.perf_counter()
                    got = [i for i, _ in index.search(q, limit)][:10]
                    lat.append((time.perf_counter() - s) * 1e3)
                    hit += len(set(got) & set(r))
                cpu = (time.process_time() - cpu) / len(qs) * 1e3
                print(f"  nprobe {nprobe:4d} cands {cands:5d} limit {limit:3d}: p50 {statistics.median(lat):6.2f}"
                      f" p95 {np.percentile(lat, 95):6.2f} ms, CPU {cpu:.2f} ms a search,"
                      f" recall@10 {hit / (10 * len(qs)):.3f}", flush=True)
    print(os.popen("uptime").read().strip(), flush=True)
mem.close()
