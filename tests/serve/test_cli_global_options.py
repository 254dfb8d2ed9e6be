"""The root's options (--db, --config) go before or after the command, with one meaning,
on every command: `memlane search q --db x.db` was "No such option '--db'"."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.testing import cli_commands



# A run of every command that ends: its arguments on the seeded database (ids of what
# the seed holds). A new command must be added here (or to LONG): the walk checks it.
RUNS: dict[tuple[str, ...], list[str]] = {
    ("add",): ["--scope", "s", "one more"],
    ("import",): ["{jsonl}"],
    ("export",): ["--scope", "s"],
    ("index",): ["--now", "2024-06-01T00:00:00Z"],
    ("search",): ["Miso", "--scope", "s"],
    ("pack",): ["Miso", "--scope", "s"],
    ("packs", "show"): ["1"],
    ("summarize",): ["--scope", "s", "--last", "2", "--yes"],
    ("backfill", "embeddings"): ["--missing-only"],
    ("sessions", "list"): [],
    ("sessions", "show"): ["1"],
    ("sessions", "close"): ["--idle"],
    ("sessions", "forget"): ["1", "--yes"],
    ("items", "show"): ["1"],
    ("facts", "list"): [],
    ("facts", "history"): ["user", "cat"],
    ("facts", "forget"): ["{fact}"],
    ("forget",): ["--scope", "s", "--yes"],
    ("graph", "show"): ["Miso"],
    ("compact",): [],
    ("gc",): [],
    ("stats",): [],
    ("migrate",): ["--show"],
    ("keys", "create"): ["--scopes", "*"],
    ("keys", "list"): [],
    ("keys", "revoke"): ["1"],
}
# Commands that serve or measure until stopped, or open no memory of --db: the walk checks
# only how they parse the options.
LONG = {("worker",), ("serve",), ("mcp",), ("copy",), ("bench", "ingest"), ("bench", "serve"),
        ("bench", "longmemeval"), ("bench", "locomo"), ("bench", "summaries"),
        ("bench", "compare")}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("seed")
    db = str(folder / "seed.db")
    env = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}
    runner = CliRunner(env=env)

    def run(*args: str) -> str:
        result = runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.stdout

    for i, text in enumerate(["my cat is called Miso", "Miso likes tuna", "ok", "fine"]):
        run("add", "--scope", "s", "--at", f"2024-01-01T10:0{i}:00Z", text)
    run("index", "--now", "2024-03-01T00:00:00Z")
    run("pack", "Miso", "--scope", "s")
    run("keys", "create", "--scopes", "*")
    (fact,) = [f for f in json.loads(run("facts", "list", "--json")) if f["predicate"] == "cat"]
    jsonl = folder / "more.jsonl"
    jsonl.write_text('{"scope": "s", "role": "user", "text": "hello", "at": "2024-05-01T00:00:00Z"}\n')
    return {"db": db, "jsonl": str(jsonl), "fact": str(fact["id"])}


def test_every_command_is_walked():
    walked = {path for path, _ in cli_commands()}
    assert walked == set(RUNS) | LONG


@pytest.mark.parametrize("path", sorted(RUNS), ids=" ".join)
def test_db_and_config_after_the_command_mean_what_they_mean_before_it(seeded, tmp_path, path,
                                                                    monkeypatch):
    """Run each command with --db before it and with --db after it, each on its own copy of
    the seeded database, from a folder without memlane.db: the same exit status 0 and the
    same output; then with --config after it naming a file whose db is a third copy."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner(env={"MEMLANE_EMBEDDING_BACKEND": "hashing"})
    args = [a.format(**seeded) if a.startswith("{") else a for a in RUNS[path]]
    dbs = []
    for name in ("before.db", "after.db", "config.db"):
        shutil.copy(seeded["db"], tmp_path / name)
        dbs.append(str(tmp_path / name))
    (tmp_path / "c.toml").write_text(f'[memory]\ndb = "{dbs[2]}"\n')
    before = runner.invoke(cli, ["--db", dbs[0], *path, *args])
    after = runner.invoke(cli, [*path, *args, "--db", dbs[1]])
    config = runner.invoke(cli, [*path, *args, "--config", str(tmp_path / "c.toml")])
    for result in (before, after, config):
        assert result.exit_code == 0, (path, result.output)
    assert not (tmp_path / "memlane.db").exists()  # neither fell back to the default
    if path not in {("keys", "create"), ("add",), ("import",), ("index",), ("summarize",),
                    ("backfill", "embeddings"), ("forget",), ("sessions", "forget"), ("gc",),
                    ("compact",), ("migrate",)}:  # outputs with a time, a key, a count of seconds
        assert after.stdout == before.stdout.replace(dbs[0], dbs[1]), path
        assert config.stdout == before.stdout.replace(dbs[0], dbs[2]), path


