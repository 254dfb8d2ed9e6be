"""A benchmark run over hours (session 27): each question's result is in ``--out``'s
``progress.jsonl`` as it is finished, and ``--resume`` goes on with an interrupted run to
the report and rankings an uninterrupted run writes. The runs are real processes on files
made from the small files in ``tests/bench/data`` (their questions or conversations copied
under new ids), killed with SIGINT and SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.bench.progress import JOURNAL, Journal
from memlane.bench.report import read_rankings
from memlane.serve.cli import cli

DATA = Path(__file__).parent / "data"
LME = DATA / "longmemeval-sample.json"
LOCOMO = DATA / "locomo-sample.json"
FAST = ["--embedder", "hashing"]
COPIES = 5
"""LongMemEval: 4 questions a copy; LoCoMo: 1 conversation a copy (more: more seconds)."""


def _bench(*args: str) -> Any:
    return CliRunner().invoke(cli, ["bench", *args])


def _copies(dataset: str, folder: Path, n: int) -> Path:
    """The sample file with its records given ``n`` times under new ids."""
    if dataset == "longmemeval":
        records = json.loads(LME.read_text())
        out = [{**r, "question_id": f"{r['question_id'].replace('_abs', '')}-{i}"
                + ("_abs" if r["question_id"].endswith("_abs") else "")}
               for i in range(n) for r in records]
    else:
        records = json.loads(LOCOMO.read_text())
        out = [{**r, "sample_id": f"{r['sample_id']}-{i}"} for i in range(n) for r in records]
    path = folder / f"{dataset}-{n}.json"
    path.write_text(json.dumps(out))
    return path


TIMES = {"wall_seconds", "peak_rss_mb", "rss_after_load_mb", "embed_cache", "p50", "p95",
         "add_seconds", "index_seconds", "index_turns_per_s", "ingest_turns_per_s",
         "search_ms_p50", "search_ms_p95", "search_ms_mean", "warm_seconds"}


def _untimed(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _untimed(v) for k, v in obj.items() if k not in TIMES}
    if isinstance(obj, list):
        return [_untimed(v) for v in obj]
    return obj


def assert_same_run(got: Path, want: Path) -> None:
    """Byte for byte where the format allows: the rankings and per-question files; the
    report without its times (wall, latency, memory, the embedding cache of a process)."""
    names = sorted(p.name for p in want.iterdir() if p.name.startswith(("rankings-", "per-q")))
    assert names and names == sorted(
        p.name for p in got.iterdir() if p.name.startswith(("rankings-", "per-q")))
    for name in names:
        assert (got / name).read_bytes() == (want / name).read_bytes(), name
    a, b = (json.loads((d / "report.json").read_text()) for d in (got, want))
    assert _untimed(a) == _untimed(b)
    md = [[line for line in (d / "report.md").read_text().split("## Performance")[0].splitlines()
           if not line.startswith("- embedder:")] for d in (got, want)]  # wall time, memory
    assert md[0] == md[1]
    assert sorted(p.name for p in got.iterdir()) == sorted(p.name for p in want.iterdir())


def _units(out: Path) -> int:
    """Finished units in ``progress.jsonl`` (complete lines after the header)."""
    try:
        return max(0, (out / JOURNAL).read_bytes().count(b"\n") - 1)
    except FileNotFoundError:
        return 0


def _interrupt(cmd: list[str], out: Path, sig: int, after: int, cwd: Path) -> tuple[int, str]:
    """Run ``cmd``, send ``sig`` once ``after`` units are finished; (units then, output)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    units = -1
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and proc.poll() is None:
            if _units(out) >= after:
                proc.send_signal(sig)
                units = _units(out)
                break
            time.sleep(0.002)
        output = proc.communicate(timeout=120)[0].decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    return units, output


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Each benchmark's copied file and the --out of its uninterrupted run."""
    folder = tmp_path_factory.mktemp("reference")
    out = {}
    for dataset in ("longmemeval", "locomo"):
        data = _copies(dataset, folder, COPIES)
        run = folder / f"{dataset}-out"
        result = _bench(dataset, "--data", str(data), "--out", str(run), "--baseline", "bm25",
                        *FAST)
        assert result.exit_code == 0, result.output
        out[dataset] = (data, run)
    return out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
