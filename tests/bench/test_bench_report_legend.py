"""The report's plots name where their legend goes: matplotlib's default search for the "best"
place warns when it takes over a second, and with warnings as errors a bench run on a loaded
machine failed writing its report (session 46's CI: a LoCoMo run resumed under load). Here the
clock matplotlib's legend reads jumps five seconds a call, as a slow machine's would, and no plot
may warn."""

from __future__ import annotations

import itertools
import types
from pathlib import Path

import matplotlib.legend
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.metrics import aggregate, score_ranking
from memlane.bench.report import _plot_latency, _plot_recall


@pytest.fixture
def slow_legend_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = itertools.count(step=5.0)
    monkeypatch.setattr(matplotlib.legend, "time", types.SimpleNamespace(perf_counter=lambda: next(ticks)))


def test_the_clock_here_makes_a_default_legend_warn(slow_legend_clock: None, tmp_path: Path) -> None:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([1, 2, 3], [1, 2, 3], label="x")
    ax.legend()
    with pytest.warns(UserWarning, match="loc=\"best\""):
        fig.savefig(tmp_path / "x.png")
    plt.close(fig)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.floats(min_value=0.0001, max_value=5.0), min_size=1, max_size=300),
       st.lists(st.sets(st.integers(0, 9), min_size=1, max_size=3), min_size=1, max_size=5))
def test_no_plot_warns_however_slow_the_legend_would_be(tmp_path_factory: pytest.TempPathFactory,
                                                        latencies: list[float], golds: list[set[int]]) -> None:
    ticks = itertools.count(step=5.0)
    saved = matplotlib.legend.time
    matplotlib.legend.time = types.SimpleNamespace(perf_counter=lambda: next(ticks))  # type: ignore[attr-defined]
    try:
        out = tmp_path_factory.mktemp("plots")
        ranked = [f"s{i}" for i in range(10)]
        level = aggregate([("multi-session", score_ranking(ranked, {f"s{g}" for g in gold})) for gold in golds])
        summary = {"dataset": "test", "systems": {"memlane": {"levels": {"session": level}},
                                                  "bm25": {"levels": {"session": level}}}}
        assert _plot_recall(summary, "session", out / "recall.png")
        assert _plot_latency({"memlane": latencies, "bm25": latencies[::-1]}, out / "latency.png")
    finally:
        matplotlib.legend.time = saved  # type: ignore[attr-defined]
    assert (out / "recall.png").stat().st_size > 0 and (out / "latency.png").stat().st_size > 0
