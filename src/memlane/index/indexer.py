"""The minimal indexer: closed sessions' turns become searchable ``turn`` items."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import suppress
from datetime import datetime
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from memlane.config import Config
from memlane.errors import MemlaneError
from memlane.index.embed import Embeddings
from memlane.index.expand import REPLY_WORDS, context_words, item_keys
from memlane.types import IndexReport, Message, Session
from memlane.store.contract import Store

__all__ = ["close_idle", "index_pending", "turn_keys"]


def close_idle(store: Store, cfg: Config, now: datetime, scope: str | None = None) -> list[int]:
    """Close open sessions (of ``scope``, else every scope's) whose last message is older
    than the gap as of ``now``."""
    before = now.timestamp() - cfg.ingest.session_gap_minutes * 60.0
    closed = []
    with store.atomic():
        for sid in store.idle_sessions(before, scope):
            if store.close_session(sid, "idle"):
                closed.append(sid)
        if closed:
            store.bump("sessions_closed", len(closed))
            store.bump("sessions_closed_idle", len(closed))
    return closed


def index_pending(
    store: Store,
    embeddings: Embeddings,
    *,
    batch_sessions: int = 64,
    progress: Callable[[int, int], None] | None = None,
    scope: str | None = None,
) -> IndexReport:
    """Index every closed, unindexed session: one turn item (with vector) per message.

    Embedding happens outside the write transaction. Each batch is claimed inside its
    transaction (``indexed_at`` set only if still empty), so two indexers never index a
    session twice and a crash leaves no half-indexed session.

    The next batch is read and embedded (in the store's prefetch thread, see
    ``_prefetcher``) while this one is written: the client's work (reading, keys,
    embedding) and the server's (inserting, the full-text and vector rows) overlap instead
    of taking turns. Only one batch is ever ahead, and it is reserved but not claimed, so
    a crash still leaves nothing half-written (another indexer takes it).
    """
    t0 = time.perf_counter()
    sessions = items = 0
    embedded0, hits0 = embeddings.embedded, embeddings.cache_hits
    seen: set[int] = set()

    def prepare(writing: frozenset[int]) -> tuple[
            list[Session], list[dict[str, Any]], dict[int, tuple[tuple[int, int], ...]],
            set[int], np.ndarray] | None:
        # reserved: indexers side by side take different batches to embed; ``writing`` is
        # the batch being written meanwhile, which stays reserved and is not taken again
        batch = [s for s in store.sessions_to_index(batch_sessions, reserve=True, exclude=writing,
                                                    scope=scope)
                 if s.id not in seen]
        if not batch:
            return None
        seen.update(s.id for s in batch)
        messages = store.sessions_messages(s.id for s in batch)  # one query
        # a session a late message joined is indexed again: only its messages without a
        # turn become turns (for a session indexed for the first time, nothing is there)
        had = store.sessions_items(messages, kind="turn")
        turned = {it.message_id for its in had.values() for it in its}
        rows = [r for r in _turn_rows(batch, messages) if r["message_id"] not in turned]
        read = {sid: _numbering(ms) for sid, ms in messages.items()}
        return batch, rows, read, set(had), embeddings.for_index([r["text"] for r in rows])

    slot = _prefetcher(store)
    pool = slot[1] if slot is not None and slot[0].acquire(blocking=False) else None
    ahead: Future[Any] | None = None
    try:
        if pool is not None:
            ahead = pool.submit(prepare, frozenset())
        while True:
            got = ahead.result() if ahead is not None else prepare(frozenset())
            if got is None:
                break
            batch, rows, read, again, vecs = got
            if pool is not None:
                ahead = pool.submit(prepare, frozenset(s.id for s in batch))
            with store.atomic():
                claimed = store.claim_sessions_for_index(s.id for s in batch)
                # a late message that joined a session after its messages were read (it
                # took its place in time order and the later messages' seq moved), or one
                # erased (``forget_item`` of a turn numbers the rest again and their keys
                # change): the session is indexed again by the next pass, from what is
                # stored then; none of the turns read here is written (they would carry
                # the old numbers, or an erased message's words; session 23). Its messages
                # and their numbers are compared, not their count: an erase and a late
                # message between the read and the write leave the count as it was (the
                # late message got no turn and the session was marked indexed; rev23)
                now = store.sessions_messages(claimed)
                grown = {sid for sid in claimed
                         if _numbering(now.get(sid, [])) != read.get(sid)}
                if grown:
                    store.unclaim_for_index(grown)
                keep = [(r, v) for r, v in zip(rows, vecs, strict=True)
                        if r["session_id"] in claimed and r["session_id"] not in grown]
                # a late message took its place between two turns: the turn after it had
                # its previous neighbour's words in its keys (``turn_keys``; session 24)
                store.rekey_turns(sorted((claimed - grown) & again))
                ids = store.insert_items([r for r, _ in keep])
                store.put_vectors(embeddings.model, [(i, v) for i, (_, v) in zip(ids, keep, strict=True)])
                store.bump("sessions_indexed", len(claimed))
                store.bump("items_indexed", len(ids))
                if len(claimed) < len(batch):  # another indexer's, or erased meanwhile
                    # last: the embedding cache's rows are every scope's (docs/store.md,
                    # "Session 27: locks and their order")
                    _forget_erased(store, batch, claimed, rows)
            sessions += len(claimed)
            items += len(ids)
            if progress is not None:
                progress(sessions, items)
    except BaseException:
        # a failed run lets go of its reservations too (so other indexers may build the
        # graph), without hiding the error should the connection be gone
        with suppress(MemlaneError):
            _release(store, pool, ahead)
        raise
    else:
        _release(store, pool, ahead)
    finally:
        if pool is not None:
            slot[0].release()  # type: ignore[index]
    if seen:
        # a bulk load is done: build the approximate index in one pass now, if it is due
        # (PostgreSQL leaves it to the last indexer while others are still inserting)
        store.ensure_vector_index(embeddings.model, embeddings.embedder.dim)
    return IndexReport(
        sessions_closed=0,
        sessions_indexed=sessions,
        items_indexed=items,
        texts_embedded=embeddings.embedded - embedded0,
        cache_hits=embeddings.cache_hits - hits0,
        seconds=time.perf_counter() - t0,
    )


def _numbering(messages: Sequence[Message]) -> tuple[tuple[int, int], ...]:
    """A session's messages as the indexer read them: ``(id, seq)`` each, in order."""
    return tuple((m.id, m.seq) for m in messages)