@pytest.mark.parametrize("dataset", ["longmemeval", "locomo"])
def test_an_interrupted_run_resumes_to_the_report_an_uninterrupted_run_writes(
        tmp_path: Path, reference: dict[str, tuple[Path, Path]], dataset: str,
        sig: int) -> None:
    """Before: rankings were written at the end, from memory; a run interrupted after hours
    of searching left nothing (``--out`` was removed with its hidden folder) and had to run
    again from its first question."""
    data, want = reference[dataset]
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "memlane", "bench", dataset, "--data", str(data),
           "--out", str(out), "--baseline", "bm25", *FAST]
    total = COPIES * (4 if dataset == "longmemeval" else 1)
    units, output = _interrupt(cmd, out, sig, 2, tmp_path)
    assert 2 <= units < total, (units, output)
    assert "Traceback" not in output, output
    kept = _units(out)
    assert kept >= units and not (out / "report.json").exists(), sorted(os.listdir(out))
    if sig == signal.SIGINT:
        assert "interrupted" in output and "--resume" in output and JOURNAL in output, output
    again = subprocess.run([*cmd, "--resume"], cwd=tmp_path, capture_output=True, text=True,
                           timeout=300, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert again.returncode == 0, again.stderr
    assert f"{kept} finished before" in again.stderr
    assert_same_run(out, want)
    assert _units(out) == total  # nothing run twice
    assert not [p for p in tmp_path.iterdir() if ".partial" in p.name]


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.floats(min_value=0.0, max_value=1.0, exclude_max=True),
       dataset=st.sampled_from(["longmemeval", "locomo"]))
def test_a_journal_cut_anywhere_resumes_to_the_same_run(
        tmp_path_factory: pytest.TempPathFactory, reference: dict[str, tuple[Path, Path]],
        cut: float, dataset: str) -> None:
    """A kill or a power cut lands anywhere in a write: the journal cut at any byte after
    its header (a torn last line) is resumed to the same run; the torn unit runs again."""
    data, want = reference[dataset]
    out = tmp_path_factory.mktemp("cut") / "out"
    out.mkdir()
    raw = (want / JOURNAL).read_bytes()
    start = raw.index(b"\n") + 1
    (out / JOURNAL).write_bytes(raw[:start + int(cut * (len(raw) - start))])
    result = _bench(dataset, "--data", str(data), "--out", str(out), "--baseline", "bm25",
                    *FAST, "--resume")
    assert result.exit_code == 0, result.output
    assert_same_run(out, want)
    lines = (out / JOURNAL).read_bytes().splitlines()
    key = "question_id" if dataset == "longmemeval" else "sample_id"
    ids = [json.loads(line)[key] for line in lines[1:]]
    assert len(ids) == len(set(ids)) == len(lines) - 1  # every unit once, the torn one redone


@pytest.mark.parametrize("dataset", ["longmemeval", "locomo"])
def test_resume_refuses_a_run_of_other_data_options_or_config_naming_what_differs(
        tmp_path: Path, reference: dict[str, tuple[Path, Path]], dataset: str) -> None:
    """A resumed run must be the same run, or its report would mix two."""
    data, want = reference[dataset]
    out = tmp_path / "out"
    out.mkdir()
    (out / JOURNAL).write_bytes((want / JOURNAL).read_bytes().split(b"\n", 2)[0] + b"\n")
    same = ["--data", str(data), "--out", str(out), "--baseline", "bm25", *FAST, "--resume"]
    other = tmp_path / "other.json"
    records = json.loads(data.read_text())
    asked = records[0] if dataset == "longmemeval" else records[0]["qa"][0]
    asked["question"] += " again"  # one question changed
    other.write_text(json.dumps(records))
    cases = [
        (["--data", str(other), "--out", str(out), "--baseline", "bm25", *FAST, "--resume"],
         f"data: {data}"),
        ([*same, "--limit", "2"], "--limit: not given in the run, 2 now"),
        ([*same, "--set", "retrieval.mmr=true"], "config retrieval.mmr: false in the run, true now"),
        (same[:4] + same[6:], '--baseline: ["bm25"] in the run, [] now'),
        ([*same[:-3], "--embedder", "static", "--resume"], "--embedder: \"hashing"),
    ]
    for args, said in cases:
        result = _bench(dataset, *args)
        assert result.exit_code == 2, result.output
        assert "--resume" in result.output and said in result.output, (args, result.output)
    other_bench = "locomo" if dataset == "longmemeval" else "longmemeval"
    result = _bench(other_bench, *same)
    assert result.exit_code == 2 and f"bench {dataset} --resume" in result.output, result.output
    assert _units(out) == 0 and not (out / "report.json").exists()  # nothing written
    result = _bench(dataset, *same[:-1])  # without --resume: refused as before
    assert result.exit_code == 2 and "already holds files" in result.output, result.output
    result = _bench(dataset, "--data", str(data), *FAST, "--resume")
    assert result.exit_code == 2 and "--resume needs --out" in result.output, result.output
    finished = _bench(dataset, "--data", str(data), "--out", str(want / "report.json"),
                      *FAST, "--resume")
    assert finished.exit_code == 2 and "is not a directory" in finished.output


