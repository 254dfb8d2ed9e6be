"""The confidence formula against hand-computed values."""

import pytest

from memlane.config import ConfidenceConfig
from memlane.index.confidence import confidence, staleness

DAY = 86_400.0
CFG = ConfidenceConfig()


@pytest.mark.parametrize(("days", "expected"), [
    (0, 1.0),
    (30, 1.0),
    (200, 1.0 - (170 / 335) * 0.5),  # 0.746268...
    (365, 0.5),
    (1000, 0.5),
])
def test_staleness(days, expected):
    assert staleness(days, CFG) == pytest.approx(expected)


@pytest.mark.parametrize(("source", "reinf", "days", "expected"), [
    ("stated", 0, 0, 1.0),
    ("system", 0, 0, 0.9),
    ("observed", 2, 30, 0.7 * 1.2),
    ("inferred", 3, 200, 0.5 * 1.3 * 0.7462686567),
    ("stated", 9, 365, 1.0 * 1.5 * 0.5),  # the reinforcement cap
    ("stated", 100, 0, 1.5),
])
def test_confidence(source, reinf, days, expected):
    now = 1_700_000_000.0
    assert confidence(source, reinf, now - days * DAY, now, CFG) == pytest.approx(expected, rel=1e-6)


def test_superseded_is_zero_and_constants_are_config():
    now = 1e9
    assert confidence("stated", 5, now, now, CFG, superseded=True) == 0.0
    cfg = ConfidenceConfig(base_stated=0.8, reinforcement_step=0.2, reinforcement_cap=2.0,
                           staleness_days=10, staleness_full_days=110, staleness_floor=0.2)
    assert confidence("stated", 1, now - 60 * DAY, now, cfg) == pytest.approx(0.8 * 1.2 * 0.6)
