"""The LoCoMo report says where each category's evidence turns were placed: in the first
10, at 11-100, or not among the first 100 hits, and how each conversation scored."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memlane.bench.cli import bench
from memlane.bench.locomo import PLACES, evidence_places


def test_evidence_places_counts_each_piece_once() -> None:
    ranking = [f"D1:{i}" for i in range(1, 121)]
    got = evidence_places(ranking, ["D1:3", "D1:10", "D1:11", "D1:100", "D1:101", "D9:1", "D1:3"])
    assert got == {PLACES[0]: 2, PLACES[1]: 2, PLACES[2]: 2}
    assert evidence_places([], ["D1:1"]) == {PLACES[0]: 0, PLACES[1]: 0, PLACES[2]: 1}


def _records() -> list[dict]:
    conv = {"speaker_a": "Noor", "speaker_b": "Ravi"}
    lines = [
        ("Noor", "My sourdough starter finally bubbled over the jar this morning."),
        ("Ravi", "Ha, mine died while I was travelling for work."),
        ("Noor", "I entered a loaf in the village fair and it won a ribbon."),
        ("Ravi", "Congratulations, you earned that."),
    ]
    for s in (1, 2):
        conv[f"session_{s}_date_time"] = f"9:10 am on {s + 3} June, 2023"
        conv[f"session_{s}"] = [
            {"speaker": sp, "dia_id": f"D{s}:{i + 1}", "text": t}
            for i, (sp, t) in enumerate(lines[2 * (s - 1): 2 * s])
        ]
    qa = [
        {"question": "What has Noor baked?", "answer": "sourdough", "evidence": ["D1:1", "D2:1"],
         "category": 1},
        {"question": "Where did Noor's loaf win a ribbon?", "answer": "the village fair",
         "evidence": ["D2:1", "D7:9"], "category": 4},
    ]
    return [{"sample_id": "conv-p", "conversation": conv, "qa": qa}]


def _bench(tmp_path: Path, records: list[dict]) -> tuple[dict, Path]:
    """Run `memlane bench locomo` on ``records``: its report.json and its output folder."""
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps(records))
    out = tmp_path / "out"
    res = CliRunner().invoke(bench, ["locomo", "--data", str(data), "--out", str(out),
                                     "--embedder", "hashing"])
    assert res.exit_code == 0, res.output
    return json.loads((out / "report.json").read_text()), out


def test_the_report_places_every_category_s_evidence(tmp_path: Path) -> None:
    report, _ = _bench(tmp_path, _records())
    places = report["systems"]["memlane"]["evidence_places"]
    # four turns in all: every piece that names a turn is in the first 10; "D7:9" names
    # no turn of the conversation and leaves the gold
    assert places == {"category 1": {PLACES[0]: 2, PLACES[1]: 0, PLACES[2]: 0},
                      "category 4": {PLACES[0]: 1, PLACES[1]: 0, PLACES[2]: 0}}


def test_the_report_scores_each_conversation_apart(tmp_path: Path) -> None:
    records = _records()
    other = json.loads(json.dumps(records[0]))
    other["sample_id"] = "conv-q"
    # the second conversation's only question points at a turn it does not rank first
    other["qa"] = [{"question": "Who won a ribbon?", "answer": "Noor",
                    "evidence": ["D1:2"], "category": 4}]
    report, out = _bench(tmp_path, records + [other])
    by_conv = report["systems"]["memlane"]["by_conversation"]
    assert sorted(by_conv) == ["conv-p", "conv-q"]
    assert by_conv["conv-p"]["n"] == 2 and by_conv["conv-q"]["n"] == 1
    assert by_conv["conv-p"]["recall_all@10"] == 1.0
    assert by_conv["conv-q"]["recall_any@1"] == 0.0
    overall = report["systems"]["memlane"]["levels"]["turn"]["overall"]
    assert overall["n"] == 3
    assert "## memlane — by conversation (categories 1-4)" in (out / "report.md").read_text()
