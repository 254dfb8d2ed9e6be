"""``memlane bench`` as a user runs it (session 26): ``--out`` given twice, a run cut
short, a typo in an option after a long load, the rankings file read by another scorer,
and ``bench serve`` / ``bench ingest`` against a database or service that refuses."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.bench.datasets import DatasetError
from memlane.bench.report import read_rankings
from memlane.serve.cli import cli

DATA = Path(__file__).parent / "data"
LME = DATA / "longmemeval-sample.json"
LOCOMO = DATA / "locomo-sample.json"
FAST = ["--embedder", "hashing"]


def _bench(*args: str) -> object:
    return CliRunner().invoke(cli, ["bench", *args])


@pytest.mark.parametrize("dataset, data", [("longmemeval", LME), ("locomo", LOCOMO)])
def test_an_out_that_holds_an_earlier_runs_files_is_refused_before_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dataset: str, data: Path) -> None:
    """Before: the run wrote over it, and the earlier run's baseline rankings stayed beside
    the new report as if this run had made them."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    stale = out / f"rankings-{'session' if dataset == 'longmemeval' else 'locomo'}.bm25.jsonl"
    stale.write_text('{"question_id": "old", "ranked_ids": []}\n')
    result = _bench(dataset, "--data", str(data), "--out", str(out), *FAST)
    assert result.exit_code == 2, result.output
    assert "--out" in result.output and f"{out} already holds files" in result.output
    assert sorted(p.name for p in out.iterdir()) == [stale.name]  # nothing written
    empty = tmp_path / "empty"
    empty.mkdir()  # an empty folder is a new one
    result = _bench(dataset, "--data", str(data), "--out", str(empty), *FAST)
    assert result.exit_code == 0, result.output
    assert (empty / "report.json").is_file()
    here = tmp_path / "here"
    here.mkdir()
    os.chdir(here)  # "--out ." in an empty folder: the folder one is in
    try:
        result = _bench(dataset, "--data", str(data), "--out", ".", *FAST)
    finally:
        os.chdir(tmp_path)
    assert result.exit_code == 0, result.output
    assert (here / "report.json").is_file()
    assert not [p for p in tmp_path.iterdir() if ".partial" in p.name]


def test_a_run_interrupted_while_it_writes_leaves_no_out_that_looks_finished(
        tmp_path: Path) -> None:
    """Ctrl-C after the first rankings file was written. Before: ``--out`` held the
    rankings and no report (or a report and not its plots); a later tool reading it took
    it for a run's output. Now the files are written in a hidden folder that takes
    ``--out``'s name when all are there, and an interrupt removes it."""
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "memlane", "bench", "longmemeval", "--data", str(LME),
         "--out", str(out), *FAST], cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    sent = False
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if [p for p in tmp_path.glob("*out*/rankings-session.jsonl")]:
                proc.send_signal(signal.SIGINT)  # the plots and report take a second more
                sent = True
                break
            time.sleep(0.005)
        output = proc.communicate(timeout=120)[0].decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert sent and "Traceback" not in output, output
    # session 27: --out holds the finished questions (progress.jsonl), and no report
    # unless every file is there; a reader takes it for no finished run
    if not (out / "report.json").is_file():
        with pytest.raises(DatasetError, match="not a finished bench run"):
            read_rankings(out, "session")
    assert not [p for p in tmp_path.iterdir() if ".partial" in p.name]


BAD_OPTIONS = [
    (["--preset", "nope"], "--preset"),
    (["--set", "retrieval.nonsense=1"], "--set"),
    (["--set", "nodot"], "--set"),
    (["--db", "mine.db"], "--db"),
    (["--embedder", "nope"], "embedder 'nope'"),
    (["--out", str(LME)], "--out"),
    (["--out", str(LME / "out")], "is not a folder one can write in"),  # failed after the run
]


