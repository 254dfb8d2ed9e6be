"""Memory hygiene: expire items past their TTL, keep each lane under its cap."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memlane.config import HygieneConfig, LiveConfig
from memlane.index.normalize import name_key
from memlane.store.contract import Store
from memlane.types import Message

__all__ = ["GcReport", "collect_garbage", "offline_entity_keys"]


@dataclass(frozen=True, slots=True)
class GcReport:
    expired: int
    evicted: dict[str, int]
    changes_pruned: int = 0
    """Rows of the live stream's change log pruned (``[memory.live]``)."""
    nodes_removed: int = 0
    """Graph nodes no entity item named, which hygiene before session 28 left when it
    evicted their items (``remove_unnamed_entities``)."""
    relations_removed: int = 0
    """Relations an older memlane left without the fact they restate (its eviction or
    erase took the fact; session 31) or without the node an end was (its eviction took
    the node; session 32): ``remove_dangling_relations``."""


def offline_entity_keys(messages: Sequence[Message]) -> set[str]:
    """The keys of the entities the offline patterns read in a session's ``messages``: the
    nodes the pipeline made of them when the patterns read the session (a session too small
    for a summary, whatever the backend, or one the offline backend summarized). ``gc``
    places a relation whose summary says nothing of its ends by them (session 33). Entities
    do not depend on the sentence model, so none is loaded."""
    from memlane.index.offline import OfflineIntelligence

    if not messages:
        return set()
    _, extraction = OfflineIntelligence(None).summarize(messages[0].scope, messages)
    return {name_key(e.name) for e in extraction.entities}


def collect_garbage(store: Store, cfg: HygieneConfig, now: float,
                    live: LiveConfig | None = None, *, nodes: bool = True) -> GcReport:
    """One transaction: expired items go, then the lowest-value items of lanes over cap.

    Items leave with their lexical and vector rows (triggers and cascades), and facts
    whose item leaves go with it. Pinned items are never expired or evicted. Then the
    graph's nodes no entity item names go (each scope that has one in a transaction of its
    own: an older memlane's hygiene left them), then the relations read beside a fact
    that is gone (the same way), and, in a transaction of its own, the live
    stream's change log is pruned to ``live``'s limits. ``nodes=False`` leaves the nodes and
    relations: finding them reads every entity item, node, fact and relation of the
    database, a cost the background worker's rounds (``Memory.work_once``) do not pay each
    few seconds; ``memlane gc`` does.
    """
    with store.atomic():
        # what goes is chosen first, so that the facts locks of its scopes are taken at once
        # in one order, before any of its rows (PostgreSQL: ``lock_items_facts``)
        doomed = store.expiring_items(now)
        lowest = {}
        for lane, cap in cfg.caps().items():
            over = store.lane_count(lane) - cap
            if over > 0:
                lowest[lane] = store.lowest_items(lane, over)
        store.lock_items_facts([*doomed, *(i for ids in lowest.values() for i in ids)])
        expired = store.remove_items(doomed, "expired")
        evicted = {lane: store.remove_items(ids, "evicted") for lane, ids in lowest.items()}
        store.bump("items_expired", expired)
        store.bump("items_evicted", sum(evicted.values()))
    removed = store.remove_unnamed_entities() if nodes else 0
    dangling = store.remove_dangling_relations(read=offline_entity_keys) if nodes else 0
    live = live or LiveConfig()
    pruned = store.prune_changes(before=now - live.keep_days * 86_400, keep=live.keep_changes)
    store.fold_counters()  # PostgreSQL: the counter rows of connections that ended
    return GcReport(expired, evicted, pruned, removed, dangling)
