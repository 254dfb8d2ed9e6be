"""``memlane bench ingest``: the engine's own speed on synthetic conversations.

For each size N it builds a fresh database in a temporary folder and measures:
add_message throughput (one transaction a message, as an application calls it), indexing
throughput (turns embedded and indexed per second, embedding cache empty), and search
latency p50/p95 over 200 queries, unscoped and scoped to one conversation, with each search
stage's p50/p95 (``Memory.last_timings``). The text is generated from a fixed seed
(Zipf-distributed words, about 25 per turn), so runs compare.

Beside the speed it reports the vector stage's recall@10 against an exact float32 brute
force over the same items (all scopes, and within one scope), so an approximate or
quantised index shows what it costs, and the process's resident memory (RSS) once the
data is indexed and searched. The vector index is loaded (and, on SQLite past 200k
vectors, its IVF index built) before searches are timed: ``vector_index_warm_s``.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import numpy as np

from memlane.errors import MemlaneError
from memlane.serve.cli_common import Int, ignores_global
from memlane.store.urls import public_url

if TYPE_CHECKING:
    from memlane.memory import Memory
    from memlane.store.contract import Store

__all__ = ["ingest_command", "run_ingest"]

_SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "ta", "shi", "po", "ven", "dar", "el", "sa", "tor",
              "qui", "ba", "zen", "fo", "li", "mar", "do", "an", "ex", "gra", "ul")
_COMMON = ["the", "i", "you", "we", "it", "to", "and", "a", "of", "in", "is", "that", "for", "my", "on", "with", "this", "was", "have", "be", "at", "so", "but", "not", "what", "can", "do", "just", "about", "will", "your", "like", "me", "from"]


def _vocabulary(rng: np.random.Generator, size: int = 20_000) -> list[str]:
    words = set()
    while len(words) < size:
        n = int(rng.integers(2, 5))
        words.add("".join(_SYLLABLES[i] for i in rng.integers(0, len(_SYLLABLES), n)))
    return _COMMON + sorted(words)


def synthetic_turns(n: int, seed: int = 7) -> list[str]:
    """``n`` chat-like turns of Zipf-distributed words."""
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng)
    out = []
    for _ in range(n):
        length = int(rng.integers(12, 40))
        ids = np.minimum(rng.zipf(1.15, length) - 1, len(vocab) - 1)
        out.append(" ".join(vocab[i] for i in ids).capitalize() + ".")
    return out


def synthetic_messages(turns: list[str], t0: datetime, *, prefix: str = "", session_len: int = 10,
                       scopes: int = 100) -> Iterator[dict[str, Any]]:
    """The bench's messages for ``turns``: sessions of ``session_len`` alternating user and
    assistant turns, an hour apart (so each starts a new session), spread over ``scopes``
    scopes named ``{prefix}conv-N``."""
    for i, text in enumerate(turns):
        session, pos = divmod(i, session_len)
        yield {"scope": f"{prefix}conv-{session % scopes}",
               "role": "user" if pos % 2 == 0 else "assistant", "text": text,
               "at": t0 + timedelta(hours=session, seconds=pos)}


def store_messages(mem: Memory, messages: Iterable[dict[str, Any]], batch: int) -> None:
    """Store ``messages`` in ``mem``: one ``add_message`` each when ``batch`` <= 1, else
    ``add_messages`` ``batch`` at a time (the last batch may be shorter)."""
    pending: list[dict[str, Any]] = []
    for m in messages:
        if batch <= 1:
            mem.add_message(m["scope"], m["role"], m["text"], m["at"])
            continue
        pending.append(m)
        if len(pending) == batch:
            mem.add_messages(pending)
            pending = []
    if pending:
        mem.add_messages(pending)


def add_synthetic(mem: Memory, turns: list[str], t0: datetime, *, batch: int = 50) -> datetime:
    """Store ``synthetic_messages(turns, t0)`` in ``mem`` with ``add_messages``, ``batch`` at
    a time, and close every session; returns the time just after the last one (the ``now``
    to index at). The scale tools' way of filling a store (``tools/scale/``)."""
    store_messages(mem, synthetic_messages(turns, t0), batch)
    end = t0 + timedelta(hours=-(-len(turns) // 10) + 2)
    mem.close_idle(end)
    return end


def rss_mb(field: str = "VmRSS") -> float:
    """This process's resident memory now, in MiB (Linux ``/proc``; 0.0 elsewhere).

    ``field``: ``VmRSS`` (all of it), or ``RssFile``: the part that is file pages (SQLite's
    memory-mapped database, shared with the operating system's file cache and every other
    process reading the file, and the libraries), as opposed to ``RssAnon``, the process's
    own memory."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def exact_top(matrix: np.ndarray, ids: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    """The ``k`` best ids by float32 inner product (the reference for recall)."""
    if len(ids) == 0:
        return []
    scores = matrix @ np.asarray(query, dtype=np.float32)
    k = min(k, len(ids))
    top = np.argpartition(-scores, k - 1)[:k]
    return ids[top[np.argsort(-scores[top], kind="stable")]].tolist()


def vector_recall(store: Store, model: str, queries: list[tuple[np.ndarray, str | None]],
                  k: int = 10, timings: dict[str, list[float]] | None = None) -> float:
    """Mean recall@k of ``store.vector_search`` against exact float32 search.

    Each query is ``(vector, scope or None)``; the reference reads every stored vector of
    the filtered items once per distinct scope. ``timings``, if given, collects the
    milliseconds of each ``"store"`` search and each in-memory ``"exact"`` reference scan.
    """
    from memlane.store.filters import Filters

    refs: dict[str | None, tuple[np.ndarray, np.ndarray]] = {}
    hits = total = 0
    for vec, scope in queries:
        if scope not in refs:
            wanted = store.filter_ids(Filters(scope=scope))
            got = store.item_vectors(model, wanted)
            ids = np.fromiter(got, dtype=np.int64, count=len(got))
            refs[scope] = (np.stack([got[i] for i in ids.tolist()]) if len(ids)
                           else np.zeros((0, len(vec)), np.float32), ids)
        matrix, ids = refs[scope]
        t = time.perf_counter()
        want = exact_top(matrix, ids, vec, k)
        t_exact = time.perf_counter()
        found = {i for i, _ in store.vector_search(model, vec, Filters(scope=scope), k)}
        if timings is not None:
            timings.setdefault("exact", []).append((t_exact - t) * 1e3)
            timings.setdefault("store", []).append((time.perf_counter() - t_exact) * 1e3)
        if not want:
            continue
        hits += len(found & set(want))
        total += len(want)
    return hits / total if total else 1.0


def _pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else 0.0


def run_ingest(n: int, embedder_name: str, *, session_len: int = 10, scopes: int = 100,
               queries: int = 200, folder: Path | None = None, db: str | None = None,
               intelligence: bool = False, bulk: bool = False, batch: int = 1) -> dict[str, Any]:
    """Measure one size with one embedder; returns a flat dict of figures.

    ``db`` (a PostgreSQL URL) measures that database instead of a temporary SQLite file;
    it should be an empty scratch database. Session intelligence is off unless asked, so
    the figures are those of ingest, turn indexing and search.

    ``bulk`` skips ``add_message`` and indexing: the same turns are written straight in as
    turn items with their vectors (one session of ``session_len`` turns at a time, in large
    transactions), so search, recall and memory can be measured at sizes whose ingest
    would take too long; the throughput figures are then 0.

    ``batch`` > 1 stores the messages with ``add_messages``, ``batch`` at a time (one
    transaction each; on PostgreSQL one statement), instead of one ``add_message`` (and
    one transaction) a message.
    """
    from memlane.config import load_config
    from memlane.memory import Memory

    turns = synthetic_turns(n)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        config = load_config(environ={}, overrides={
            "db": db or str(Path(tmp) / "bench.db"), "embedding": {"backend": embedder_name},
            "indexing": {"enabled": intelligence}})
        mem = Memory(config=config)
        run = uuid.uuid4().hex[:8]  # scopes of their own, should the database be shared
        t0 = datetime(2024, 1, 1, tzinfo=UTC)
        start = time.perf_counter()
        if bulk:
            _bulk_load(mem, turns, run, t0, session_len, scopes)
            add_s, index_rate, indexed = 0.0, 0.0, 0
        else:
            store_messages(mem, synthetic_messages(turns, t0, prefix=f"{run}-",
                                                   session_len=session_len, scopes=scopes), batch)
            add_s = time.perf_counter() - start
            rep = mem.index(now=t0 + timedelta(hours=n // session_len + 2))
            index_rate = rep.items_indexed / rep.seconds if rep.seconds else 0.0
            indexed = rep.items_indexed
        # Load the vector index (SQLite: into memory, and build the IVF index where the
        # size calls for one) before timing searches; the time it takes is reported.
        t = time.perf_counter()
        approximate = mem.store.warm_vector_index(mem.embeddings.model, mem.embedder.dim, wait=True)
        warm_s = time.perf_counter() - t
        rng = np.random.default_rng(11)
        lat_all, lat_scoped = [], []
        stages_all: dict[str, list[float]] = {}
        stages_scoped: dict[str, list[float]] = {}
        for q in range(queries):
            query = _query(turns, rng)
            s = time.perf_counter()
            mem.search(query, k=10)
            lat_all.append((time.perf_counter() - s) * 1e3)
            _collect(stages_all, mem.last_timings)
            s = time.perf_counter()
            mem.search(query, scope=f"{run}-conv-{q % scopes}", k=10)
            lat_scoped.append((time.perf_counter() - s) * 1e3)
            _collect(stages_scoped, mem.last_timings)
        rss, rss_file = rss_mb(), rss_mb("RssFile")
        recall_queries = min(queries, 50)
        qs = [(mem.embeddings.for_query(_query(turns, rng)), None) for _ in range(recall_queries)]
        vt_all: dict[str, list[float]] = {}
        vt_scoped: dict[str, list[float]] = {}
        recall_all = vector_recall(mem.store, mem.embeddings.model, qs, timings=vt_all)
        qs = [(mem.embeddings.for_query(_query(turns, rng)), f"{run}-conv-{q % 3}")
              for q in range(recall_queries)]
        recall_scoped = vector_recall(mem.store, mem.embeddings.model, qs, timings=vt_scoped)
        mem.close()
    return {
        "backend": "postgres" if db else "sqlite",
        "items": n,
        "embedder": embedder_name,
        "bulk": bulk,
        "add_message_per_s": n / add_s if add_s else 0.0,
        "add_batch": batch,
        "index_turns_per_s": index_rate,
        "turns_indexed": indexed,
        "search_p50_ms": statistics.median(lat_all),
        "search_p95_ms": _pct(lat_all, 95),
        "scoped_search_p50_ms": statistics.median(lat_scoped),
        "scoped_search_p95_ms": _pct(lat_scoped, 95),
        "vector_recall_at_10": recall_all,
        "scoped_vector_recall_at_10": recall_scoped,
        "rss_mb": rss,
        "rss_file_mb": rss_file,
        "vector_index_warm_s": warm_s,
        "vector_index_approximate": approximate,
        "vector_search_p95_ms": _pct(vt_all.get("store", []), 95),
        "exact_float32_p95_ms": _pct(vt_all.get("exact", []), 95),
        "scoped_vector_search_p95_ms": _pct(vt_scoped.get("store", []), 95),
        "search_stages_ms": _stage_figures(stages_all),
        "scoped_search_stages_ms": _stage_figures(stages_scoped),
    }


def _bulk_load(mem: Memory, turns: list[str], run: str, t0: datetime, session_len: int,
               scopes: int, batch: int = 20_000) -> None:
    """Write the turns as indexed sessions' turn items with vectors, ``batch`` at a time."""
    from memlane.index.expand import item_keys

    store, embedder = mem.store, mem.embedder
    for lo in range(0, len(turns), batch):
        chunk = turns[lo:lo + batch]
        vecs = np.asarray(embedder.embed_batch(chunk), dtype=np.float32)
        with store.atomic():
            rows, sid = [], 0
            for i, text in enumerate(chunk, start=lo):
                session, pos = divmod(i, session_len)
                scope = f"{run}-conv-{session % scopes}"
                at = t0 + timedelta(hours=session, seconds=pos)
                if pos == 0 or not sid:
                    sid = store.create_session(scope, at.timestamp(), None, None)
                    store.close_session(sid, "idle")  # one open session a scope at most
                    store.claim_for_index(sid)
                rows.append({"kind": "turn", "text": text, "at": at.timestamp(), "scope": scope,
                             "session_id": sid, "role": "user" if pos % 2 == 0 else "assistant",
                             "source": "observed", "durability": "long", "lane": "episodic",
                             "keys": item_keys(text, at)})
            ids = store.insert_items(rows)
            store.put_vectors(embedder.name, list(zip(ids, vecs, strict=True)))
    merge = getattr(store, "merge_lexical_index", None)  # SQLite: the load's FTS5 segments in one
    if merge is not None:
        merge()
    store.ensure_vector_index(embedder.name, embedder.dim)


def _query(turns: list[str], rng: np.random.Generator) -> str:
    """Five words of a random turn, in order: a query with some lexical overlap."""
    words = turns[int(rng.integers(0, len(turns)))].rstrip(".").split()
    pick = rng.choice(len(words), size=min(5, len(words)), replace=False)
    return " ".join(words[i] for i in sorted(pick))


def _collect(stages: dict[str, list[float]], timings: dict[str, float]) -> None:
    for name, ms in timings.items():
        stages.setdefault(name.removesuffix("_ms"), []).append(ms)


def _stage_figures(stages: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """Each search stage's p50 and p95 (``Memory.last_timings``), in milliseconds."""
    return {name: {"p50": _pct(v, 50), "p95": _pct(v, 95)} for name, v in stages.items()}


@ignores_global(config="measures memlane's defaults on fresh databases and reads no config file")
@click.command("ingest")
@click.option("--items", default="10000,100000", show_default=True,
              help="Comma-separated sizes (number of messages).")
@click.option("--embedder", "embedders", default="static,hashing", show_default=True,
              help="Comma-separated embedder backends to measure.")
@click.option("--queries", default=200, show_default=True, type=Int(1, 100_000), help="Search queries per size.")
@click.option("--db", "dbs", multiple=True, metavar="URL",
              help="Also measure this PostgreSQL database (an empty scratch one), beside SQLite.")
@click.option("--bulk", is_flag=True,
              help="Write turns and vectors straight into the store (no add_message or "
                   "indexing): search, recall and RSS only, for sizes whose ingest is too slow.")
@click.option("--batch", default=1, show_default=True, type=click.IntRange(1, 10_000),
              help="Messages a call: 1 times add_message (a transaction a message), more "
                   "times add_messages in batches of this size.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def ingest_command(items: str, embedders: str, queries: int, dbs: tuple[str, ...],
                   bulk: bool, batch: int, as_json: bool) -> None:
    """add_message throughput, indexing throughput and search latency at each size.

    Each size runs on a fresh temporary SQLite file and on every --db given, so the
    backends are side by side. Session intelligence is off here (see memlane stats for its
    own timings); the embedding cache starts empty.
    """
    try:
        sizes = [int(x) for x in items.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"expected comma-separated integers, got {items!r}",
                                 param_hint="--items") from None
    if not sizes or min(sizes) < 10:
        raise click.BadParameter("sizes must be at least 10", param_hint="--items")
    names = [e.strip() for e in embedders.split(",") if e.strip()]
    from memlane.bench.cli import scratch_db
    from memlane.config import load_config

    for name in names:  # every name and database before the first size is measured
        try:
            load_config(environ={}, overrides={"embedding": {"backend": name}})
        except MemlaneError as exc:
            raise click.BadParameter(f"{name!r}: {exc}", param_hint="--embedder") from None
    if not names:
        raise click.BadParameter("name at least one embedder", param_hint="--embedder")
    for db in dbs:
        scratch_db(db)
    rows = []
    for name in names:
        for n in sizes:
            for db in (None, *dbs):
                click.echo(f"measuring {n:,} items with {name} on "
                           f"{public_url(db) if db else 'sqlite'}…", err=True)
                rows.append(run_ingest(n, name, queries=queries, db=db, bulk=bulk, batch=batch))
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    added = "add_message/s" if batch == 1 else f"add_messages/s (batches of {batch})"
    click.echo(f"| backend | embedder | items | {added} | index turns/s | search p50 / p95 ms "
               "| scoped p50 / p95 ms | recall@10 all / scoped | RSS MiB (of it file pages) |")
    click.echo("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        click.echo(
            f"| {r['backend']} | {r['embedder']} | {r['items']:,} | {r['add_message_per_s']:,.0f} "
            f"| {r['index_turns_per_s']:,.0f} | {r['search_p50_ms']:.1f} / {r['search_p95_ms']:.1f} "
            f"| {r['scoped_search_p50_ms']:.1f} / {r['scoped_search_p95_ms']:.1f} "
            f"| {r['vector_recall_at_10']:.3f} / {r['scoped_vector_recall_at_10']:.3f} "
            f"| {r['rss_mb']:,.0f} ({r['rss_file_mb']:,.0f}) |"
        )
    click.echo("")
    for r in rows:
        for label, key in (("all scopes", "search_stages_ms"), ("scoped", "scoped_search_stages_ms")):
            click.echo(f"{r['backend']} {r['embedder']} {r['items']:,} items, search stages "
                       f"p50 / p95 ms, {label}: " + ", ".join(
                           f"{name} {v['p50']:.1f} / {v['p95']:.1f}" for name, v in r[key].items()))