def _forget_erased(store: Store, batch: list[Session], claimed: set[int],
                   rows: list[dict[str, Any]]) -> None:
    """The embedding cache's vectors of the turns of sessions erased since this batch was
    read (docs/erasure.md): the batch cached them before the erase took the rest."""
    lost = {s.id for s in batch} - claimed
    gone = lost - set(store.get_sessions(lost))
    if gone:
        store.forget_cached_texts([r["text"] for r in rows if r["session_id"] in gone])


def _release(store: Store, pool: ThreadPoolExecutor | None, ahead: Future[Any] | None) -> None:
    """Wait for the batch being prepared, then end every reservation of the run (the
    prefetch connection's, or this thread's): a limit of 0 takes none."""
    if pool is None:
        store.sessions_to_index(0, reserve=True)
        return
    if ahead is not None:
        ahead.cancel()
        wait([ahead])
    pool.submit(store.sessions_to_index, 0, reserve=True).result()


def turn_keys(messages: Sequence[Message]) -> dict[int, str]:
    """The lexical keys of each message's turn, by message id, from a session's messages in
    order: the speaker's name ("what did Melanie say" finds Melanie's turns, which rarely
    name her), for a short turn the previous message's words (not the assistant's for
    a user turn: measured on LongMemEval) and, between two people (both role user, the
    next message by another speaker), the reply's words (a turn showing a friend a new
    puppy is found by the reply's name for it: docs/retrieval.md, session 24). An erase that
    takes a message back, and a late message that joins an indexed session, compute the
    session's keys again (``store.sql.erase``, ``index_pending``): a neighbour held its
    words."""
    out: dict[int, str] = {}
    prev, prev_role = "", ""
    for i, m in enumerate(messages):
        if m.role == "user" and prev_role == "assistant":
            prev = ""  # an answer's opening words would blur what the user said
        reply = ""
        if REPLY_WORDS and i + 1 < len(messages):
            n = messages[i + 1]
            if m.role == n.role == "user" and n.speaker and n.speaker != m.speaker:
                reply = context_words(n.text, m.text, REPLY_WORDS)
        out[m.id] = item_keys(m.text, m.at, (m.speaker or "", context_words(prev, m.text), reply))
        prev, prev_role = m.text, m.role
    return out


def _turn_rows(batch: list[Session], messages: dict[int, list[Message]]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for s in batch:
        keys = turn_keys(messages[s.id])
        for m in messages[s.id]:
            rows.append({
                "kind": "turn", "text": m.text, "at": m.at.timestamp(), "scope": m.scope,
                "agent": m.agent, "project": m.project, "session_id": s.id,
                "message_id": m.id, "seq": m.seq, "role": m.role, "source": "observed",
                "durability": "long", "lane": "episodic",
                "extra": {"speaker": m.speaker} if m.speaker else {},
                "keys": keys[m.id],
            })
    return rows


# One prefetch thread a store (it keeps its own connection open while the store lives),
# with a lock so that two runs on one store at once do not share it: the second runs
# without prefetching.
_PREFETCH: WeakKeyDictionary[Any, tuple[threading.Lock, ThreadPoolExecutor]] = WeakKeyDictionary()
_PREFETCH_LOCK = threading.Lock()


def _prefetcher(store: Store) -> tuple[threading.Lock, ThreadPoolExecutor] | None:
    try:
        with _PREFETCH_LOCK:
            slot = _PREFETCH.get(store)
            if slot is None:
                slot = _PREFETCH[store] = (threading.Lock(), ThreadPoolExecutor(
                    1, thread_name_prefix="memlane-index-prefetch"))
            return slot
    except TypeError:  # a store that cannot be weakly referenced: no prefetching
        return None