def test_resume_refuses_a_folder_it_cannot_go_on_with(
        tmp_path: Path, reference: dict[str, tuple[Path, Path]]) -> None:
    """A folder of other files, a damaged line before the last, a run another process is
    writing: refused, naming the line or the reason; nothing is written."""
    data, want = reference["locomo"]
    args = ["locomo", "--data", str(data), "--baseline", "bm25", *FAST, "--resume", "--out"]
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    result = _bench(*args, str(foreign))
    assert result.exit_code == 2 and f"holds no {JOURNAL} (it has notes.txt)" in result.output
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    lines = (want / JOURNAL).read_bytes().split(b"\n")
    lines[1] = lines[1][:20]
    (damaged / JOURNAL).write_bytes(b"\n".join(lines))
    before = (damaged / JOURNAL).read_bytes()
    result = _bench(*args, str(damaged))
    assert result.exit_code == 2 and f"{JOURNAL}: line 2 is damaged" in result.output, \
        result.output
    assert (damaged / JOURNAL).read_bytes() == before
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / JOURNAL).write_bytes((want / JOURNAL).read_bytes())
    header = json.loads((want / JOURNAL).read_bytes().split(b"\n")[0])
    held = Journal.open(busy, header, "sample_id", resume=True)  # another run appending
    try:
        result = _bench(*args, str(busy))
    finally:
        held.close()
    assert result.exit_code == 2 and "is being written by another" in result.output, \
        result.output
    assert _bench(*args, str(busy)).exit_code == 0  # once it stopped


def test_a_run_that_fails_before_finishing_anything_leaves_no_out(tmp_path: Path) -> None:
    """As before session 27: a run stopped by a bad data file (or before its first
    question) leaves no ``--out`` to resume, so the same command can be given again."""
    bad = tmp_path / "bad.json"
    bad.write_text("[{]")
    out = tmp_path / "out"
    result = _bench("locomo", "--data", str(bad), "--out", str(out), *FAST)
    assert result.exit_code == 1 and "bad.json" in result.output, result.output
    assert not out.exists()


def test_a_finished_run_read_back_and_resumed_is_the_same(
        tmp_path: Path, reference: dict[str, tuple[Path, Path]]) -> None:
    """``--resume`` on a finished run runs nothing and writes the same report."""
    data, want = reference["longmemeval"]
    out = tmp_path / "out"
    out.mkdir()
    (out / JOURNAL).write_bytes((want / JOURNAL).read_bytes())
    result = _bench("longmemeval", "--data", str(data), "--out", str(out), "--baseline",
                    "bm25", *FAST, "--resume")
    assert result.exit_code == 0, result.output
    assert_same_run(out, want)
    assert read_rankings(out, "session") == read_rankings(want, "session")


def test_the_runs_header_never_holds_a_password_of_a_service_url() -> None:
    """``progress.jsonl``'s first line holds the resolved configuration, compared on
    ``--resume``: a model service's URL is written without its password."""
    from memlane.bench.progress import config_state
    from memlane.config import Config, EmbeddingConfig, LLMServiceConfig

    config = Config(embedding=EmbeddingConfig(backend="openai", model="e",
                                              base_url="https://ann:s3cret@emb.example/v1"),
                    llm_services={"judge": LLMServiceConfig(
                        base_url="http://bob:hunter2@127.0.0.1:8080/v1", model="m")})
    state = config_state(config)
    assert state["llm_services.judge.base_url"] == "http://bob@127.0.0.1:8080/v1"
    assert state["embedding.base_url"] == "https://ann@emb.example/v1"
    assert "s3cret" not in json.dumps(state) and "hunter2" not in json.dumps(state)
