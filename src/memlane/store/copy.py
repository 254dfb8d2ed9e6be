"""Copy a whole memory from one store to another (SQLite to PostgreSQL and back).

Backend-neutral: it uses only store methods (``iter_*`` to read every column of every
row, ``restore_*`` / ``put_vectors`` / ``cache_vectors`` / ``bump`` to write). Nothing is
lost: sessions keep their status, reasons, summary version, intelligence queue state and
indexed time; messages and items keep every field (pins too); entities, facts (with
supersession) and their event history, relations, journaled packs, vectors, the embedding
cache, the HTTP service's API keys (their hashes, revoked ones too) and the counters come
along. The live stream's change log goes on from the source's last id (``restore_change_head``):
a client that had read the source's last change resumes on the copy (the copy's own
records, the same state, come next), any other position of the source gets a reset.

Ids are kept, so every link (an item's session and message, its parents and children)
stays valid, and so do ids an application stored. For the same reason the target must be
empty: merging two memories would make ids collide. Each table's largest id ever given
comes along too (``id_marks``: SQLite's ``id_floor``, PostgreSQL's sequences), so an id
erased in the source before the copy is never given to a new row of the copy. The copy is one transaction on the
target (a failure leaves it empty) and is checked against the source before it commits.
A PostgreSQL source is read in one snapshot (``Store.snapshot``): writers may go on, and
the copy is the database as of its start. Stop writers on a SQLite source while copying.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from memlane.errors import StoreError
from memlane.store.contract import Store

__all__ = ["CopyReport", "copy_store", "is_empty", "summary"]

T = TypeVar("T")
BATCH = 1000


@dataclass(frozen=True, slots=True)
class CopyReport:
    """How many rows of each kind were copied."""

    sessions: int = 0
    messages: int = 0
    items: int = 0
    entities: int = 0
    facts: int = 0
    relations: int = 0
    fact_events: int = 0
    packs: int = 0
    pinned: int = 0
    api_keys: int = 0
    vectors: int = 0
    embed_cache: int = 0
    counters: dict[str, int] = field(default_factory=dict)


def summary(store: Store) -> dict[str, Any]:
    """The counts that must agree between a source and its copy."""
    st = store.stats()
    return {k: st[k] for k in ("messages", "sessions", "items", "vectors", "embed_cache", "counters")}


def is_empty(store: Store) -> bool:
    s = summary(store)
    return not (s["messages"] or s["sessions"] or s["items"] or s["vectors"] or s["embed_cache"]
                or s["counters"] or store.has_api_keys())


def _row_counts(store: Store) -> dict[str, int]:
    """Rows of the kinds ``stats()`` does not count, counted through the iterators."""
    return {
        "entities": sum(1 for _ in store.iter_entities()),
        "facts": sum(1 for _ in store.iter_facts()),
        "relations": sum(1 for _ in store.iter_relations()),
        "fact_events": sum(1 for _ in store.iter_fact_events()),
        "packs": sum(1 for _ in store.iter_packs()),
        "pinned": sum(1 for _ in store.iter_pinned()),
        "api_keys": sum(1 for _ in store.iter_api_keys()),
    }


_ROW_KINDS = ("entities", "facts", "relations", "fact_events", "packs", "pinned", "api_keys")


def _batches(rows: Iterable[T], size: int = BATCH) -> Iterator[list[T]]:
    batch: list[T] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _vector_batches(
    rows: Iterable[tuple[int, str, np.ndarray]],
) -> Iterator[tuple[str, list[tuple[int, np.ndarray]]]]:
    """Consecutive vectors of one model, in batches."""
    model: str | None = None
    batch: list[tuple[int, np.ndarray]] = []
    for item_id, m, vec in rows:
        if (m != model or len(batch) >= BATCH) and batch:
            yield model, batch  # type: ignore[misc]
            batch = []
        model = m
        batch.append((item_id, vec))
    if batch and model is not None:
        yield model, batch


def copy_store(
    source: Store, target: Store, *, progress: Callable[[str, int], None] | None = None
) -> CopyReport:
    """Copy everything in ``source`` into the empty ``target``; returns what was copied.

    Raises StoreError if the target is not empty or if, after copying, the target's
    counts differ from the source's (nothing is committed then).
    """
    if not is_empty(target):
        s = summary(target)
        keys = len(target.api_keys())
        raise StoreError(
            f"copy: the target {target.url} is not empty ({s['messages']} messages, "
            f"{sum(s['items'].values())} items, {keys} API key(s)); copy into a new, empty "
            "database"
        )

    def step(kind: str, n: int) -> None:
        if progress is not None:
            progress(kind, n)

    counts = dict.fromkeys(
        ("sessions", "messages", "items", "entities", "facts", "relations", "fact_events",
         "packs", "pinned", "api_keys", "vectors", "embed_cache"), 0)
    with source.snapshot(), target.atomic():
        steps: tuple[tuple[str, Iterable[Any], Callable[[Any], None]], ...] = (
            ("sessions", source.iter_sessions(), target.restore_sessions),
            ("messages", source.iter_messages(), target.restore_messages),
            ("items", source.iter_items(), target.restore_items),
            ("entities", source.iter_entities(), target.restore_entities),
            ("relations", source.iter_relations(), target.restore_relations),
            ("fact_events", source.iter_fact_events(), target.restore_fact_events),
            ("packs", source.iter_packs(), target.restore_packs),
            ("pinned", source.iter_pinned(), target.restore_pinned),
            ("api_keys", source.iter_api_keys(), target.restore_api_keys),
        )
        for kind, rows, write in steps:
            for batch in _batches(rows):
                write(batch)
                counts[kind] += len(batch)
                step(kind, counts[kind])
        facts = list(source.iter_facts())  # one call: supersession links may point forward
        target.restore_facts(facts)
        counts["facts"] = len(facts)
        step("facts", counts["facts"])
        widths: set[tuple[str, int]] = set()
        for model, pairs in _vector_batches(source.iter_vectors()):
            target.put_vectors(model, pairs)
            widths.update((model, len(v)) for _, v in pairs)
            counts["vectors"] += len(pairs)
            step("vectors", counts["vectors"])
        cache: dict[str, list[tuple[bytes, np.ndarray]]] = {}
        for model, digest, vec in source.iter_cache():
            cache.setdefault(model, []).append((digest, vec))
            if len(cache[model]) >= BATCH:
                target.cache_vectors(model, cache.pop(model))
            counts["embed_cache"] += 1
        for model, entries in cache.items():
            target.cache_vectors(model, entries)
        step("embed_cache", counts["embed_cache"])
        merge = getattr(target, "merge_lexical_index", None)  # SQLite: FTS5's segments in one
        if merge is not None:
            merge()
        for model, dim in sorted(widths):  # after the load: each graph built in one pass
            target.ensure_vector_index(model, dim)
        # new rows of the copy never take an id erased in the source before the copy
        target.restore_id_marks(source.id_marks())
        # the live stream's ids go on from the source's: the copy's own rows after them
        target.restore_change_head(source.delivered_change_id())  # no write: a replica too
        counters = source.counters()
        for name, value in counters.items():
            target.bump(name, value)
        want = {**summary(source), **{k: counts[k] for k in _ROW_KINDS}}
        got = {**summary(target), **_row_counts(target)}
        if want != got:
            diff = {k: (want[k], got[k]) for k in want if want[k] != got[k]}
            raise StoreError(
                f"copy: the target does not match the source after copying ({diff}); "
                "nothing was written. Was the source written to during the copy?"
            )
    return CopyReport(counters=counters, **counts)