@pytest.mark.parametrize("dataset", ["longmemeval", "locomo"])
@pytest.mark.parametrize("option, said", BAD_OPTIONS, ids=lambda x: str(x[0]) if isinstance(x, list) else "")
def test_every_option_is_checked_before_the_data_file_is_read(
        tmp_path: Path, dataset: str, option: list[str], said: str) -> None:
    """Before: the data file was read first (11 s for LongMemEval_S dev on a loaded
    machine) and only then was a typo in --preset, --set, --db or --embedder reported;
    with a bad data file the option's error was never seen."""
    missing = tmp_path / "not-read.json"
    result = _bench(dataset, "--data", str(missing), *option)
    assert result.exit_code in (1, 2), result.output
    assert said in result.output and "not-read.json" not in result.output, result.output
    assert not (tmp_path / "mine.db").exists()


@pytest.mark.parametrize("dataset, data", [("longmemeval", LME), ("locomo", LOCOMO)])
def test_a_question_memlanes_search_would_refuse_is_refused_before_the_run(
        tmp_path: Path, dataset: str, data: Path) -> None:
    """A question over ``retrieval.max_query_chars`` (4000). Before: the run stopped at it,
    after the questions before it, with "query: 8000 characters is over the limit …"
    naming neither the file nor the question. Raising the limit with --set runs it."""
    records = json.loads(data.read_text())
    if dataset == "longmemeval":
        records[1]["question"], where = "why " * 2000, "question_id q2"
    else:
        records[0]["qa"][1]["question"], where = "why " * 2000, "qa_id conv-9:1"
    path = tmp_path / "long.json"
    path.write_text(json.dumps(records))
    out = tmp_path / "out"
    result = _bench(dataset, "--data", str(path), "--out", str(out), *FAST)
    assert result.exit_code == 1, result.output
    assert f"{path}: {where}: question: 8000 characters is over the limit of 4000" in result.output
    assert not out.exists()
    result = _bench(dataset, "--data", str(path), "--out", str(out), *FAST,
                    "--set", "retrieval.max_query_chars=8000")
    assert result.exit_code == 0, result.output


# ------------------------------------------------------------- the rankings file, scored again

def _official_dcg(relevances: list[float], k: int) -> float:
    """LongMemEval's src/retrieval/eval_utils.py ``dcg``: rel_1 + sum rel_i / log2(i)."""
    rel = relevances[:k]
    return rel[0] + sum(r / math.log2(i) for i, r in enumerate(rel[1:], start=2)) if rel else 0.0


