"""The rankings file format (DESIGN.md) and the markdown report."""

from __future__ import annotations

import json
from pathlib import Path

from memlane.bench.metrics import aggregate, score_ranking
from memlane.bench.report import rankings_filename, read_rankings, render_markdown, write_rankings


def test_rankings_filenames() -> None:
    assert rankings_filename("session", "memlane") == "rankings-session.jsonl"
    assert rankings_filename("turn", "memlane") == "rankings-turn.jsonl"
    assert rankings_filename("session", "bm25") == "rankings-session.bm25.jsonl"
    assert rankings_filename("locomo", "dense") == "rankings-locomo.dense.jsonl"


def test_rankings_file_is_json_lines_in_dataset_order(tmp_path: Path) -> None:
    p = tmp_path / "rankings-turn.jsonl"
    ranked = {"b": ["s2_1", "s1_3"], "a": ["s1_1"]}
    n = write_rankings(p, ranked, ["a", "b", "c"])
    assert n == 2
    lines = p.read_text().splitlines()
    assert [json.loads(x) for x in lines] == [
        {"question_id": "a", "ranked_ids": ["s1_1"]},
        {"question_id": "b", "ranked_ids": ["s2_1", "s1_3"]},
    ]
    assert read_rankings(p) == {"a": ["s1_1"], "b": ["s2_1", "s1_3"]}


def test_locomo_rankings_use_qa_id(tmp_path: Path) -> None:
    p = tmp_path / "rankings-locomo.jsonl"
    write_rankings(p, {"conv-1:0": ["D1:3", "D2:1"]}, ["conv-1:0"], key="qa_id")
    assert json.loads(p.read_text()) == {"qa_id": "conv-1:0", "ranked_ids": ["D1:3", "D2:1"]}


def test_markdown_states_headline_and_tables() -> None:
    levels = {"session": aggregate([("multi-session", score_ranking(["g", "x"], {"g"}))])}
    summary = {
        "dataset": "longmemeval",
        "headline": {"metric": "session recall_all@5", "memlane": 1.0},
        "n_questions": 2,
        "n_evaluated": 1,
        "excluded": {"abstention": 1},
        "systems": {
            "memlane": {
                "note": "n",
                "levels": levels,
                "latency_ms": {"p50": 1.5, "p95": 2.0, "n": 1},
            }
        },
        "indexing": {"turns_added": 10, "index_turns_per_s": 100.0},
    }
    md = render_markdown(summary, "LongMemEval", ["a note"])
    assert "**headline: session recall_all@5** — memlane 1.000" in md
    assert "| memlane (session) | 1 | 1.000 |" in md
    assert "| multi-session | 1 |" in md
    assert "| memlane | 1 | 1.500 | 2.000 |" in md
    assert "- a note" in md
