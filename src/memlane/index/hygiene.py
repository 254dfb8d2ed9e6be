"""Memory hygiene: expire items past their TTL, keep each lane under its cap."""

from __future__ import annotations

from dataclasses import dataclass

from memlane.config import HygieneConfig
from memlane.store.contract import Store

__all__ = ["GcReport", "collect_garbage"]


@dataclass(frozen=True, slots=True)
class GcReport:
    expired: int
    evicted: dict[str, int]


def collect_garbage(store: Store, cfg: HygieneConfig, now: float) -> GcReport:
    """One transaction: expired items go, then the lowest-value items of lanes over cap.

    Items leave with their lexical and vector rows (triggers and cascades), and facts
    whose item leaves go with it. Pinned items are never expired or evicted.
    """
    with store.atomic():
        expired = store.expire_items(now)
        evicted = {}
        for lane, cap in cfg.caps().items():
            over = store.lane_count(lane) - cap
            if over > 0:
                evicted[lane] = store.evict_lowest(lane, over)
        store.bump("items_expired", expired)
        store.bump("items_evicted", sum(evicted.values()))
    return GcReport(expired, evicted)
