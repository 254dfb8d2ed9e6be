"""Whatever order statements are indexed in (an old conversation imported late, several
workers on one scope), the current value of a single-valued fact is the one stated last."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.testing import memory

DAY = 86_400
T0 = 1_700_000_000


@st.composite
def statements_and_order(draw: st.DrawFn) -> tuple[list[tuple[int, str]], list[int]]:
    """Statements (day, value) on distinct days, and the order they are indexed in."""
    days = draw(st.lists(st.integers(0, 60), min_size=1, max_size=8, unique=True))
    values = draw(st.lists(st.sampled_from(["porto", "faro", "braga"]),
                           min_size=len(days), max_size=len(days)))
    order = draw(st.permutations(range(len(days))))
    return list(zip(days, values, strict=True)), list(order)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(statements_and_order())
def test_the_value_stated_last_is_current_in_any_order(case) -> None:
    statements, order = case
    with tempfile.TemporaryDirectory() as d:
        mem = memory(Path(d) / "order.db")
        try:
            for i in order:
                day, value = statements[i]
                mem.add_fact("user", "lives_in", value, scope="s", at=T0 + day * DAY)
            current = mem.facts("s", now=T0 + 100 * DAY)
            assert [f.object for f in current] == [max(statements)[1]]
        finally:
            mem.close()


def test_a_reinforced_value_outlives_an_older_contradiction_indexed_last(tmp_path: Path) -> None:
    mem = memory(tmp_path / "late.db")
    try:
        mem.add_fact("user", "lives_in", "faro", scope="s", at=T0 + 54 * DAY)
        assert mem.add_fact("user", "lives_in", "faro", scope="s", at=T0 + 58 * DAY).action == "reinforced"
        late = mem.add_fact("user", "lives_in", "porto", scope="s", at=T0 + 56 * DAY)
        assert late.action == "historical"
        assert [f.object for f in mem.facts("s", now=T0 + 60 * DAY)] == ["faro"]
    finally:
        mem.close()