@pytest.mark.parametrize("path", sorted(RUNS) + sorted(LONG), ids=" ".join)
def test_two_different_values_are_a_usage_error_naming_the_option(tmp_path, path):
    runner = CliRunner()
    for flag in ("--db", "--config"):
        if (flag == "--db" and path in {("copy",), ("bench", "summaries"), ("bench", "ingest"),
                                        ("bench", "compare")}) or (
                flag == "--config" and path in {("bench", "ingest"), ("bench", "serve")}):
            continue  # refused outright, or --db taken as many (below)
        a, b = str(tmp_path / "a"), str(tmp_path / "b")
        for argv in ([flag, a, *path, flag, b], [*path, flag, a, flag, b], [flag, a, flag, b, *path]):
            result = runner.invoke(cli, [*argv, "--help"])  # --help last: never runs a server
            assert result.exit_code == 2, (argv, result.output)
            assert f"Invalid value for '{flag}': given twice with different values" in result.output
            assert repr(a) in result.output and repr(b) in result.output
        same = runner.invoke(cli, [flag, a, *path, flag, a, "--help"])
        assert same.exit_code == 0, same.output


@pytest.mark.parametrize(("path", "flag", "why"), [
    (("copy",), "--db", "name them there"),
    (("bench", "summaries"), "--db", "opens no database"),
    (("bench", "compare"), "--db", "opens no database"),
    (("bench", "ingest"), "--config", "reads no config file"),
    (("bench", "serve"), "--config", "reads no config file"),
])
def test_a_command_that_cannot_honour_an_option_refuses_it_either_side(tmp_path, path, flag, why):
    for argv in ([flag, "x", *path], [*path, flag, "x"]):
        result = CliRunner().invoke(cli, [*argv, "--help"])
        assert result.exit_code == 2 and f"Error: {flag}: memlane {' '.join(path)}" in result.output
        assert why in result.output
    assert flag not in CliRunner().invoke(cli, [*path, "--help"]).output  # not offered either


def test_environment_db_is_not_a_second_value(tmp_path, monkeypatch):
    """$MEMLANE_DB is a default the command line overrides, not a clash with it."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner(env={"MEMLANE_DB": str(tmp_path / "env.db"),
                            "MEMLANE_EMBEDDING_BACKEND": "hashing"})
    assert runner.invoke(cli, ["add", "--scope", "s", "hi", "--db", "cli.db"]).exit_code == 0
    assert (tmp_path / "cli.db").exists() and not (tmp_path / "env.db").exists()
    assert runner.invoke(cli, ["add", "--scope", "s", "hi"]).exit_code == 0
    assert (tmp_path / "env.db").exists()
    copied = runner.invoke(cli, ["copy", "--from", "cli.db", "--to", "copy.db"])
    assert copied.exit_code == 0, copied.output  # copy ignores $MEMLANE_DB as before


@pytest.mark.parametrize("path", sorted(RUNS), ids=" ".join)
def test_json_before_the_command_is_its_json(seeded, tmp_path, path, monkeypatch):
    """`memlane --json stats` was "No such option '--json'"."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(seeded["db"], tmp_path / "j.db")
    args = [a.format(**seeded) if a.startswith("{") else a for a in RUNS[path]]
    result = CliRunner(env={"MEMLANE_EMBEDDING_BACKEND": "hashing"}).invoke(
        cli, ["--json", "--db", str(tmp_path / "j.db"), *path, *args])
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)


@pytest.mark.parametrize("path", [("worker",), ("serve",), ("mcp",), ("bench", "longmemeval"),
                                  ("bench", "locomo")], ids=" ".join)
def test_json_before_a_command_that_prints_no_data_is_refused(path):
    result = CliRunner().invoke(cli, ["--json", *path, "--help"])
    assert result.exit_code == 2
    assert f"--json: memlane {' '.join(path)} prints no data to format" in result.stderr
    assert json.loads(result.stdout)["error"]["field"] == "--json"


def _lme_file(folder):
    data = folder / "lme.json"
    data.write_text(json.dumps([{
        "question_id": "q1", "question_type": "single-session-user", "question": "cat?",
        "answer": "Miso", "question_date": "2024/01/02 (Tue) 10:00", "haystack_dates":
        ["2024/01/01 (Mon) 10:00"], "haystack_session_ids": ["a"], "answer_session_ids": ["a"],
        "haystack_sessions": [[{"role": "user", "content": "my cat is Miso", "has_answer": True}]],
    }]))
    return data


def test_bench_reads_the_global_config(tmp_path):
    """`memlane --config c.toml bench longmemeval` ran on the default config, ignoring c.toml."""
    data = _lme_file(tmp_path)
    (tmp_path / "c.toml").write_text('[memory.search]\nrrf_k = "zero"\n')
    for argv in (["--config", str(tmp_path / "c.toml"), "bench", "longmemeval", "--data", str(data)],
                 ["bench", "longmemeval", "--data", str(data), "--config", str(tmp_path / "c.toml")]):
        result = CliRunner().invoke(cli, argv)
        assert result.exit_code == 2, result.output
        assert "--config" in result.output and "search.rrf_k" in result.output


def test_bench_takes_a_db_given_before_it_as_its_own(tmp_path):
    """bench longmemeval's --db (a scratch PostgreSQL database) given before `bench` is
    checked as its own: a SQLite file is refused naming --db, not silently ignored."""
    data = _lme_file(tmp_path)
    for argv in (["--db", "x.db", "bench", "longmemeval", "--data", str(data)],
                 ["bench", "longmemeval", "--data", str(data), "--db", "x.db"]):
        result = CliRunner().invoke(cli, argv)
        assert result.exit_code == 2, result.output
        assert "Invalid value for '--db': a PostgreSQL URL" in result.output
