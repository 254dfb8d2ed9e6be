"""VectorIndex at N x 256-d clustered unit vectors in 100 scopes: exact float32 vs the IVF path,
back to back, and scoped searches while the IVF index builds in its background thread."""
import os, sys, time
import numpy as np
from memlane.store.vector_index import VectorIndex
from memlane.bench.ingest import rss_mb
n = int(sys.argv[1]); d = 256; rng = np.random.default_rng(1)
centres = rng.standard_normal((2000, d)).astype(np.float32)
X = centres[rng.integers(0, 2000, n)] + 0.7 * rng.standard_normal((n, d)).astype(np.float32)
X /= np.linalg.norm(X, axis=1, keepdims=True)
Q = X[rng.integers(0, n, 40)] + 0.3 * rng.standard_normal((40, d)).astype(np.float32)
Q /= np.linalg.norm(Q, axis=1, keepdims=True)
idx = VectorIndex(d)
idx.apply(zip(range(1, n + 1), X, (f"s{i % 100}" for i in range(n))))  # 100 scopes
del X
print("loaded; rss MiB", round(rss_mb()), os.popen("uptime").read().strip(), flush=True)
idx.ann_above = 10**12
t = []; ref = []
for q in Q:
    s = time.perf_counter(); ref.append({i for i, _ in idx.search(q, 10)}); t.append((time.perf_counter() - s) * 1e3)
print(f"exact float32: p50 {np.percentile(t,50):.1f} p95 {np.percentile(t,95):.1f} ms", os.popen("uptime").read().strip(), flush=True)
idx.ann_above = 200_000
s = time.perf_counter(); idx.search(Q[0], 10); first = time.perf_counter() - s  # starts the build
# scoped searches while the IVF index builds in its thread (exact scans of one scope)
t = []
while not idx.ann_ready:
    q = Q[len(t) % len(Q)]; s2 = time.perf_counter(); idx.search(q, 10, scope=f"s{len(t) % 100}"); t.append((time.perf_counter() - s2) * 1e3)
    time.sleep(0.05)
print(f"first search (exact, starts the build) {first*1e3:.0f} ms; scoped (10k rows) during the build: {len(t)} searches p50 {np.percentile(t,50):.1f} p95 {np.percentile(t,95):.1f} ms", flush=True)
idx.wait_for_ann(); print(f"IVF build {time.perf_counter()-s:.1f} s; nlist {idx._ivf.nlist} nprobe {idx._ivf.nprobe}; rss MiB {rss_mb():.0f}", os.popen("uptime").read().strip(), flush=True)
t = []; hit = 0
for q, r in zip(Q, ref):
    s = time.perf_counter(); got = {i for i, _ in idx.search(q, 10)}; t.append((time.perf_counter() - s) * 1e3); hit += len(got & r)
print(f"IVF: p50 {np.percentile(t,50):.1f} p95 {np.percentile(t,95):.1f} ms recall@10 {hit/400:.3f}", os.popen("uptime").read().strip(), flush=True)
