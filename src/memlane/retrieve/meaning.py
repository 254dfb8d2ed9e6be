"""The meaning tier: a transformer re-scores the best few dozen candidates (a cascade).

The static embedder and BM25 find candidates fast; the transformer (MiniLM on ONNX
Runtime, or the numpy MiniLM without the ``meaning`` extra: see
``memlane.backends.embed.onnx``) embeds only the top ``meaning_candidates`` of them, and its
cosine to the query is added to their relevance (``meaning_weight ×`` cosine above the
pool's lowest) before stage one ranks sessions, so it moves sessions and turns alike.

The transformer reads a passage, not the whole text: a text longer than ``window`` words
is cut into fixed pieces of at most that many words (``passages``: the same pieces
whatever the query), and a candidate is scored by the piece that holds the most query
words (``best_passage``; the first piece when none does). A cold query therefore costs at
most ``meaning_candidates × window`` words of transformer work, whatever the texts' length.

A passage's transformer vector is computed at most once: it is looked up by the sha256 of
its text in the store's embedding cache (``embed_cache``, keyed by model name and text
hash), computed lazily for the misses at query time and written back, and computed ahead
of time by the index worker (``MeaningTier.warm``: every passage of the turns of recently
indexed sessions).

A cold query is bounded (``retrieval.meaning_cold``, session 32): ``cosines(...,
cold=N)`` embeds at most N uncached passages, those of the best-ranked candidates; it
leaves the other uncached candidates out of its answer (the search ranks them without the
transformer this time) and queues their items for ``warm_pending``, which the index
worker's next round runs (``Memory.work_once``), so the next query finds them cached. The
queue holds item ids, per store, never text: an erased item is simply not found.

Since session 33 the worker also fills the cache behind it (``MeaningTier.backfill``): once
a round has nothing newer to do, it warms the items of sessions indexed before the tier was
on (or by another process), newest sessions first, at most ``retrieval.meaning_backfill``
passages a round; since session 34 the items no session holds first (facts of ``add_fact``,
upserted preferences, decisions and observations, compaction's records). What is uncached
it reads from the cache itself; where the walk stands (and its rest) is kept in the store,
and one process at a time walks (a lease renewed as it goes), so a restarted worker goes on
where the last one stopped and several workers on one database divide the walk, each vector
computed once. A vector is written only while its item still exists (checked under the
write's lock), so an erase between the read and the write leaves no vector of erased text
behind.

A search that may write nothing (``ReadingTier``: a read-only key or server, a read-only
database) neither caches a vector nor queues an item: it leaves no trace, not even one the
worker would write for it later. A search on a database judged writable (``WritingTier``)
caches them, and skips that write when the database refuses it as read-only (a role's
grants revoked since it was judged).

``MeaningTier.search`` ranks a scope's items by their cached vectors alone (exact cosine,
nothing computed but the query's vector): the transformer as a candidate source
(``retrieval.meaning_list``, off by default: docs/retrieval.md, session 15).
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from memlane.index.embed import text_hash
from memlane.protocols import Embedder
from memlane.retrieve.speaker import speaker_of
from memlane.store.contract import Store
from memlane.store.filters import Filters
from memlane.store.walks import LEASE_PREFIX, walk_key
from memlane.types import Item

__all__ = ["BACKFILL_LEASE", "BACKFILL_REST", "BACKFILL_SCAN", "RESCORED_KINDS", "MeaningTier", "ReadingTier",
           "WritingTier", "best_passage", "load_vectors", "loaded_tier", "passages", "save_vectors",
           "shared_tier"]

RESCORED_KINDS = frozenset({"turn", "observation", "fact", "summary", "preference", "decision"})

_WORD = re.compile(r"\S+")
_ALNUM = re.compile(r"\w+")


def passages(text: str, window: int) -> list[str]:
    """``text`` cut into consecutive pieces of at most ``window`` words (whitespace-split),
    as even as possible; ``[text]`` when it is that short or ``window`` is 0."""
    if window <= 0:
        return [text]
    spans = [m.span() for m in _WORD.finditer(text)]
    if len(spans) <= window:
        return [text]
    n = -(-len(spans) // window)
    size = -(-len(spans) // n)
    return [text[spans[i][0] : spans[min(i + size, len(spans)) - 1][1]]
            for i in range(0, len(spans), size)]


def _stem(word: str) -> str:
    return word[:5]


def best_passage(text: str, terms: Iterable[str], window: int) -> str:
    """The piece of ``passages(text, window)`` holding the most distinct query ``terms``
    (a word matches a term when their first five letters, lowercased, agree); the first
    piece on a tie or when none holds any."""
    parts = passages(text, window)
    if len(parts) == 1:
        return parts[0]
    wanted = {_stem(t.lower()) for t in terms}
    best, best_n = parts[0], 0
    for part in parts:
        n = len(wanted & {_stem(w) for w in _ALNUM.findall(part.lower())})
        if n > best_n:
            best, best_n = part, n
    return best


def _stored_scope(store: Store, scope: str | None) -> str | None:
    """``scope`` checked and spelt as ``store`` holds it (``resolve_scope``, as every surface
    does), None for every scope. Session 36 (fix36b): ``backfill(scope=…)`` took it as
    given: "café" typed decomposed, or ``team`` over a database holding ``team\u200b``,
    walked nothing and had its walk's row deleted every round; a lone surrogate raised
    ``UnicodeEncodeError`` hashing it for the walk's key. A bad one is a
    ``ValidationError`` naming ``scope``."""
    if scope is None:
        return None
    from memlane.ingest.spellings import resolve_scope

    return resolve_scope(store, scope)


def _holds(store: Store, scope: str) -> bool:
    """Whether ``scope`` holds anything the walk passes: a session, or an item no session
    holds of the kinds re-scored."""
    return bool(store.count_sessions(scope)
                or store.count_loose_items(sorted(RESCORED_KINDS), scope=scope))


class MeaningTier:
    """The transformer vectors of items and queries, cached by content hash.

    ``computed`` counts texts this tier sent to the transformer; ``cached`` the ones it
    found in the store; ``skipped`` the uncached ones a bounded query (``cold``) left;
    ``looked`` the passages the backfill's walk looked up in the cache (session 34: a
    restarted walk goes on from its stored place, looking at nothing it passed).
    """

    def __init__(self, embedder: Embedder, lru: int = 256, window: int = 0) -> None:
        self.embedder = embedder
        self.window = int(window)
        """Words per passage (0: the whole text, up to the embedder's token limit)."""
        self.computed = 0
        self.cached = 0
        self.skipped = 0
        self.looked = 0
        self._pending: weakref.WeakKeyDictionary[Store, dict[int, None]] = (
            weakref.WeakKeyDictionary())
        """Per store, the ids of items a bounded query left uncached (``warm_pending``)."""
        self.owner = uuid.uuid4().hex
        """Who holds the backfill's lease, in the store (this tier, in this process)."""
        self.clock: Callable[[], float] | None = None
        """The clock of the lease and of the walk's rest (epoch seconds); None: the
        database's (``Store.clock``), one clock for every process on it (session 35: each
        process's own let a worker whose clock ran minutes ahead take a lease another held)."""
        self._lru: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lru_max = lru
        self._lock = threading.Lock()
        self.seed: dict[bytes, np.ndarray] | None = None
        """Vectors by text hash consulted after the store's cache and before the
        transformer (and given every vector computed): what ``load_vectors`` read from a
        file of earlier runs (the benches' ``--vectors``); None: none."""

    @property
    def model(self) -> str:
        return self.embedder.name

    def query_vector(self, text: str) -> np.ndarray:
        with self._lock:
            vec = self._lru.get(text)
            if vec is not None:
                self._lru.move_to_end(text)
                return vec
        vec = np.asarray(self.embedder.embed_batch([text]), dtype=np.float32)[0]
        with self._lock:
            self._lru[text] = vec
            if len(self._lru) > self._lru_max:
                self._lru.popitem(last=False)
        return vec

    def vectors(self, store: Store, texts: Sequence[str],
                found: dict[bytes, np.ndarray] | None = None, *, keep: bool = True
                ) -> list[np.ndarray]:
        """One vector per text: from the store's cache (``found``: what it already gave for
        these texts' hashes), else computed once and stored (``keep`` false: computed and
        not stored, ``ReadingTier``)."""
        hashes = [text_hash(t) for t in texts]
        if found is None:
            found = store.cached_vectors(self.model, list(set(hashes))) if hashes else {}
        found = dict(found)
        missing = list(dict.fromkeys(h for h in hashes if h not in found))
        self.cached += len(set(hashes)) - len(missing)
        if missing and self.seed is not None:
            seeded = [(h, self.seed[h]) for h in missing if h in self.seed]
            if seeded and keep:
                with store.atomic():
                    store.cache_vectors(self.model, seeded)
                found.update(seeded)
                missing = [h for h in missing if h not in found]
        if missing:
            first = {h: t for h, t in zip(hashes, texts, strict=True)}
            vecs = np.asarray(self.embedder.embed_batch([first[h] for h in missing]),
                              dtype=np.float32)
            self.computed += len(missing)
            new = list(zip(missing, vecs, strict=True))
            if keep:
                with store.atomic():
                    store.cache_vectors(self.model, new)
            found.update(new)
            if self.seed is not None:
                self.seed.update(new)
        return [found[h] for h in hashes]

    def cosines(self, store: Store, query: str, items: Sequence[Item],
                terms: Iterable[str] = (), cold: int = 0, *, keep: bool = True,
                unless_refused: Callable[[], AbstractContextManager[Any]] = nullcontext
                ) -> dict[int, float]:
        """Cosine of each item's transformer vector (of its passage that holds the most
        query ``terms``) to the query's. With ``cold`` > 0, at most that many passages not
        cached yet are embedded, those of the first such ``items`` (pass them best first):
        the other uncached items are left out of the answer and queued for
        ``warm_pending``. ``keep`` false (``ReadingTier``): nothing computed is cached and
        nothing is queued (a search that may write nothing leaves no trace for the worker
        to write either). The cache's write runs inside ``unless_refused()``
        (``WritingTier``)."""
        if not items:
            return {}
        terms = list(terms)
        texts = [best_passage(it.text, terms, self.window) for it in items]
        hashes = [text_hash(t) for t in texts]
        found = store.cached_vectors(self.model, list(set(hashes)))
        if cold > 0:
            allowed = set(list(dict.fromkeys(h for h in hashes if h not in found))[:cold])
            kept = [h in found or h in allowed for h in hashes]
            left = [it.id for it, k in zip(items, kept, strict=True) if not k]
            if left:
                self._queue(store, left if keep else [], len(left))
                items = [it for it, k in zip(items, kept, strict=True) if k]
                texts = [t for t, k in zip(texts, kept, strict=True) if k]
                if not items:
                    return {}
        q = self.query_vector(query)
        # computed here, cached by _cache_held: only while its item still exists
        vecs = self.vectors(store, texts, found, keep=False)
        if keep:
            new = [(it.id, t, v) for it, t, v in zip(items, texts, vecs, strict=True)
                   if text_hash(t) not in found]
            with unless_refused():
                self._cache_held(store, {t: v for _, t, v in new}, {i for i, _, _ in new})
        return {it.id: float(v @ q) for it, v in zip(items, vecs, strict=True)}

    def _queue(self, store: Store, ids: Sequence[int], skipped: int, most: int = 10_000
               ) -> None:
        with self._lock:
            self.skipped += skipped
            if not ids:
                return
            queue = self._pending.setdefault(store, {})
            queue.update(dict.fromkeys(ids))
            for old in list(queue)[: max(0, len(queue) - most)]:  # the oldest go first
                del queue[old]

    def pending(self, store: Store) -> int:
        """How many items bounded queries left uncached in ``store`` (``warm_pending``)."""
        with self._lock:
            return len(self._pending.get(store, {}))

    def warm_pending(self, store: Store, batch: int = 64) -> int:
        """Compute (and cache) the vectors of every passage of the items bounded queries
        left uncached in ``store`` (``cosines(..., cold=N)``), emptying its queue: what the
        index worker runs each round. Items erased since are not found and skipped.
        Returns how many vectors it computed."""
        with self._lock:
            ids = list(self._pending.pop(store, {}))
        return self._warm_items(store, store.get_items(ids).values() if ids else (), batch)

    def search(self, store: Store, query: str, filters: Filters, limit: int,
               terms: Iterable[str] = (), kinds: Iterable[str] = ("turn",),
               speaker: str | None = None) -> list[tuple[int, float]]:
        """The items passing ``filters`` (of ``kinds`` among them) ranked by the cosine
        of their transformer vector (of the passage holding the most query ``terms``) to
        the query's, best first, at most ``limit``: exact, over the items whose vectors
        are already cached (the worker's ``warm``, or earlier queries). Nothing is
        computed but the query's vector, so a scope the worker has not reached gives a
        short list or none. With ``speaker``, only the turns that speaker said
        (``speaker_of``)."""
        wanted = tuple(k for k in kinds if filters.kinds is None or k in filters.kinds)
        if limit <= 0 or not wanted:
            return []
        ids = store.filter_ids(replace(filters, kinds=wanted))
        if not ids:
            return []
        terms = list(terms)
        items = [it for it in store.get_items(ids).values() if it.text.strip()
                 and (speaker is None or speaker_of(it) == speaker)]
        hashes = [text_hash(best_passage(it.text, terms, self.window)) for it in items]
        found = store.cached_vectors(self.model, list(set(hashes)))
        have = [(it.id, found[h]) for it, h in zip(items, hashes, strict=True) if h in found]
        if not have:
            return []
        q = self.query_vector(query)
        cos = np.stack([v for _, v in have]) @ q
        # best first, equal cosines by id (``memlane.retrieve.order``): ``items`` come in
        # the store's order
        order = np.lexsort((np.array([i for i, _ in have]), -cos))[:limit]
        return [(have[i][0], float(cos[i])) for i in order]

    def warm(self, store: Store, session_ids: Iterable[int], batch: int = 64) -> int:
        """Compute (and cache) the vectors of these sessions' turns not cached yet.

        What the index worker calls after indexing; returns how many it computed.
        """
        return self._warm_items(store, (it for sid in session_ids
                                        for it in store.session_items(sid)), batch)

    def _warm_items(self, store: Store, items: Iterable[Item], batch: int) -> int:
        """Compute (and cache) every passage of ``items`` the tier re-scores, not cached
        yet, ``batch`` texts a call; how many it computed (``warm``, ``warm_pending``)."""
        pairs = [(it.id, p) for it in items if _rescored(it) for p in passages(it.text, self.window)]
        before = self.computed
        for i in range(0, len(pairs), batch):
            chunk = pairs[i : i + batch]
            found = store.cached_vectors(self.model, list({text_hash(p) for _, p in chunk}))
            self.cached += len(found)
            self._keep(store, {p: i for i, p in chunk if text_hash(p) not in found})
        return self.computed - before

    def _keep(self, store: Store, todo: dict[str, int]) -> None:
        """Compute the vectors of the passages ``todo`` (each with an item holding it, none
        cached) and cache those whose item still exists, read under the write's lock: an
        item erased since it was read leaves no vector of its text (the erase deletes the
        cache rows of its texts when it commits, and a vector written after it would
        outlive it; session 27 mended the same race in ``Memory.backfill_embeddings``)."""
        if not todo:
            return
        texts = list(todo)
        vecs = self.vectors(store, texts, {}, keep=False)
        self._cache_held(store, dict(zip(texts, vecs, strict=True)), set(todo.values()))

    def _cache_held(self, store: Store, vecs: dict[str, np.ndarray], ids: set[int]) -> None:
        """Cache the vectors of these passages (of the items ``ids``) that an item of them
        still holds, read under the write's lock (``_keep``; a search's own vectors too:
        session 33, they were cached with no such check, so an erase between the search's
        read and its write left a vector of the erased text)."""
        if not vecs:
            return
        with store.atomic():
            store.lock_items_facts(sorted(ids))  # as an erase takes them, first (PostgreSQL)
            kept = store.get_items(sorted(ids))
            held = {text_hash(p) for it in kept.values() for p in passages(it.text, self.window)}
            store.cache_vectors(self.model, [(h, v) for t, v in vecs.items()
                                             if (h := text_hash(t)) in held])

    def backfill(self, store: Store, most: int, *, scope: str | None = None,
                 now: float | None = None, batch: int = 64) -> int:
        """One round of filling the cache behind the worker (``retrieval.meaning_backfill``):
        the passages not cached yet of the items no session holds (``Store.loose_items``),
        then of indexed sessions' items, newest sessions first, at most ``most`` computed and
        at most ``BACKFILL_SCAN`` passages looked at; ``scope``: that scope's only.

        Where the walk stands is kept in the store (``meta``), per model and scope, so a new
        process goes on where the last one stopped; one process at a time walks (a lease,
        ``BACKFILL_LEASE`` seconds of the database's clock, renewed as it goes), so several workers on
        one database divide the walk instead of each computing it: a round that finds the
        lease held by another computes nothing. The place moves only after the round's
        write: a process killed in the middle of a round loses no vector it cached, and the
        next holder computes only what is still uncached. A walk that has passed the oldest
        session rests ``BACKFILL_REST`` seconds of the same clock, for every process, then
        walks again (for what another process indexed or stored meanwhile). ``now`` is not
        used since session 35: the rest was measured on the ``now`` a caller passed
        (``Memory.work_once(now=)``: a replay's past, a test's future) and kept for every
        process, so one call with a ``now`` years ahead stopped every worker's walk until
        then. How many it computed."""
        if most <= 0:
            return 0
        scope = _stored_scope(store, scope)
        if scope is not None and not _holds(store, scope):
            return 0  # no lease, no row: the walk of nothing is not kept (below), nor walked
        key = _walk_key(self.model, scope)
        walk = self._take(store, key)
        if walk is None:
            return 0
        before, done, moved = self.computed, False, False
        try:
            _, done = self._walk(store, walk, most, scope, batch, lease=True)
            moved = True
        except _LeaseLost:  # another process walks on from the stored place
            pass
        finally:  # an error leaves the place where it was; the lease goes either way
            if done:
                walk.rest_until = self._now(store) + BACKFILL_REST
            self._give(store, key, walk if moved else None, self.computed - before, scope)
        return self.computed - before

    def reset_walk(self, store: Store, scope: str | None = None) -> None:
        """Forget where the backfill's walk of ``store`` (and ``scope``) stands and its rest:
        the next round walks from the top (the tools' runs at each limit)."""
        scope = _stored_scope(store, scope)
        with store.atomic():
            store.set_meta(_walk_key(self.model, scope), "")

    def warm_all(self, store: Store, *, scope: str | None = None, batch: int = 64,
                 progress: Callable[[int, int], None] | None = None,
                 waiting: Callable[[float], None] | None = None) -> int:
        """Compute (and cache) now the passages not cached yet of every item no session
        holds and of every indexed session's items (``scope``: that scope's), newest sessions
        first: the worker's ``backfill`` walked to the end from the top (``memlane index
        --warm-meaning``), under the same lease, so the workers' backfill waits meanwhile
        (a lease another process holds is waited for: at most ``BACKFILL_LEASE`` seconds
        when that process died; ``waiting(seconds the lease runs on)`` once, when it waits).
        ``progress(passed, computed)`` after each step of ``4 × batch`` passages: the
        items and sessions passed, of ``walk_size``. How many it computed."""
        walk, before, told = _Walk(), self.computed, False
        scope = _stored_scope(store, scope)
        try:
            while True:
                while not self._lease(store, take=True):
                    if waiting is not None and not told:
                        held = _json(store.meta_value(_LEASE + self.model))
                        waiting(max(0.0, _until(held) - self._now(store)))
                        told = True
                    time.sleep(0.2)
                try:
                    _, done = self._walk(store, walk, 4 * batch, scope, batch, lease=True)
                except _LeaseLost:  # held too long (a stalled machine): wait for it again
                    continue
                if progress is not None:
                    progress(walk.passed, self.computed - before)
                if done:
                    return self.computed - before
        finally:
            self._lease(store, take=False)

    def walk_size(self, store: Store, scope: str | None = None) -> int:
        """How many units ``warm_all`` passes (its ``progress``'s end): the items no session
        holds of the kinds it re-scores, then every session (one without items is passed
        too), counted without reading them (session 34, fix34b: ``memlane index
        --warm-meaning`` listed every session to size its bar, and the bar counted sessions
        only while the walk passes the loose items first)."""
        scope = _stored_scope(store, scope)
        return (store.count_loose_items(sorted(RESCORED_KINDS), scope=scope)
                + store.count_sessions(scope))

    def _now(self, store: Store) -> float:
        """The lease's clock: ``clock`` when set, else the database's."""
        return self.clock() if self.clock is not None else store.clock()

    def _take(self, store: Store, key: str) -> _Walk | None:
        """The lease and where the walk of ``key`` stands, or None: another process holds
        the lease, or the walk rests. Looked at first without a write, so a resting walk
        or another's lease costs a round three reads and no transaction."""
        held = _json(store.meta_value(_LEASE + self.model))
        now = self._now(store)
        if ((held.get("owner") not in (None, self.owner) and _live(held, now))
                or _Walk.load(store.meta_value(key)).resting(now)):
            return None
        with store.atomic():
            if not self._lease(store, take=True):
                return None
            walk = _Walk.load(store.meta_value(key))
            if walk.resting(self._now(store)):
                self._lease(store, take=False)
                return None
            return walk

    def _give(self, store: Store, key: str, walk: _Walk | None, computed: int,
              scope: str | None = None) -> None:
        """Store where the walk stands (None: as it was) and give the lease back; a lease
        lost meanwhile (another process took it) keeps the place that process stores. The
        session the place names is read under the walk row's lock, which an erase takes
        to move the walks off what it erases: one erased since the round read it is no
        place (the walk goes from the newest again), and the walk of a ``scope`` that holds
        nothing is not kept (an erased scope's: its key is the scope's name hashed; session
        35: both were stored after the erase); a session whose first messages were erased
        since is the place at its new start (``_still_there``; session 36)."""
        with store.atomic():
            if walk is not None and self._lease(store, take=True):
                store.meta_value(key, lock=True)
                if walk.after is not None:
                    walk.after = _still_there(store, walk.after)
                if scope is not None and not _holds(store, scope):
                    store.delete_meta(key)
                else:
                    store.set_meta(key, walk.dump())
            if computed:
                store.bump("meaning_backfill_computed", computed)
            self._lease(store, take=False)

    def _lease(self, store: Store, *, take: bool) -> bool:
        """Take (or renew) the backfill's lease of this model, unless another live process
        holds it; or give it back (``take`` false). Whether this tier holds it now."""
        key = _LEASE + self.model
        with store.atomic():
            held = _json(store.meta_value(key, lock=True))
            clock = self._now(store)
            mine = held.get("owner") == self.owner
            if not mine and _live(held, clock):
                return False
            if take:
                store.set_meta(key, json.dumps({"owner": self.owner,
                                                "until": clock + BACKFILL_LEASE}))
            elif mine:
                store.set_meta(key, "")
            return take

    def _walk(self, store: Store, walk: _Walk, most: int, scope: str | None, batch: int,
              *, lease: bool = False) -> tuple[int, bool]:
        """Go on with ``walk``: the items no session holds (highest id first), then the
        sessions, newest first: compute at most ``most`` uncached passages, looking at at
        most ``BACKFILL_SCAN``. The place moves past an item or a session only once every
        passage of it is cached, after the write: a step cut short (by the limit, an error,
        a kill) takes it up again. ``lease``: renewed before each ``batch`` of the write.
        ``(computed, passed the oldest session)``; the walk starts from the top after that."""
        todo: dict[str, int] = {}
        looked, at, passed, done = 0, replace(walk), 0, False
        while len(todo) < most and looked < BACKFILL_SCAN:
            units, last = self._page(store, at, scope)
            hashes = list({text_hash(p) for _, pairs in units for _, p in pairs})
            found = store.cached_vectors(self.model, hashes) if hashes else {}
            full = False
            for place, pairs in units:
                looked += len(pairs)
                new = {p: i for i, p in pairs if text_hash(p) not in found and p not in todo}
                room = most - len(todo)
                todo.update(list(new.items())[:room])
                if len(new) > room:
                    full = True
                    break  # the rest of it next time: this one again
                at.move(place)
                passed += 1
                if len(todo) >= most or looked >= BACKFILL_SCAN:
                    full = True
                    break
            if full:
                break
            if last and at.loose_done:
                done = True
                break
            if last:
                at.loose_done = True
        before = self.computed
        items = list(todo.items())
        for i in range(0, len(items), batch):
            if lease and i and not self._lease(store, take=True):
                raise _LeaseLost  # the place stays: another process goes on from it
            self._keep(store, dict(items[i : i + batch]))
        at.passed, self.looked = walk.passed + passed, self.looked + looked
        walk.__dict__.update((_Walk(passed=at.passed) if done else at).__dict__)
        return self.computed - before, done

    def _page(self, store: Store, at: _Walk, scope: str | None
              ) -> tuple[list[tuple[int | tuple[float, int], list[tuple[int, str]]]], bool]:
        """The next ``_PAGE`` units of the walk from ``at``: items no session holds (their
        id as the place) until those are passed, then indexed sessions (their
        ``list_sessions`` key), each with its re-scored items' ``(item id, passage)`` pairs;
        and whether the page is the last of its part."""
        if not at.loose_done:
            loose = store.loose_items(sorted(RESCORED_KINDS), scope=scope, before=at.loose,
                                      limit=_PAGE)
            return ([(it.id, [(it.id, p) for p in passages(it.text, self.window)]
                      if _rescored(it) else []) for it in loose], len(loose) < _PAGE)
        page = store.list_sessions(scope=scope, limit=_PAGE, after=at.after)
        held = store.sessions_items([s.id for s in page if s.indexed]) if page else {}
        return ([((s.started_at.timestamp(), s.id),
                  [(it.id, p) for it in held.get(s.id, ()) if _rescored(it)
                   for p in passages(it.text, self.window)]) for s in page],
                len(page) < _PAGE)


def _rescored(it: Item) -> bool:
    """Whether the tier re-scores ``it`` (an active item of those kinds, with text)."""
    return it.kind in RESCORED_KINDS and it.status == "active" and bool(it.text.strip())


BACKFILL_SCAN = 5000
"""Passages a backfill round looks up at most (hashed, asked of the cache): a round over a
cache already full costs this much and no more."""
BACKFILL_REST = 600.0
"""Seconds a backfill walk rests after passing the oldest session, before walking again."""
BACKFILL_LEASE = 60.0
"""Seconds the backfill's lease lasts unless renewed (a worker's round renews it before each
batch it computes): what a killed worker holds it for at most."""
_PAGE = 50
_LEASE = LEASE_PREFIX


class _LeaseLost(Exception):
    """The backfill's lease expired and another process took it (``_walk``)."""


def _walk_key(model: str, scope: str | None) -> str:
    """The ``meta`` key of a walk (``store.walks.walk_key``: the scope's name hashed, and
    its row deleted when the scope is erased)."""
    return walk_key(model, scope)


def _json(value: str | None) -> dict[str, Any]:
    """A ``meta`` value written as JSON ({} for none, an empty one, or one that is not a
    JSON object: another memlane's layout, a hand's edit; session 35: it raised on every
    round of every worker)."""
    if not value:
        return {}
    try:
        got = json.loads(value)
    except ValueError:
        return {}
    return got if isinstance(got, dict) else {}


def _still_there(store: Store, after: tuple[float, int]) -> tuple[float, int] | None:
    """A walk's place ``after`` (the last session passed: its start and id) as it may be
    stored now: None when the session is gone (the walk goes from the newest again), its
    start now when that is later than the place's (its first messages were erased since the
    round read it: the place's time was an erased message's; session 36), else as it was.
    Starting later, the sessions between the two starts are looked at again, all cached."""
    held = store.get_sessions([after[1]]).get(after[1])
    if held is None:
        return None
    start = held.started_at.timestamp()
    return (start, after[1]) if start > after[0] else after


def _until(held: dict[str, Any]) -> float:
    """When the lease ``held`` runs out (0: free, or not a time: taken as free)."""
    try:
        until = float(held.get("until") or 0.0)
    except (TypeError, ValueError):
        return 0.0
    return until if math.isfinite(until) else 0.0


def _live(held: dict[str, Any], now: float) -> bool:
    """Whether the lease ``held`` runs on at ``now``: a lease ends at most
    ``BACKFILL_LEASE`` seconds ahead of the database's clock; one further ahead was written
    on another clock (session 34's, a process's own) and is not waited for."""
    return now < _until(held) <= now + BACKFILL_LEASE


@dataclass
class _Walk:
    """Where a backfill walk stands: ``loose`` the last item without a session it passed
    (None: from the highest id), ``loose_done`` whether it passed them all; ``after`` the
    last session it passed (its ``list_sessions`` key, newest first; None: from the
    newest); ``rest_until`` the time before which it does not walk again; ``passed`` how
    many items and sessions it passed (in this process)."""

    loose: int | None = None
    loose_done: bool = False
    after: tuple[float, int] | None = None
    rest_until: float = 0.0
    passed: int = 0

    def move(self, place: int | tuple[float, int]) -> None:
        if isinstance(place, tuple):
            self.after = place
        else:
            self.loose = place

    def resting(self, now: float) -> bool:
        """Whether the walk rests at ``now`` (the database's clock): a rest ends at most
        ``BACKFILL_REST`` seconds ahead; one further ahead was stored by session 34 from a
        caller's ``now`` (a test's or a replay's future) and is not waited for."""
        return now < self.rest_until <= now + BACKFILL_REST

    def dump(self) -> str:
        return json.dumps({"loose": self.loose, "loose_done": self.loose_done,
                           "after": None if self.after is None else list(self.after),
                           "rest_until": self.rest_until})

    @classmethod
    def load(cls, value: str | None) -> _Walk:
        got = _json(value)
        try:  # a value of another shape walks from the top: nothing is lost but the place
            after, loose = got.get("after"), got.get("loose")
            return cls(loose=None if loose is None else int(loose),
                       loose_done=bool(got.get("loose_done")),
                       after=None if after is None else (float(after[0]), int(after[1])),
                       rest_until=float(got.get("rest_until") or 0.0))
        except (TypeError, ValueError, IndexError, KeyError, OverflowError):
            return cls()


class ReadingTier:
    """A tier for a search that writes nothing: a database memlane may not write, or a call
    under ``Memory.reading_only`` (a read-only API key's, a read-only MCP server's). The
    vectors the store's cache misses are computed and used, not cached. Session 32: such a
    search of the meaning preset wrote ``embed_cache`` rows, and on a read-only database
    failed (``attempt to write a readonly database``)."""

    def __init__(self, tier: MeaningTier) -> None:
        self.tier = tier

    def __getattr__(self, name: str) -> Any:
        return getattr(self.tier, name)

    def cosines(self, store: Store, query: str, items: Sequence[Item],
                terms: Iterable[str] = (), cold: int = 0) -> dict[int, float]:
        return self.tier.cosines(store, query, items, terms, cold, keep=False)

    def vectors(self, store: Store, texts: Sequence[str]) -> list[np.ndarray]:
        return self.tier.vectors(store, texts, keep=False)


class WritingTier:
    """A tier for a search on a database judged writable: the vectors the store's cache
    misses are computed, used and cached, the cache's write inside ``unless_refused()``
    (``Memory._unless_refused``: a write refused as read-only is skipped and said once).
    Session 41: a PostgreSQL role whose grants were revoked since the database was judged
    writable (``PostgresStore.READ_ONLY_SECONDS``) had that write refused, and the search
    failed with it, where its other writes (a fact's access) were skipped."""

    def __init__(self, tier: MeaningTier,
                 unless_refused: Callable[[], AbstractContextManager[Any]]) -> None:
        self.tier = tier
        self.unless_refused = unless_refused

    def __getattr__(self, name: str) -> Any:
        return getattr(self.tier, name)

    def cosines(self, store: Store, query: str, items: Sequence[Item],
                terms: Iterable[str] = (), cold: int = 0) -> dict[int, float]:
        return self.tier.cosines(store, query, items, terms, cold,
                                 unless_refused=self.unless_refused)


def load_vectors(path: str | Path) -> dict[bytes, np.ndarray]:
    """Vectors by text hash from a file ``save_vectors`` wrote; ValueError naming what is
    wrong for any other file."""
    try:
        with np.load(path, allow_pickle=False) as f:
            hashes, vectors = f["hashes"], f["vectors"]
    except (OSError, ValueError, KeyError) as exc:
        raise ValueError(f"{path}: not a vectors file written by save_vectors ({exc})") from exc
    if (hashes.ndim != 2 or hashes.shape[1] != 32 or hashes.dtype != np.uint8 or vectors.ndim != 2
            or len(vectors) != len(hashes) or not np.issubdtype(vectors.dtype, np.floating)):
        raise ValueError(f"{path}: expected 'hashes' (n, 32) uint8 and 'vectors' (n, d) float, got "
                         f"{hashes.shape} {hashes.dtype} and {vectors.shape} {vectors.dtype}")
    return dict(zip((bytes(h) for h in hashes), vectors, strict=True))


def save_vectors(path: str | Path, vectors: dict[bytes, np.ndarray]) -> None:
    """Write vectors by text hash to ``path`` (an ``.npz``: the 32-byte hashes and the
    float32 rows)."""
    hashes = np.array([np.frombuffer(h, dtype=np.uint8) for h in vectors], dtype=np.uint8)
    rows = np.asarray(list(vectors.values()), dtype=np.float32)
    tmp = Path(str(path) + ".tmp.npz")
    np.savez(tmp, hashes=hashes.reshape(len(vectors), 32), vectors=rows)
    tmp.replace(path)


_SHARED: dict[tuple[int, int], MeaningTier] = {}
_SHARED_LOCK = threading.Lock()


_EMBEDDERS: dict[int, Embedder] = {}


def shared_tier(max_tokens: int = 128, window: int = 0) -> MeaningTier:
    """One tier per process, token limit and window (the model loads once per token
    limit, whatever the Memory)."""
    from memlane.backends.embed.onnx import meaning_embedder

    with _SHARED_LOCK:
        tier = _SHARED.get((max_tokens, window))
        if tier is None:
            emb = _EMBEDDERS.get(max_tokens)
            if emb is None:
                emb = _EMBEDDERS[max_tokens] = meaning_embedder(max_tokens)
            tier = _SHARED[(max_tokens, window)] = MeaningTier(emb, window=window)
        return tier


def loaded_tier(max_tokens: int = 128, window: int = 0) -> MeaningTier | None:
    """The tier ``shared_tier`` made for this token limit and window, or None when none was
    made in this process (nothing is loaded)."""
    with _SHARED_LOCK:
        return _SHARED.get((max_tokens, window))
