"""The summary scorer on hand-computed cases and `memlane bench summaries` end to end."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memlane.bench.summaries import canned_answer, load_set
from memlane.bench.summaries.score import (
    FieldScore,
    dice,
    is_small_talk,
    match,
    name_key,
    score_field,
    tokens,
)
from memlane.errors import ValidationError
from memlane.serve.cli import cli


def test_tokens_drop_stopwords_and_plurals():
    assert tokens("Let's use the tickets for Tom's team") == {"use", "ticket", "tom", "team"}
    assert tokens("Agreed.") == {"agreed"}


def test_dice_by_hand():
    a, b = tokens("Use PostgreSQL for billing"), tokens("PostgreSQL for the billing service")
    # {use, postgresql, billing} and {postgresql, billing, service}: 2·2 / (3+3)
    assert dice(a, b) == pytest.approx(4 / 6)
    assert dice(frozenset(), b) == 0.0


def test_match_is_one_to_one_and_greedy_by_similarity():
    predicted = ["Use PostgreSQL for billing", "PostgreSQL", "Agreed."]
    expected = ["Use PostgreSQL for the billing service"]
    # 1st: 2·3/(3+4)=0.857, 2nd: 2·1/(1+4)=0.4 → only the first matches, once
    assert match(predicted, expected) == [(0, 0)]
    assert match(["PostgreSQL", "Use PostgreSQL for billing"], expected) == [(1, 0)]


def test_names_match_by_normalized_equality():
    assert name_key("  The Café  Luna. ") == "cafe luna"
    assert match(["Maya", "cafe luna", "Tom"], ["Café Luna", "maya"], by_name=True) == [(0, 1), (1, 0)]


def test_field_score_by_hand_with_owners():
    score = FieldScore()
    predicted = ["Tom: Write the schema draft by Friday", "Ana: Book the room", "Order pizza"]
    score_field(score, "c1", predicted, ["Write the schema draft by Friday", "Book the room"],
                owners=["Tom", "Priya"],
                compare=["Write the schema draft by Friday", "Book the room", "Order pizza"])
    score_field(score, "c2", [], ["Call the bank"], owners=[""])
    # tp 2, predicted 3, expected 3: P = R = F1 = 2/3; owners: Tom right, Priya wrong
    assert (score.tp, score.predicted, score.expected) == (2, 3, 3)
    assert score.precision == pytest.approx(2 / 3) and score.recall == pytest.approx(2 / 3)
    assert score.f1 == pytest.approx(2 / 3)
    assert score.owner_accuracy == pytest.approx(0.5)
    kinds = sorted((m["kind"], m["conversation"]) for m in score.misses)
    assert kinds == [("extra", "c1"), ("missed", "c2"), ("owner", "c1")]


def test_empty_field_scores_perfect_and_extra_items_cost_precision():
    assert FieldScore().f1 == 1.0
    score = FieldScore()
    score_field(score, "c", ["Agreed."], [])
    assert score.precision == 0.0 and score.f1 == 0.0


def test_small_talk():
    for text in ("Agreed.", "Thanks!", "Sounds good", "Let's do that.", "Will do.", "Yes please."):
        assert is_small_talk(text), text
    for text in ("What about FastAPI?", "Use PostgreSQL.", "Can we cut it?"):
        assert not is_small_talk(text), text


def test_packaged_sets_and_their_canned_answers():
    dev, held, fresh = load_set("dev"), load_set("heldout"), load_set("heldout2")
    third, fourth = load_set("heldout3"), load_set("heldout4")
    assert len(dev) >= 30 and len(held) >= 5 and len(fresh) >= 12 and len(third) >= 12
    assert len(fourth) >= 16
    ids = [c.id for c in (*dev, *held, *fresh, *third, *fourth)]
    assert len(ids) == len(set(ids))  # no conversation is in two sets
    pool = load_set("pool")  # the development pool: the five sets together
    assert [c.id for c in pool] == [c.id for c in (*dev, *held, *fresh, *third, *fourth)]
    train = load_set("train")  # written to train the sentence model on: train1-train5
    assert [c.id for c in train] == [c.id for n in ("train1", "train2", "train3", "train4",
                                                    "train5") for c in load_set(n)]
    assert not {c.id for c in train} & set(ids)
    # each untouched set of sessions 9-58 is new: no conversation of it is in an earlier set
    seen = set(ids) | {c.id for c in train}
    for name in ("heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10",
                 "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16",
                 "heldout17", "heldout18", "heldout19", "heldout20", "heldout21", "heldout22",
                 "heldout23", "heldout24", "heldout25", "heldout26",
                 "heldout27", "heldout28", "heldout29", "heldout30", "heldout31",
                 "heldout32", "heldout33", "heldout34", "heldout35", "heldout36",
                 "heldout37", "heldout38", "heldout39", "heldout40",
                 "heldout41", "heldout42", "heldout43", "heldout44",
                 "heldout45", "heldout46", "heldout47", "heldout48",
                 "heldout49", "heldout50", "heldout51", "heldout52",
                 "heldout53", "heldout54"):
        untouched = load_set(name)
        assert len(untouched) >= 20, name
        assert not {c.id for c in untouched} & seen, name
        seen |= {c.id for c in untouched}
    kinds = {c.kind for c in dev}
    assert {"team-decision", "personal-facts", "support", "coding", "no-decision"} <= kinds
    answer = canned_answer(next(c for c in dev if c.id == "db-choice"))
    assert answer["action_items"] == ["Tom: Write the schema draft in docs/billing/schema.md by Friday"]
    assert {"name": "Priya", "type": "thing"} in answer["entities"]


def test_a_bad_labels_file_names_the_item_and_field(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"id": "x", "turns": ["no speaker here"], "expected": {}}]))
    with pytest.raises(ValidationError, match=r"item 1 \(x\) turn 1: expected 'Speaker: text'"):
        load_set(path=bad)
    bad.write_text(json.dumps([{"id": "x", "turns": ["a: b"], "expected": {"decisions": "no"}}]))
    with pytest.raises(ValidationError, match="expected.decisions must be a list"):
        load_set(path=bad)


def _run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["bench", "summaries", *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def test_bench_summaries_offline_prints_the_table_and_misses():
    out = _run("--set", "dev", "--show-misses")
    assert out.startswith(f"offline on dev ({len(load_set('dev'))} conversations")
    for name in ("decisions", "open_questions", "next_steps", "references", "entities", "topics"):
        assert f"\n  {name} " in out
    assert "small talk in a field: 0;" in out
    assert " missed [" in out


def test_bench_summaries_pool_scores_the_development_pool_as_one_set():
    data = json.loads(_run("--set", "pool", "--json"))
    assert [r["set"] for r in data] == ["pool"]
    assert data[0]["conversations"] == len(load_set("pool")) == sum(
        len(load_set(n)) for n in ("dev", "heldout", "heldout2", "heldout3", "heldout4"))
    data = json.loads(_run("--set", "train", "--json"))
    assert [r["set"] for r in data] == ["train"]
    assert data[0]["conversations"] == len(load_set("train"))
    # every development set since session 11: pool, train, heldout5 and heldout6 as one
    dev_all = load_set("dev_all")
    assert [c.id for c in dev_all] == [c.id for n in ("pool", "train", "heldout5", "heldout6") for c in load_set(n)]


def test_bench_summaries_offline_json_scores_every_set_apart():
    data = json.loads(_run("--json"))
    assert [r["set"] for r in data] == ["dev", "heldout", "heldout2", "heldout3", "heldout4"]
    assert data[2]["conversations"] == len(load_set("heldout2"))
    assert data[3]["conversations"] == len(load_set("heldout3"))
    assert data[4]["conversations"] == len(load_set("heldout4"))
    dev = data[0]["fields"]
    assert set(dev) >= {"decisions", "rationale", "open_questions", "next_steps", "references",
                        "entities", "topics", "facts"}
    assert dev["entities"]["expected"] == sum(len(c.expected["entities"]) for c in load_set("dev"))
    assert data[0]["small_talk"] == []


def test_bench_summaries_llm_through_the_loopback_server_loses_nothing():
    """A scripted model answers each conversation with its labels: the prompt carries every
    turn and the parsing and mapping keep every field (all F1 = 1)."""
    data = json.loads(_run("--backend", "llm", "--set", "heldout", "--json"))
    (report,) = data
    assert report["backend"] == "llm (scripted loopback)"
    assert all(f["f1"] == 1.0 for f in report["fields"].values()), report["fields"]
    assert report["fields"]["next_steps"]["owner_accuracy"] == 1.0
    turns = sum(len(c.turns) for c in load_set("heldout"))
    assert f"{turns}/{turns} turns were in the prompts" in report["notes"][0]


def test_bench_summaries_bad_options_exit_nonzero(tmp_path):
    assert "--service needs --backend llm" in _run("--service", "x", code=2)
    assert "--speed needs --data" in _run("--speed", code=2)
    bad = tmp_path / "labels.json"
    bad.write_text("{")
    assert "not valid JSON" in _run("--labels", str(bad), code=1)


def test_bench_summaries_speed_on_a_longmemeval_file(tmp_path):
    data = [{
        "question_id": "q1", "question_type": "single-session-user", "question": "Where?",
        "answer": "Lisbon", "question_date": "2023/05/30 (Tue) 10:00",
        "haystack_dates": ["2023/05/20 (Sat) 10:00"], "haystack_session_ids": ["s1"],
        "answer_session_ids": ["s1"],
        "haystack_sessions": [[{"role": "user", "content": "I moved to Lisbon.", "has_answer": True},
                               {"role": "assistant", "content": "Nice!"}]],
    }]
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(data))
    out = json.loads(_run("--speed", "--data", str(path), "--json"))
    assert (out["sessions"], out["turns"]) == (1, 2)
    assert {"seconds", "cpu_seconds", "sessions_per_s", "turns_per_s"} <= set(out)
    assert "jobs" not in out
    pooled = json.loads(_run("--speed", "--data", str(path), "--jobs", "2", "--json"))
    assert (pooled["jobs"], pooled["jobs_identical"]) == (2, True)
    assert pooled["jobs_sessions_per_s"] > 0 and pooled["jobs_cpu_seconds"] > 0
    assert "--jobs" in _run("--speed", "--data", str(path), "--jobs", "0", code=2)


def test_the_cli_does_not_import_the_summary_bench_until_asked():
    import subprocess
    import sys

    code = ("import sys, memlane.serve.cli; "
            "print(any(m.startswith('memlane.bench.summaries') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_bench_summaries_scores_the_offline_backend_with_a_given_classifier(tmp_path):
    from memlane.index import sentclass

    # a classifier that calls every sentence answered by small talk a decision
    (idx,) = sentclass.hashed(["n:courtesy"])
    model = sentclass.SentenceModel([2.0, 0, 0, 0, 0], {idx: [0, 9.0, 0, 0, 0]},
                                    {"thresholds": {"decisions": 0.8}})
    weights = tmp_path / "w.json"
    weights.write_text(model.to_json())
    plain = json.loads(_run("--set", "dev", "--json"))[0]
    data = json.loads(_run("--set", "dev", "--json", "--model", str(weights)))[0]
    assert data["backend"] == "offline + sentence classifier"
    assert data["fields"]["decisions"]["predicted"] > plain["fields"]["decisions"]["predicted"]
    assert data["small_talk"] == []
    bad = tmp_path / "bad.json"
    bad.write_text('{"labels": ["none"], "dim": 2}')
    out = _run("--set", "dev", "--model", str(bad), code=1)
    assert "bad.json: not a sentence classifier" in out and "other labels" in out


def test_bench_summaries_scores_the_offline_backend_with_a_dense_model(tmp_path):
    import numpy as np

    from memlane.index.sentclass import LABELS
    from memlane.index.sentmodel import DenseSentenceModel

    # a dense model that calls every sentence answering a question an open question
    n = 3 * 256 + 1
    w2 = np.zeros((n, len(LABELS)))
    w2[-1, LABELS.index("open_questions")] = 20.0
    b2 = np.array([5.0, 0, 0, 0, 0])
    model = DenseSentenceModel(["after_q"], {"mean": np.zeros(n), "scale": np.ones(n),
                                             "w2": w2, "b2": b2},
                               {"dim": 256, "mode": "add", "thresholds": {"open_questions": 0.5}})
    weights = model.save(tmp_path / "m.npz")
    data = json.loads(_run("--set", "heldout", "--json", "--model", str(weights)))[0]
    assert data["backend"] == "offline + sentence classifier"
    assert data["small_talk"] == [] and data["cross_field_repeats"] == []
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    out = _run("--set", "dev", "--model", str(bad), code=1)
    assert "bad.npz: not a sentence classifier" in out


def test_bench_summaries_measures_the_sentence_model_the_configuration_chooses(monkeypatch):
    # the offline backend a user configured is the one scored and timed, not always the default
    monkeypatch.setenv("MEMLANE_SUMMARY_SENTENCE_MODEL", "false")
    assert json.loads(_run("--set", "heldout", "--json"))[0]["backend"] == "offline, patterns alone"
    monkeypatch.delenv("MEMLANE_SUMMARY_SENTENCE_MODEL")
    assert json.loads(_run("--set", "heldout", "--json"))[0]["backend"] == "offline"
    monkeypatch.setenv("MEMLANE_SUMMARY_SENTENCE_VECTORS", "meaning")
    pytest.importorskip("onnxruntime")
    data = json.loads(_run("--set", "heldout", "--json"))[0]
    assert data["backend"] == "offline, meaning sentence vectors"
    assert json.loads(_run("--set", "heldout", "--json", "--no-sentence-model"))[0]["backend"] == \
        "offline, patterns alone"


def test_bench_summaries_scores_the_learned_facts_reader_when_asked(monkeypatch):
    # opt-in like the product (summary.facts_model, session 49): --facts-model or the configuration
    monkeypatch.delenv("MEMLANE_SUMMARY_FACTS_MODEL", raising=False)
    assert json.loads(_run("--set", "heldout", "--json"))[0]["backend"] == "offline"
    on = json.loads(_run("--set", "heldout", "--json", "--facts-model"))[0]
    assert on["backend"] == "offline, learned facts reader"
    monkeypatch.setenv("MEMLANE_SUMMARY_FACTS_MODEL", "true")
    assert json.loads(_run("--set", "heldout", "--json"))[0]["backend"] == on["backend"]
    out = _run("--set", "heldout", "--facts-model", "--no-sentence-model", code=2)
    assert "--facts-model needs the sentence model" in out