def _official(ranked: list[str], corpus: list[str], gold: set[str], k: int) -> tuple[float, ...]:
    """``evaluate_retrieval``: recall_any, recall_all and ndcg over the corpus's ids."""
    top = set(ranked[:k])
    relevances = [1.0 if doc in gold else 0.0 for doc in corpus]
    ideal = _official_dcg(sorted(relevances, reverse=True), k)
    actual = _official_dcg([1.0 if doc in gold else 0.0 for doc in ranked[:k]], k)
    return (float(any(g in top for g in gold)), float(all(g in top for g in gold)),
            actual / ideal if ideal else 0.0)


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_rankings_file_is_the_documented_format_and_its_metrics_the_official_ones(
        tmp_path: Path) -> None:
    """Read back as another scorer would (README's "The rankings file"), every line is
    ``{"question_id", "ranked_ids"}`` in dataset order with the haystack's own ids, and the
    report's means are LongMemEval's official recall_any / recall_all / ndcg_any recomputed
    from those lines alone (gold: answer sessions holding a has_answer user turn;
    abstention questions left out)."""
    out = tmp_path / "out"
    result = _bench("longmemeval", "--data", str(LME), "--out", str(out), "--baseline", "bm25",
                    *FAST)
    assert result.exit_code == 0, result.output
    records = json.loads(LME.read_text())
    report = json.loads((out / "report.json").read_text())
    for system, suffix in (("memlane", ""), ("bm25", ".bm25")):
        for level in ("session", "turn"):
            lines = _lines(out / f"rankings-{level}{suffix}.jsonl")
            assert [set(x) for x in lines] == [{"question_id", "ranked_ids"}] * len(records)
            assert [x["question_id"] for x in lines] == [r["question_id"] for r in records]
            sums: dict[str, float] = {}
            scored = 0
            for rec, line in zip(records, lines):
                turns = [(f"{sid}_{n}", sid, t) for sid, sess in
                         zip(rec["haystack_session_ids"], rec["haystack_sessions"])
                         for n, t in enumerate(sess, start=1)]
                corpus = (rec["haystack_session_ids"] if level == "session"
                          else [tid for tid, _, _ in turns])
                ranked = line["ranked_ids"]
                assert len(ranked) == len(set(ranked)) and set(ranked) <= set(corpus)
                if system == "memlane":  # at least 50 ids, or the whole of a small haystack
                    assert set(ranked) == set(corpus)
                else:  # bm25 ranks user turns, as the official turn-level corpus
                    assert len(ranked) == (len(corpus) if level == "session" else len(corpus) // 2)
                gold_turns = {tid for tid, _, t in turns if t["role"] == "user"
                              and t.get("has_answer")}
                gold = ({sid for _, sid, _ in turns if f"{sid}" in rec["answer_session_ids"]
                         and any(g.startswith(f"{sid}_") for g in gold_turns)}
                        if level == "session" else gold_turns)
                if "_abs" in rec["question_id"] or not gold:
                    continue
                scored += 1
                for k in (1, 3, 5, 10):
                    for name, value in zip(("recall_any", "recall_all", "ndcg_any"),
                                           _official(ranked, corpus, gold, k)):
                        sums[f"{name}@{k}"] = sums.get(f"{name}@{k}", 0.0) + value
            overall = report["systems"][system]["levels"][level]["overall"]
            assert overall["n"] == scored == 3
            for name, total in sums.items():
                assert overall[name] == pytest.approx(total / scored), (system, level, name)


def test_locomo_rankings_are_qa_ids_and_dia_ids_and_recall_is_over_the_evidence(
        tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = _bench("locomo", "--data", str(LOCOMO), "--out", str(out), *FAST)
    assert result.exit_code == 0, result.output
    conv = json.loads(LOCOMO.read_text())[0]
    lines = _lines(out / "rankings-locomo.jsonl")
    assert [x["qa_id"] for x in lines] == [f"conv-9:{i}" for i in range(len(conv["qa"]))]
    dia_ids = {t["dia_id"] for key, turns in conv["conversation"].items()
               if key.startswith("session_") and isinstance(turns, list) for t in turns}
    hits = 0.0
    for qa, line in zip(conv["qa"], lines):
        assert set(line) == {"qa_id", "ranked_ids"} and set(line["ranked_ids"]) <= dia_ids
        if qa["category"] != 5:
            hits += _official(line["ranked_ids"], sorted(dia_ids), set(qa["evidence"]), 1)[0]
    overall = json.loads((out / "report.json").read_text())["systems"]["memlane"]["levels"]
    assert overall["turn"]["overall"]["recall_any@1"] == pytest.approx(hits / 2)


# ------------------------------------------------------------------ bench serve, bench ingest

@pytest.mark.parametrize("command", [["serve", "--seconds", "1"],
                                     ["ingest", "--items", "10", "--queries", "1"]])
@pytest.mark.parametrize("db", ["mine.db", "sqlite:///mine.db", "postgresql://127.0.0.1:1/x"])
def test_a_db_that_is_not_a_postgresql_scratch_database_is_refused_before_anything_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], db: str) -> None:
    """Before: ``--db mine.db`` filled a SQLite file in the working folder (reported as
    PostgreSQL by bench ingest; bench serve's service opened another one in its own folder,
    so every request was a 401 and the run exited 0); a server that refuses was found after
    the SQLite side had been measured."""
    monkeypatch.chdir(tmp_path)
    result = _bench(*command, "--db", db)
    assert result.exit_code in (1, 2), result.output
    said = "Connection refused" if db.startswith("postgresql") else "a PostgreSQL URL"
    assert said in result.output and "measuring" not in result.output, result.output
    assert not (tmp_path / "mine.db").exists()


def test_bench_ingest_checks_every_embedder_name_before_measuring(tmp_path: Path) -> None:
    """Before: ``--embedder static,nope`` measured static at every size, then stopped with
    "memory.embedding.backend: must be one of …" naming no option; ``--embedder ,``
    printed an empty table and exit 0."""
    for names, said in (("static,nope", "'nope'"), (",", "name at least one embedder")):
        result = _bench("ingest", "--items", "10", "--queries", "1", "--embedder", names)
        assert result.exit_code == 2, result.output
        assert "--embedder" in result.output and said in result.output, result.output
        assert "measuring" not in result.output


