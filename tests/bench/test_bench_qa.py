"""Answer-quality mode against a real loopback OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from test_bench_e2e import _lme_records

from memlane.bench.cli import bench
from memlane.bench.qa import judge_prompt, parse_verdict
from memlane.testing.llm_server import ChatServer


def _lme_bench(tmp_path: Path, monkeypatch, srv: ChatServer, *, judge: bool = True,
               config: str = "") -> tuple[list[str], Path]:
    """The bench's arguments for a LongMemEval run of the test records answered (and judged)
    by ``srv`` as the service ``fake`` (``config``: more of its keys), and its ``--out``."""
    data = tmp_path / "lme.json"
    data.write_text(json.dumps(_lme_records()))
    cfg = tmp_path / "memlane.toml"
    cfg.write_text(f'[llm.services.fake]\nbase_url = "{srv.base_url}"\nmodel = "fake-model"\n{config}')
    monkeypatch.setenv("MEMLANE_CONFIG", str(cfg))
    monkeypatch.setenv("MEMLANE_EMBEDDING_BACKEND", "hashing")
    out = tmp_path / "out"
    args = ["longmemeval", "--data", str(data), "--embedder", "hashing", "--out", str(out), "--answer", "fake"]
    return [*args, "--judge", "fake"] if judge else args, out


def test_verdicts_and_per_type_rules():
    assert parse_verdict("Yes.") and parse_verdict("**yes**") and not parse_verdict("No, wrong.")
    assert not parse_verdict("maybe")
    assert "off-by-one" in judge_prompt("temporal-reasoning", "q", "19 days", "18 days")[1]["content"]
    assert "cannot answer" in judge_prompt("multi-session", "q", "a", "r", abstention=True)[1]["content"]
    assert "updated, current answer" in judge_prompt("knowledge-update", "q", "a", "r")[1]["content"]


def test_answer_and_judge_through_the_cli(tmp_path: Path, monkeypatch) -> None:

    def reply(body):
        text = body["messages"][-1]["content"]
        if "Is the response correct?" in text:
            return "yes" if "Target" in text else "no"
        context = body["messages"][-1]["content"]
        return "At Target." if "Target" in context else "I don't know."

    with ChatServer(reply=reply) as srv:
        args, out = _lme_bench(tmp_path, monkeypatch, srv)
        res = CliRunner().invoke(bench, args, catch_exceptions=False)
        assert res.exit_code == 0, res.output
        asked = [r for r in srv.chat_requests if "Memory context:" in r.messages[-1]["content"]]
    answers = [json.loads(x) for x in (out / "answers.jsonl").read_text().splitlines()]
    assert len(answers) == 4 and len(asked) == 4
    q1 = next(a for a in answers if a["question_id"] == "q1")
    assert q1["hypothesis"] == "At Target." and q1["correct"] is True
    assert "coffee creamer" in next(r for r in asked if "coffee creamer coupon" in r.messages[-1]["content"]).messages[-1]["content"]
    report = json.loads((out / "report.json").read_text())
    assert report["qa"]["judged"] == 4 and report["qa"]["answer_model"]
    assert "## Answer quality" in (out / "report.md").read_text()


def test_judge_needs_answer(tmp_path: Path) -> None:
    data = tmp_path / "lme.json"
    data.write_text(json.dumps(_lme_records()))
    res = CliRunner().invoke(bench, ["longmemeval", "--data", str(data), "--judge", "x"])
    assert res.exit_code != 0 and "--judge needs --answer" in res.output


def test_verdict_of_a_reasoning_judge_and_labelled_verdicts():
    # a judge through Ollama or vLLM (qwen3, deepseek-r1) answers with its reasoning first:
    # every such verdict was False, so its accuracy read 0 whatever the answers
    assert parse_verdict("<think>The response names Target, as the answer does.</think>\nYes")
    assert parse_verdict("Okay, the reference says 19 days.\n</think>\n\nyes")  # template opened it
    assert parse_verdict("**Answer:** Yes.") and parse_verdict("# Yes") and parse_verdict("Verdict: yes")
    assert not parse_verdict("<think>yes, it matches... but wait")  # cut while reasoning
    assert not parse_verdict("<think>Is it yes?</think> No.")
    assert not parse_verdict("Yesterday's answer was wrong. No.")
    assert not parse_verdict("Verdict: no")


@given(st.text(max_size=40).filter(lambda t: "</think>" not in t.lower()),
       st.sampled_from(["yes", "Yes.", "**YES**", "no", "No."]))
def test_verdict_is_the_word_after_any_reasoning(reasoning: str, word: str) -> None:
    assert parse_verdict(f"<think>{reasoning}</think>\n{word}") is word.strip("*.").lower().startswith("y")


def test_reasoning_answers_are_stored_and_judged_without_their_think_block(
        tmp_path: Path, monkeypatch) -> None:

    def reply(body):
        text = body["messages"][-1]["content"]
        if "Is the response correct?" in text:
            seen = text.split("Response:", 1)[1]
            return "<think>Let me compare. " + ("<think>" in seen) * "leak " + "</think>\n" + (
                "Yes" if "Target" in seen and "<think>" not in seen else "No")
        return "<think>The context says Target, not Walmart.</think>\n\nAt Target." if (
            "Target" in text) else "<think>Nothing here.</think>I don't know."

    with ChatServer(reply=reply) as srv:
        args, out = _lme_bench(tmp_path, monkeypatch, srv)
        res = CliRunner().invoke(bench, args, catch_exceptions=False)
        assert res.exit_code == 0, res.output
    answers = [json.loads(x) for x in (out / "answers.jsonl").read_text().splitlines()]
    q1 = next(a for a in answers if a["question_id"] == "q1")
    assert q1["hypothesis"] == "At Target." and q1["correct"] is True
    assert not any("<think>" in a["hypothesis"] for a in answers)


def test_a_question_the_endpoint_refuses_is_recorded_and_the_run_goes_on(
        tmp_path: Path, monkeypatch) -> None:
    # one question the endpoint refused (a content filter's 400, a 500 past the retries)
    # ended the run with every answer so far unwritten: hours of a judged run lost

    def reply(body):
        text = body["messages"][-1]["content"]
        if "Is the response correct?" in text:
            return "yes"
        return "At Target."

    with ChatServer(reply=reply) as srv:
        srv.fail_when("coffee creamer", status=400)
        args, out = _lme_bench(tmp_path, monkeypatch, srv, config="max_retries = 0\n")
        res = CliRunner().invoke(bench, args, catch_exceptions=False)
        assert res.exit_code == 0, res.output
        refused = [r for r in srv.chat_requests if "coffee creamer" in r.raw.decode()]
    rows = [json.loads(x) for x in (out / "answers.jsonl").read_text().splitlines()]
    failed = [r for r in rows if "answer_error" in r]  # q1 and q1_abs ask the same
    assert len(rows) == 4 and len(failed) == len(refused) == 2
    assert "failed with HTTP 400" in failed[0]["answer_error"] and "hypothesis" not in failed[0]
    qa = json.loads((out / "report.json").read_text())["qa"]
    assert (qa["answered"], qa["judged"], qa["failed"]) == (2, 2, 2)
    assert "2 failed at the endpoint" in (out / "report.md").read_text()


def test_an_endpoint_down_stops_the_run_keeping_the_answers_so_far(
        tmp_path: Path, monkeypatch) -> None:
    with ChatServer(reply=lambda body: "At Target.") as srv:
        args, out = _lme_bench(tmp_path, monkeypatch, srv, judge=False, config="max_retries = 0\n")
        monkeypatch.setattr("memlane.bench.qa.QARecorder.max_failures_in_a_row", 2)
        srv.script("At Target.")  # the first question is answered, then the endpoint is down
        srv.reply = lambda body: (_ for _ in ()).throw(RuntimeError("down"))  # 500 from here
        res = CliRunner().invoke(bench, args)
    assert res.exit_code != 0
    assert "2 questions in a row failed, the endpoint looks down" in res.output
    assert "the 3 questions so far are in" in res.output
    rows = [json.loads(x) for x in (out / "answers.jsonl").read_text().splitlines()]
    assert [("hypothesis" in r, "answer_error" in r) for r in rows] == [
        (True, False), (False, True), (False, True)]
