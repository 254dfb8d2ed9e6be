"""Dataset loaders on tiny inline records in .json, .json.gz and .json.xz."""

from __future__ import annotations

import gzip
import json
import lzma
from datetime import datetime
from pathlib import Path

import pytest

from memlane.bench.datasets import (
    DatasetError,
    load_locomo,
    load_longmemeval,
    parse_lme_date,
    parse_locomo_date,
)

LME = [
    {
        "question_id": "q1",
        "question_type": "single-session-user",
        "question": "Where did I redeem a coupon?",
        "question_date": "2023/05/30 (Tue) 20:42",
        "answer": "Target",
        "answer_session_ids": ["answer_s1"],
        "haystack_dates": ["2023/05/20 (Sat) 02:21", "2023/05/21 (Sun) 13:05"],
        "haystack_session_ids": ["noise_1_0", "answer_s1"],
        "haystack_sessions": [
            [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
            [
                {"role": "user", "content": "I redeemed a coupon at Target", "has_answer": True},
                {"role": "assistant", "content": "nice", "has_answer": False},
            ],
        ],
    }
]

LOCOMO = [
    {
        "sample_id": "conv-1",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "Cute!", "blip_caption": "a cat"},
            ],
            "session_2_date_time": "10:05 am on 12 June, 2023",
            "session_2": [{"speaker": "Bob", "dia_id": "D2:1", "text": "I went hiking."}],
            "session_3_date_time": "9:00 am on 1 July, 2023",
        },
        "qa": [
            {"question": "What pet?", "answer": "a cat", "evidence": ["D1:1"], "category": 4},
            {"question": "Both?", "answer": 2022, "evidence": ["D1:1; D2:1"], "category": 1},
            {
                "question": "Bad ids",
                "answer": "x",
                "evidence": ["D:2:1", "D9:9", "D"],
                "category": 2,
            },
            {"question": "Adv?", "adversarial_answer": "no", "evidence": ["D2:1"], "category": 5},
        ],
    }
]


def _write(path: Path, data: object) -> Path:
    raw = json.dumps(data).encode()
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(raw))
    elif path.suffix == ".xz":
        path.write_bytes(lzma.compress(raw))
    else:
        path.write_bytes(raw)
    return path


def test_dates() -> None:
    assert parse_lme_date("2023/05/20 (Sat) 02:21") == datetime(2023, 5, 20, 2, 21)
    assert parse_locomo_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56)
    assert parse_locomo_date("12:09 am on 13 September, 2023") == datetime(2023, 9, 13, 0, 9)


@pytest.mark.parametrize("suffix", [".json", ".json.gz", ".json.xz"])
def test_longmemeval_loader(tmp_path: Path, suffix: str) -> None:
    qs = load_longmemeval(_write(tmp_path / f"lme{suffix}", LME))
    assert len(qs) == 1
    q = qs[0]
    assert q.question_date == datetime(2023, 5, 30, 20, 42)
    assert [s.id for s in q.sessions] == ["noise_1_0", "answer_s1"]
    assert q.sessions[1].date == datetime(2023, 5, 21, 13, 5)
    assert [t.id for t in q.sessions[1].turns] == ["answer_s1_1", "answer_s1_2"]
    assert q.gold_turn_ids == {"answer_s1_1"}
    assert q.gold_session_ids == {"answer_s1"}
    assert q.n_turns == 4 and q.evaluable


@pytest.mark.parametrize("suffix", [".json", ".json.gz", ".json.xz"])
def test_locomo_loader(tmp_path: Path, suffix: str) -> None:
    (conv,) = load_locomo(_write(tmp_path / f"locomo{suffix}", LOCOMO))
    assert conv.sample_id == "conv-1"
    assert [s.index for s in conv.sessions] == [1, 2]  # session_3 has a date but no turns
    assert conv.sessions[1].date == datetime(2023, 6, 12, 10, 5)
    assert conv.sessions[0].turns[1].blip_caption == "a cat"
    qa = conv.qa
    assert [q.qa_id for q in qa] == ["conv-1:0", "conv-1:1", "conv-1:2", "conv-1:3"]
    assert qa[1].evidence == ("D1:1", "D2:1") and qa[1].answer == "2022"
    assert qa[2].evidence == ("D2:1",)
    assert set(conv.dropped_evidence) == {"D9:9", "D"}
    assert qa[3].adversarial and qa[3].answer is None and qa[3].adversarial_answer == "no"


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no such file"):
        load_longmemeval(tmp_path / "nope.json")


def test_not_json(tmp_path: Path) -> None:
    p = tmp_path / "bad.json.xz"
    p.write_bytes(lzma.compress(b"{not json"))
    with pytest.raises(DatasetError, match=r"bad\.json\.xz: not valid JSON"):
        load_longmemeval(p)


def test_corrupt_compression(tmp_path: Path) -> None:
    p = tmp_path / "bad.json.gz"
    p.write_bytes(gzip.compress(b'[{"question_id": "q1"}]' * 50)[:40])  # cut short
    with pytest.raises(DatasetError, match="the gzip-compressed file is damaged or cut short"):
        load_longmemeval(p)
    p.write_bytes(b"not gzip at all")  # told by its bytes, not its name: plain text
    with pytest.raises(DatasetError, match="not valid JSON"):
        load_longmemeval(p)


def test_not_an_array(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="expected a JSON array"):
        load_locomo(_write(tmp_path / "x.json", {"a": 1}))


def test_malformed_longmemeval_names_file_record_and_field(tmp_path: Path) -> None:
    rec = json.loads(json.dumps(LME[0]))
    rec["question_id"] = "q7"
    del rec["haystack_sessions"][1][0]["content"]
    p = _write(tmp_path / "lme.json", [LME[0], rec])
    with pytest.raises(DatasetError) as err:
        load_longmemeval(p)
    msg = str(err.value)
    assert "lme.json" in msg and "record 1 (question_id q7)" in msg
    assert "haystack_sessions[1][0].content" in msg


def test_malformed_dates_and_lengths(tmp_path: Path) -> None:
    rec = dict(LME[0], question_date="May 5")
    with pytest.raises(DatasetError, match="question_date 'May 5'"):
        load_longmemeval(_write(tmp_path / "a.json", [rec]))
    rec = dict(LME[0], haystack_dates=["2023/05/20 (Sat) 02:21"])
    with pytest.raises(DatasetError, match="differ in length"):
        load_longmemeval(_write(tmp_path / "b.json", [rec]))


def test_malformed_locomo(tmp_path: Path) -> None:
    rec = json.loads(json.dumps(LOCOMO[0]))
    rec["conversation"]["session_2_date_time"] = "yesterday"
    with pytest.raises(DatasetError, match=r"record 0 \(sample_id conv-1\).*session_2_date_time"):
        load_locomo(_write(tmp_path / "l.json", [rec]))
    rec = json.loads(json.dumps(LOCOMO[0]))
    rec["qa"][0]["category"] = "four"
    with pytest.raises(DatasetError, match=r"qa\[0\]\.category' must be int"):
        load_locomo(_write(tmp_path / "m.json", [rec]))