def test_bench_serve_says_why_the_service_did_not_start_and_fails_when_every_request_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The service inherits the environment. Before: a service that exits at start was
    "memlane serve exited with status 1" (why was in a deleted log), and a run whose every
    request was refused (413 here) exited 0."""
    monkeypatch.setenv("MEMLANE_SERVE_MAX_BODY_BYTES", "5")
    result = _bench("serve", "--seconds", "1", "--clients", "1")
    assert result.exit_code == 1, result.output
    assert "memlane serve exited with status 1" in result.output
    assert "max_body_bytes: must be an integer of at least 1024" in result.output
    monkeypatch.setenv("MEMLANE_SERVE_MAX_BODY_BYTES", "1024")
    result = _bench("serve", "--seconds", "1", "--clients", "1", "--mix", "add", "--batch", "100",
                    "--json")
    assert result.exit_code == 1, result.output
    assert "every request failed" in result.output and "413" in result.output


def test_the_readmes_sample_commands_run_as_written(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """README's "Benchmarks" quotes commands on the shipped small files: each runs as it is
    written from the repository's folder (seen here through a link) and leaves a report."""
    import re
    import shlex

    readme = (Path(__file__).parents[2] / "README.md").read_text()
    commands = [" ".join(c.split()) for c in re.findall(r"`(memlane\s+bench\s[^`]+)`", readme)
                if "tests/bench/data/" in c]
    assert len(commands) == 2, commands
    (tmp_path / "tests").symlink_to(Path(__file__).parents[1])
    monkeypatch.chdir(tmp_path)
    for n, command in enumerate(commands):
        result = CliRunner().invoke(cli, shlex.split(command)[1:])
        assert result.exit_code == 0, (command, result.output)
        reports = sorted((tmp_path / "bench-out").glob("*/report.json"))
        assert len(reports) == n + 1, (command, reports)


# ------------------------------------------------------- rankings read back, by memlane's tools

@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.integers(0, 2), other=st.integers(0, 2), how=st.sampled_from(
    ["text", "json", "drop key", "copy line", "id twice", "not a string", "blank"]),
    junk=st.one_of(st.text(max_size=8), st.integers(), st.none(), st.lists(st.integers(), max_size=2)))
def test_a_rankings_file_is_read_back_or_refused_naming_its_line(
        tmp_path: Path, line: int, other: int, how: str, junk: object) -> None:
    """``read_rankings`` (the tools' reader too): before, a line of another shape was a
    KeyError or a JSONDecodeError traceback, and a question given twice kept the last."""
    from memlane.bench.report import write_rankings

    ranked = {"conv-9:0": ["D1:1", "D1:2"], "conv-9:1": ["D2:2", "D1:1"], "conv-9:2": ["D2:1"]}
    path = tmp_path / "rankings-locomo.jsonl"
    write_rankings(path, ranked, list(ranked), key="qa_id")
    lines = path.read_text().splitlines()
    row = json.loads(lines[line])
    if how == "text":
        lines[line] = str(junk)
    elif how == "json":
        lines[line] = json.dumps(junk)
    elif how == "drop key":
        lines[line] = json.dumps({"qa_id": row["qa_id"]})
    elif how == "copy line":
        lines[line] = lines[other]
    elif how == "id twice":
        lines[line] = json.dumps({"qa_id": row["qa_id"], "ranked_ids": row["ranked_ids"] * 2})
    elif how == "not a string":
        lines[line] = json.dumps({"qa_id": row["qa_id"], "ranked_ids": [junk]})
    else:
        lines[line] = "   "
    path.write_text("\n".join(lines) + "\n")
    try:
        got = read_rankings(path)
    except DatasetError as exc:
        message = str(exc)
        assert message.startswith(f"{path}: line "), message
        assert any(message.startswith(f"{path}: line {n + 1}:") for n in (line, other)), message
        return
    expected = dict(ranked)  # every question read has its own list (a blank line is none)
    if how == "not a string" and isinstance(junk, str):
        expected[row["qa_id"]] = [junk]
    assert set(got) <= set(expected) and all(got[q] == expected[q] for q in got), got


