"""The confidence of a fact, exactly as DESIGN.md states it (every constant configurable)."""

from __future__ import annotations

from memlane.config import ConfidenceConfig

__all__ = ["base_score", "confidence", "staleness"]

DAY = 86_400.0


def base_score(source: str, cfg: ConfidenceConfig) -> float:
    """stated 1.0, system 0.9, observed 0.7, inferred 0.5 by default."""
    return {
        "stated": cfg.base_stated,
        "system": cfg.base_system,
        "observed": cfg.base_observed,
        "inferred": cfg.base_inferred,
    }.get(source, cfg.base_inferred)


def staleness(days_since_access: float, cfg: ConfidenceConfig) -> float:
    """1.0 under ``staleness_days``; linear down to ``staleness_floor`` at
    ``staleness_full_days``; the floor after that."""
    if days_since_access <= cfg.staleness_days:
        return 1.0
    if days_since_access >= cfg.staleness_full_days:
        return cfg.staleness_floor
    span = cfg.staleness_full_days - cfg.staleness_days
    frac = (days_since_access - cfg.staleness_days) / span
    return 1.0 - frac * (1.0 - cfg.staleness_floor)


def confidence(
    source: str,
    reinforcements: int,
    last_accessed: float,
    now: float,
    cfg: ConfidenceConfig,
    *,
    superseded: bool = False,
) -> float:
    """``base(source) × min(1 + step × reinforcements, cap) × staleness × (0 if superseded)``."""
    if superseded:
        return 0.0
    boost = min(1.0 + cfg.reinforcement_step * reinforcements, cfg.reinforcement_cap)
    days = max(0.0, (now - last_accessed) / DAY)
    return base_score(source, cfg) * boost * staleness(days, cfg)
