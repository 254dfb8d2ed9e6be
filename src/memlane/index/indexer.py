"""The minimal indexer: closed sessions' turns become searchable ``turn`` items."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from memlane.config import Config
from memlane.index.embed import Embeddings
from memlane.index.expand import context_words, item_keys
from memlane.types import IndexReport
from memlane.store.contract import Store

__all__ = ["close_idle", "index_pending"]


def close_idle(store: Store, cfg: Config, now: datetime) -> list[int]:
    """Close open sessions whose last message is older than the gap as of ``now``."""
    before = now.timestamp() - cfg.ingest.session_gap_minutes * 60.0
    closed = []
    with store.atomic():
        for sid in store.idle_sessions(before):
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
) -> IndexReport:
    """Index every closed, unindexed session: one turn item (with vector) per message.

    Embedding happens outside the write transaction. Each batch is claimed inside its
    transaction (``indexed_at`` set only if still empty), so two indexers never index a
    session twice and a crash leaves no half-indexed session.
    """
    t0 = time.perf_counter()
    sessions = items = 0
    embedded0, hits0 = embeddings.embedded, embeddings.cache_hits
    seen: set[int] = set()
    while True:
        # reserved: indexers side by side take different batches to embed
        batch = [s for s in store.sessions_to_index(batch_sessions, reserve=True) if s.id not in seen]
        if not batch:
            break
        seen.update(s.id for s in batch)
        rows: list[dict[str, Any]] = []
        messages = store.sessions_messages(s.id for s in batch)  # one query, not one a session
        for s in batch:
            prev, prev_role = "", ""
            for m in messages[s.id]:
                if m.role == "user" and prev_role == "assistant":
                    prev = ""  # an answer's opening words would blur what the user said
                rows.append({
                    "kind": "turn", "text": m.text, "at": m.at.timestamp(), "scope": m.scope,
                    "agent": m.agent, "project": m.project, "session_id": s.id,
                    "message_id": m.id, "seq": m.seq, "role": m.role, "source": "observed",
                    "durability": "long", "lane": "episodic",
                    "extra": {"speaker": m.speaker} if m.speaker else {},
                    # Keys: the speaker's name ("what did Melanie say" finds Melanie's turns,
                    # which rarely name her) and, for a short turn, the previous message's
                    # words (not the assistant's for a user turn: measured on LongMemEval).
                    "keys": item_keys(m.text, m.at, (m.speaker or "", context_words(prev, m.text))),
                })
                prev, prev_role = m.text, m.role
        vecs = embeddings.for_index([r["text"] for r in rows])
        with store.atomic():
            claimed = store.claim_sessions_for_index(s.id for s in batch)
            keep = [(r, v) for r, v in zip(rows, vecs, strict=True) if r["session_id"] in claimed]
            ids = store.insert_items([r for r, _ in keep])
            store.put_vectors(embeddings.model, [(i, v) for i, (_, v) in zip(ids, keep, strict=True)])
            store.bump("sessions_indexed", len(claimed))
            store.bump("items_indexed", len(ids))
        sessions += len(claimed)
        items += len(ids)
        if progress is not None:
            progress(sessions, items)
    if items:
        # a bulk load is done: build the approximate index in one pass now, if it is due
        store.ensure_vector_index(embeddings.model, embeddings.embedder.dim)
    return IndexReport(
        sessions_closed=0,
        sessions_indexed=sessions,
        items_indexed=items,
        texts_embedded=embeddings.embedded - embedded0,
        cache_hits=embeddings.cache_hits - hits0,
        seconds=time.perf_counter() - t0,
    )