TOOL = Path(__file__).parents[2] / "tools" / "miss_classes.py"


def test_a_tool_given_no_finished_run_says_so_in_one_line(tmp_path: Path) -> None:
    """``tools/miss_classes.py --rankings DIR`` (stage_probe and instance_probe read the
    same way): before, a missing folder, a LongMemEval run's folder or a run cut short was a
    FileNotFoundError traceback, or read as it was; a data file the tools cannot read was a
    DatasetError traceback."""
    done = tmp_path / "done"
    assert _bench("locomo", "--data", str(LOCOMO), "--out", str(done), *FAST).exit_code == 0
    lme = tmp_path / "lme"
    assert _bench("longmemeval", "--data", str(LME), "--out", str(lme), *FAST).exit_code == 0
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "rankings-locomo.jsonl").write_text((done / "rankings-locomo.jsonl").read_text())
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for folder, said in ((tmp_path / "nope", "no such file or folder"),
                         (lme, "no rankings-locomo.jsonl (it has rankings-session.jsonl"),
                         (cut, "not a finished bench run (no report.json)"), (done, None)):
        proc = subprocess.run([sys.executable, str(TOOL), "--data", str(LOCOMO), "--rankings",
                               str(folder)], capture_output=True, text=True, env=env, timeout=120)
        if said is None:
            assert proc.returncode == 0, proc.stderr
            continue
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.strip() == f"error: {folder}: {said}" or said in proc.stderr, proc.stderr
    missing = tmp_path / "mine.json"  # every tool that reads a data file: one line too
    for tool, args in (("summary_dump.py", ["--locomo", str(missing), "--out", "x.json"]),
                       ("fusion_probe.py", ["--data", str(missing)]),
                       ("meaning_vectors.py", ["locomo", "--data", str(missing), "--out", "v"])):
        proc = subprocess.run([sys.executable, str(TOOL.parent / tool), *args], cwd=tmp_path,
                              capture_output=True, text=True, env=env, timeout=120)
        assert proc.returncode == 1, (tool, proc.stderr)
        assert proc.stderr.strip() == f"error: {missing}: no such file", (tool, proc.stderr)


