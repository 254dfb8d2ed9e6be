"""Both runners end to end through the CLI on a tiny synthetic dataset."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memlane.bench.cli import bench
from memlane.bench.report import read_rankings

EMBEDDER = ["--embedder", "hashing"]
"""The deterministic feature-hashing backend: no model files, fast."""


NOISE = [
    "Can you suggest a recipe for banana bread?",
    "What is the capital of Australia?",
    "Help me write a poem about autumn leaves.",
    "How do I fix a flat bicycle tire?",
    "Explain the rules of cricket briefly.",
]

PLANTED = {
    "q1": (
        "I redeemed a coupon for coffee creamer at Target yesterday.",
        "Where did I redeem the coffee creamer coupon?",
    ),
    "q2": (
        "My sister Priya just adopted a greyhound named Rocket.",
        "What is the name of my sister's greyhound?",
    ),
    "q3": (
        "I started learning the cello with a teacher called Mr Hadley.",
        "Who teaches me the cello?",
    ),
}


def _session(texts: list[str], answer: int | None = None) -> list[dict]:
    turns = []
    for i, t in enumerate(texts):
        turns.append({"role": "user", "content": t, "has_answer": answer == i})
        turns.append({"role": "assistant", "content": f"Sure, here is some help with that ({i})."})
    return turns


def _lme_records() -> list[dict]:
    recs = []
    for n, (qid, (fact, question)) in enumerate(PLANTED.items()):
        sessions = [_session(NOISE[i : i + 2]) for i in range(3)]
        sessions.insert(1, _session([NOISE[3], fact], answer=1))
        sids = [f"noise_{qid}_{i}" for i in range(3)]
        sids.insert(1, f"answer_{qid}")
        recs.append(
            {
                "question_id": qid,
                "question_type": "single-session-user" if n < 2 else "multi-session",
                "question": question,
                "question_date": "2023/06/01 (Thu) 10:00",
                "answer": "x",
                "answer_session_ids": [f"answer_{qid}"],
                "haystack_dates": [f"2023/05/{20 + i} (Sat) 09:00" for i in range(4)],
                "haystack_session_ids": sids,
                "haystack_sessions": sessions,
            }
        )
    recs.append(dict(recs[0], question_id="q1_abs"))  # abstention: ranked, not scored
    return recs


def test_longmemeval_end_to_end(tmp_path: Path) -> None:
    data = tmp_path / "lme.json"
    data.write_text(json.dumps(_lme_records()))
    out = tmp_path / "out"
    res = CliRunner().invoke(
        bench,
        [
            "longmemeval",
            "--data",
            str(data),
            "--out",
            str(out),
            "--baseline",
            "bm25",
            "--baseline",
            "dense",
            *EMBEDDER,
        ],
    )
    assert res.exit_code == 0, res.output
    assert "headline: session recall_all@5" in res.output
    for name in [
        "rankings-session.jsonl",
        "rankings-turn.jsonl",
        "rankings-session.bm25.jsonl",
        "rankings-turn.bm25.jsonl",
        "rankings-session.dense.jsonl",
        "rankings-turn.dense.jsonl",
        "report.json",
        "report.md",
        "per-question.jsonl",
        "recall-session.png",
        "recall-turn.png",
        "latency.png",
    ]:
        assert (out / name).is_file(), name
    sessions = read_rankings(out / "rankings-session.jsonl")
    turns = read_rankings(out / "rankings-turn.jsonl")
    assert list(sessions) == ["q1", "q2", "q3", "q1_abs"]
    for qid in PLANTED:
        assert sessions[qid][0] == f"answer_{qid}"
        assert turns[qid][0] == f"answer_{qid}_3"  # 2nd user turn = 3rd turn overall
        assert len(turns[qid]) == 16 and len(sessions[qid]) == 4  # whole haystack ranked
    assert read_rankings(out / "rankings-session.bm25.jsonl")["q2"][0] == "answer_q2"
    report = json.loads((out / "report.json").read_text())
    assert report["n_questions"] == 4 and report["n_evaluated"] == 3
    assert report["embedder"].startswith("hashing")
    assert report["excluded"] == {"abstention": 1, "no_gold_user_turn": 0}
    mem = report["systems"]["memlane"]["levels"]
    assert mem["session"]["overall"]["recall_all@1"] == 1.0
    assert mem["session"]["single-session-user"]["n"] == 2
    assert report["headline"]["memlane"] == 1.0
    assert report["indexing"]["turns_added"] == 4 * 16
    md = (out / "report.md").read_text()
    assert "headline: session recall_all@5" in md and "## memlane — turn level" in md


def _locomo_records() -> list[dict]:
    conv = {"speaker_a": "Ann", "speaker_b": "Bob"}
    lines = [
        ("Ann", "I adopted a tabby cat named Biscuit last week."),
        ("Bob", "Lovely! I have been busy with my garden."),
        ("Ann", "The weather has been rainy all month."),
        ("Bob", "I ran my first marathon in Berlin."),
    ]
    for s in (1, 2):
        conv[f"session_{s}_date_time"] = f"1:56 pm on {s} May, 2023"
        conv[f"session_{s}"] = [
            {"speaker": sp, "dia_id": f"D{s}:{i + 1}", "text": t}
            for i, (sp, t) in enumerate(lines[2 * (s - 1) : 2 * s])
        ]
    qa = [
        {
            "question": "What is the name of Ann's cat?",
            "answer": "Biscuit",
            "evidence": ["D1:1"],
            "category": 4,
        },
        {
            "question": "Where did Bob run his marathon?",
            "answer": "Berlin",
            "evidence": ["D2:2"],
            "category": 1,
        },
        {
            "question": "What is Bob's cat called?",
            "adversarial_answer": "x",
            "evidence": ["D1:1"],
            "category": 5,
        },
    ]
    return [{"sample_id": "conv-9", "conversation": conv, "qa": qa}]


def test_locomo_end_to_end(tmp_path: Path) -> None:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps(_locomo_records()))
    out = tmp_path / "lo"
    res = CliRunner().invoke(
        bench, ["locomo", "--data", str(data), "--out", str(out), "--baseline", "bm25", *EMBEDDER,
                "--set", "retrieval.source_lift=0.5"]
    )
    assert res.exit_code == 0, res.output
    for name in ["rankings-locomo.jsonl", "rankings-locomo.bm25.jsonl", "report.json", "report.md"]:
        assert (out / name).is_file(), name
    ranked = read_rankings(out / "rankings-locomo.jsonl")
    assert list(ranked) == ["conv-9:0", "conv-9:1", "conv-9:2"]
    assert ranked["conv-9:0"][0] == "D1:1"
    assert ranked["conv-9:1"][0] == "D2:2"
    report = json.loads((out / "report.json").read_text())
    turn = report["systems"]["memlane"]["levels"]["turn"]
    assert turn["overall"]["n"] == 2 and turn["overall"]["recall_any@1"] == 1.0
    assert turn["category 5 (adversarial)"]["n"] == 1
    assert report["settings"] == ["retrieval.source_lift=0.5"]  # the run says how it was made
    assert "--set retrieval.source_lift=0.5" in (out / "report.md").read_text()


def test_cli_errors_are_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(bench, ["longmemeval", "--data", str(tmp_path / "missing.json")])
    assert res.exit_code != 0
    assert "no such file" in res.output and "Traceback" not in res.output
    data = tmp_path / "lme.json"
    data.write_text(json.dumps(_lme_records()))
    res = runner.invoke(bench, ["longmemeval", "--data", str(data), "--types", "nonsense"])
    assert res.exit_code == 2 and "unknown type(s) nonsense" in res.output
    res = runner.invoke(bench, ["locomo", "--data", str(data)])
    assert res.exit_code == 1 and "not locomo: run memlane bench longmemeval" in res.output
