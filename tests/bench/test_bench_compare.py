"""``memlane bench compare A B`` (session 27): two runs of one data file, each metric A -> B
overall and per question type or category, with the questions gained and lost. Before,
two runs were compared with ``read_rankings`` and a script, or a diff, by hand."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.bench.datasets import load_longmemeval
from memlane.bench.metrics import metric_names
from memlane.bench.report import write_rankings
from memlane.serve.cli import cli

DATA = Path(__file__).parent / "data"
LME = DATA / "longmemeval-sample.json"
LOCOMO = DATA / "locomo-sample.json"
FAST = ["--embedder", "hashing"]


def _bench(*args: str) -> Any:
    return CliRunner().invoke(cli, ["bench", *args])


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("runs")
    out = {}
    for dataset, data in (("longmemeval", LME), ("locomo", LOCOMO)):
        out[dataset] = folder / dataset
        result = _bench(dataset, "--data", str(data), "--out", str(out[dataset]),
                        "--baseline", "bm25", *FAST)
        assert result.exit_code == 0, result.output
    return out


def _compare(*args: str) -> dict[str, Any]:
    result = _bench("compare", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


@pytest.mark.parametrize("dataset", ["longmemeval", "locomo"])
def test_a_runs_means_in_compare_are_its_reports(runs: dict[str, Path], dataset: str) -> None:
    """A (memlane) and B (the bm25 baseline's file of the same run): each side's means, per
    group and overall, are the report's own, for every metric and level."""
    run = runs[dataset]
    report = json.loads((run / "report.json").read_text())["systems"]
    levels = ("session", "turn") if dataset == "longmemeval" else ("turn",)
    for level in levels:
        kind = level if dataset == "longmemeval" else "locomo"
        got = _compare(str(run), str(run / f"rankings-{kind}.bm25.jsonl"))["levels"]
        assert list(got) == [level]
        for side, system in (("a", "memlane"), ("b", "bm25")):
            want = report[system]["levels"][level]
            assert set(got[level]) == set(want)
            for group, g in got[level].items():
                assert g["n"] == want[group]["n"]
                for m in metric_names():
                    assert g["metrics"][m][side] == pytest.approx(want[group][m], abs=1e-12)


def _rankings(folder: Path, name: str, seed: int) -> Path:
    """A session rankings file of the sample: each haystack shuffled by ``seed``."""
    rng = random.Random(seed)
    ranked = {}
    for q in load_longmemeval(LME):
        ids = [s.id for s in q.sessions]
        rng.shuffle(ids)
        ranked[q.question_id] = ids
    path = folder / name
    write_rankings(path, ranked, list(ranked))
    return path


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed_a=st.integers(0, 10_000), seed_b=st.integers(0, 10_000))
def test_gained_lost_and_deltas_agree_and_swap(tmp_path: Path, seed_a: int, seed_b: int) -> None:
    """Any two rankings: B - A is the delta; for a recall (0 or 1 a question) the delta is
    (gained - lost) / n; the ids --list names are as many as counted; B -> A swaps gained
    and lost and turns the sign."""
    a = _rankings(tmp_path, "a.jsonl", seed_a)
    b = _rankings(tmp_path, "b.jsonl", seed_b)
    ab = _compare(str(a), str(b), "--data", str(LME), "--list")
    ba = _compare(str(b), str(a), "--data", str(LME))
    assert list(ab["levels"]) == ["session"]
    for group, g in ab["levels"]["session"].items():
        for m, r in g["metrics"].items():
            assert r["delta"] == pytest.approx(r["b"] - r["a"])
            assert len(r["gained_ids"]) == r["gained"] and len(r["lost_ids"]) == r["lost"]
            assert not set(r["gained_ids"]) & set(r["lost_ids"])
            if m.startswith("recall"):
                assert r["delta"] == pytest.approx((r["gained"] - r["lost"]) / g["n"])
            back = ba["levels"]["session"][group]["metrics"][m]
            assert (back["gained"], back["lost"]) == (r["lost"], r["gained"])
            assert back["delta"] == pytest.approx(-r["delta"])


def test_compare_names_the_questions_gained_and_lost(tmp_path: Path) -> None:
    """A puts every gold session first, B last: B loses each scored question at @1."""
    best, worst = {}, {}
    for q in load_longmemeval(LME):
        ids = sorted((s.id for s in q.sessions), key=lambda i: i not in q.gold_session_ids)
        best[q.question_id], worst[q.question_id] = ids, ids[::-1]
    write_rankings(tmp_path / "a.jsonl", best, list(best))
    write_rankings(tmp_path / "b.jsonl", worst, list(worst))
    result = _bench("compare", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--data",
                    str(LME), "--metric", "recall_any@1", "--list")
    assert result.exit_code == 0, result.output
    scored = [q.question_id for q in load_longmemeval(LME) if q.evaluable]
    assert f"recall_any@1   1.000 -> 0.000  -1.000  gained 0, lost {len(scored)}" in result.output
    assert f"lost: {', '.join(scored)}" in result.output
    assert "recall_all@5" not in result.output  # --metric chose one
    lines = result.output.splitlines()
    assert lines.index("session level") < lines.index(f"  overall (n={len(scored)})") < \
        min(i for i, line in enumerate(lines) if "single-session-user" in line)


def test_runs_of_other_data_or_questions_are_refused_naming_them(
        tmp_path: Path, runs: dict[str, Path]) -> None:
    lme, locomo = runs["longmemeval"], runs["locomo"]
    other = tmp_path / "other.json"
    records = json.loads(LME.read_text())
    records[0]["question"] += " again"
    other.write_text(json.dumps(records))
    elsewhere = tmp_path / "elsewhere"
    assert _bench("longmemeval", "--data", str(other), "--out", str(elsewhere),
                  *FAST).exit_code == 0
    result = _bench("compare", str(lme), str(elsewhere))
    assert result.exit_code == 1, result.output
    assert f"runs of different data: {lme} ran on {LME}" in result.output
    assert f"{elsewhere} on {other}" in result.output
    result = _bench("compare", str(lme), str(locomo))
    assert result.exit_code == 1 and "a longmemeval run" in result.output, result.output
    result = _bench("compare", str(lme), str(lme / "rankings-turn.jsonl"), "--data", str(other))
    assert result.exit_code == 1 and f"{other} is not the data {lme} ran on" in result.output
    fewer = tmp_path / "fewer"
    assert _bench("longmemeval", "--data", str(LME), "--out", str(fewer), "--limit", "2",
                  *FAST).exit_code == 0
    result = _bench("compare", str(lme), str(fewer))
    assert result.exit_code == 1 and "ranks 4 questions" in result.output, result.output
    assert f"{fewer} 2 (2 in one only" in result.output
    result = _bench("compare", str(lme / "rankings-session.jsonl"),
                    str(lme / "rankings-turn.jsonl"))
    assert result.exit_code == 1 and "nothing to compare" in result.output, result.output
    cut = tmp_path / "cut"
    cut.mkdir()
    result = _bench("compare", str(lme), str(cut))
    assert result.exit_code == 1 and "not a finished bench run" in result.output, result.output