def test_the_stage_probe_classes_a_longmemeval_runs_missing_turns(tmp_path: Path) -> None:
    """``tools/stage_probe.py --longmemeval TYPES`` (session 30): each question in a fresh
    database as the bench builds it, its rankings checked against the bench's and its rows
    written; before, the probe read LoCoMo only (``--longmemeval`` was refused)."""
    run = tmp_path / "run"
    assert _bench("longmemeval", "--data", str(LME), "--out", str(run)).exit_code == 0
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = tmp_path / "rows.json"
    proc = subprocess.run([sys.executable, str(TOOL.parent / "stage_probe.py"), "--data",
                           str(LME), "--longmemeval", "single-session-user,multi-session",
                           "--rankings", str(run), "--out", str(out),
                           "--variant", "wide=top_sessions:6"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "rankings equal to the bench's (first 100): 3 of 3" in proc.stdout, proc.stdout
    rows = json.loads(out.read_text())
    assert set(rows) == {"main", "wide"} and set(rows["main"]) == {"q1", "q2", "q3"}
    assert {r["cat"] for r in rows["main"].values()} == {"single-session-user", "multi-session"}
    assert all(0.0 <= r["all"] <= 1.0 and "missing" in r for r in rows["main"].values())


def test_a_weights_file_that_cannot_be_made_is_refused_before_training(tmp_path: Path) -> None:
    """``bench summaries --train --out FILE`` inside a file: before, the model was trained
    and cross-validated (minutes), then "cannot write the weights"."""
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    result = _bench("summaries", "--train", "--kind", "linear", "--out", str(blocker / "w.json"))
    assert result.exit_code == 2, result.output
    assert f"{blocker / 'w.json'} cannot be made: {blocker} is not a folder" in result.output


def test_the_summary_check_sums_what_bench_summaries_scores(tmp_path: Path) -> None:
    """``tools/summary_check.py`` (session 44; before, each session's check was a script kept
    outside the repository): its sums are the F1 that ``bench summaries --json`` prints for each
    set, both ways, and a set it does not know is one line naming the option."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = tmp_path / "check.json"
    proc = subprocess.run([sys.executable, str(TOOL.parent / "summary_check.py"), "--sets",
                           "heldout2,heldout3", "--target", "heldout4", "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    scores = json.loads(out.read_text())["scores"]
    for way, flag in (("default", []), ("patterns", ["--no-sentence-model"])):
        bar = 0.0
        for name in ("heldout2", "heldout3"):
            result = _bench("summaries", "--set", name, "--json", *flag)
            assert result.exit_code == 0, result.output
            fields = json.loads(result.output)[0]["fields"]
            assert scores[way][name]["fields"] == fields
            bar += sum(fields[f]["f1"] for f in ("decisions", "rationale", "open_questions", "next_steps"))
        line = next(row for row in proc.stdout.splitlines() if row.startswith(way))
        assert f"D+R+OQ+NS {bar:.3f}" in line and bar > 0, (line, bar)
        assert any(row.split()[:2] == ["heldout4", way] for row in proc.stdout.splitlines()), proc.stdout
    proc = subprocess.run([sys.executable, str(TOOL.parent / "summary_check.py"), "--sets", "heldout2,nope"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("error: --sets/--target: unknown set 'nope'"), proc.stderr


def test_the_summary_check_diff_counts_what_moved_between_two_dumps(tmp_path: Path) -> None:
    """``tools/summary_check.py --diff`` (session 45; before, a script outside the repository
    counted a rule's right and wrong items): a label missed before and found after is one right
    found on its set, an item written wrong only after is one wrong added, per way and field; two
    equal dumps move nothing, and a file that is not a dump is one line naming it."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    tool = [sys.executable, str(TOOL.parent / "summary_check.py")]
    before = tmp_path / "before.json"
    proc = subprocess.run([*tool, "--sets", "heldout2", "--out", str(before)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    dump = json.loads(before.read_text())
    misses = dump["scores"]["default"]["heldout2"]["misses"]["decisions"]
    found = next(m for m in misses if m["kind"] == "missed")
    misses.remove(found)
    misses.append({"conversation": found["conversation"], "kind": "extra", "text": "Rent a boat."})
    after = tmp_path / "after.json"
    after.write_text(json.dumps(dump))

    def diff(*paths: Path, show: bool = False) -> list[str]:
        proc = subprocess.run([*tool, "--diff", *map(str, paths), *(["--show"] if show else [])],
                              capture_output=True, text=True, env=env, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.splitlines()

    assert [line.split() for line in diff(before, after)] == [
        ["default", "decisions", "right", "+1", "-0", "wrong", "+1", "-0", "right", "on:", "heldout2", "1"]]
    shown = diff(after, before, show=True)
    assert shown[0].split()[2:8] == ["right", "+0", "-1", "wrong", "+0", "-1"], shown
    assert f"-right heldout2 {found['conversation']}: {found['text']}" in shown[1], shown
    assert f"-wrong heldout2 {found['conversation']}: Rent a boat." in shown[2], shown
    assert diff(before, before) == ["no item moved"]
    proc = subprocess.run([*tool, "--diff", str(before), str(tmp_path)], capture_output=True, text=True, env=env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith(f"error: --diff: {tmp_path} is not a file written by --out"), proc.stderr


def test_the_summary_check_every_scores_every_development_set_up_to_through() -> None:
    """``--every`` (session 45): a rule's right and wrong items are counted on every development
    set, dev_all then heldout7 up to ``--through``; it names sets instead of ``--sets``, never with it."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    tool = [sys.executable, str(TOOL.parent / "summary_check.py")]
    proc = subprocess.run([*tool, "--every", "--through", "heldout8"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "sets: dev_all,heldout7,heldout8", proc.stdout
    proc = subprocess.run([*tool, "--every", "--sets", "heldout2"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and "not allowed with argument" in proc.stderr, proc.stderr
