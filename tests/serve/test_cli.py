"""The CLI through click's runner on real database files."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.testing import cli_commands, example_files


@pytest.fixture
def run(cli_run):
    return cli_run


def test_import_index_search_json(run):
    for f in example_files():
        run("import", str(f))
    out = json.loads(run("index", "--now", "2024-06-01T00:00:00Z", "--json").stdout)
    assert out["sessions_closed"] == 2 and out["items_indexed"] > 20  # 3 closed by gaps on import
    assert out["sessions_summarized"] == 5
    res = json.loads(run("search", "what database for billing", "--json", "-k", "3").stdout)
    assert len(res["hits"]) == 3
    assert "PostgreSQL" in " ".join(h["item"]["text"] for h in res["hits"])
    assert set(res["hits"][0]) == {"score", "scores", "item", "session"}
    text = run("search", "half marathon", "--scope", "alice-assistant").output
    assert "half marathon" in text and "rrf=" in text


def test_add_sessions_items_stats(run):
    out = json.loads(run("add", "--scope", "s", "--at", "2024-01-01T00:00:00Z", "hello there", "--json").stdout)
    assert out["seq"] == 1 and out["scope"] == "s"
    assert "added to session" in run("add", "--scope", "s", "--role", "assistant", "hi!").output
    sessions = json.loads(run("sessions", "list", "--json").stdout)
    assert len(sessions) == 2  # the second message came years later: a new session
    sid = sessions[-1]["id"]
    shown = json.loads(run("sessions", "show", str(sid), "--json").stdout)
    assert shown["messages"][0]["text"] == "hello there"
    assert "closed session" in run("sessions", "close", "--scope", "s").output
    assert "no open session" in run("sessions", "close", "--scope", "s").output
    run("index")
    item = json.loads(run("items", "show", "1", "--json").stdout)
    assert item["kind"] == "turn"
    stats = json.loads(run("stats", "--json").stdout)
    assert stats["messages"] == 2 and stats["items"]["turn"] == 2


def test_pack_prints_context_and_decisions(run):
    for f in example_files():
        run("import", str(f))
    run("index", "--now", "2024-06-01T00:00:00Z")
    out = run("pack", "my cat Miso", "--budget", "150", "--scope", "alice-assistant").output
    assert "Miso" in out and "/150 tokens" in out and "kept" in out and "pack 1" in out
    shown = run("packs", "show", "1").output
    assert "query: 'my cat Miso'" in shown and "/150 tokens" in shown
    assert "pack 99 does not exist" in run("packs", "show", "99", code=1).output
    data = json.loads(run("pack", "my cat Miso", "--budget", "150", "--json").stdout)
    assert data["used"] <= 150 and data["entries"]


@pytest.mark.parametrize(("args", "needle"), [
    (("add", "--scope", "s", "--role", "robot", "x"), "Invalid value for '--role': must be one of"),
    (("add", "--scope", "s", "--at", "soon", "x"), "Invalid value for '--at':"),
    (("sessions", "show", "99"), "session 99 does not exist"),
    (("items", "show", "5"), "item 5 does not exist"),
    (("search", "x", "-k", "0"), "Invalid value for '-k': must be"),
    (("sessions", "close"), "exactly one of"),
    (("sessions", "close", "--scope", "seed", "--now", "2024-01-01"), "--now goes with --idle"),
])
def test_errors_are_one_line_and_nonzero(run, args, needle):
    run("add", "--scope", "seed", "hello")
    # a bad value of an option is a usage error naming it (session 24), as two options
    # that exclude each other are; what the command line cannot know (no such id) is 1
    result = run(*args, code=1 if "does not exist" in needle else 2)
    assert needle in result.output
    assert "Traceback" not in result.output


def test_import_bad_line_reports_line_and_exits_nonzero(run, tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text('{"scope":"s","role":"user","text":"ok","at":"2024-01-01T00:00:00Z"}\n{"scope":"s"}\n')
    out = run("import", str(f), code=1).output
    assert "line 2" in out and "the 1 message(s) before it were kept" in out
    out = run("import", str(f), "--strict", code=1).output
    assert "nothing was imported" in out
    assert json.loads(run("stats", "--json").stdout)["messages"] == 1
    f.write_text('{"scope":"s"}\n')
    out = run("import", str(f), code=1).output
    assert "line 1: role: missing" in out and "(nothing was imported)" in out


def test_import_from_stdin(run):
    line = '{"scope":"s","role":"user","text":"from stdin","at":"2024-01-01T00:00:00Z"}\n'
    assert "imported 1" in run("import", "-", input=line).output


def test_bad_config_is_one_line(run, monkeypatch):
    monkeypatch.setenv("MEMLANE_SEARCH_RRF_K", "zero")
    assert "search.rrf_k" in run("stats", code=1).output



def test_every_command_has_help_and_is_documented_in_readme():
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text()
    runner = CliRunner()
    for path, cmd in cli_commands(groups=True):
        assert cmd.help, f"memlane {' '.join(path)} has no help"
        assert runner.invoke(cli, [*path, "--help"]).exit_code == 0
        assert f"memlane {' '.join(path)}" in readme, f"README does not document memlane {' '.join(path)}"


def test_session_intelligence_commands(run):
    for f in example_files():
        run("import", str(f))
    run("index", "--now", "2024-06-01T00:00:00Z")
    sessions = json.loads(run("sessions", "list", "--scope", "team-backend", "--json").stdout)
    shown = run("sessions", "show", str(sessions[-1]["id"])).output
    assert "summary (offline, schema v3):" in shown and "decisions: " in shown
    assert "BILL-142" in shown and "entities: " in shown
    data = json.loads(run("sessions", "show", str(sessions[-1]["id"]), "--json").stdout)
    assert data["summary"]["references"] and data["summary"]["turn_count"] == 6
    out = run("summarize", "--scope", "alice-assistant", "--last", "4").output
    assert out.startswith("Conversation alice-assistant") and "not stored" in out
    stored = json.loads(run("summarize", "--scope", "alice-assistant", "--last", "4", "--yes", "--json").stdout)
    assert stored["stored_item_id"] and stored["summary"]["turn_count"] == 4
    assert stored["summary"]["time_start"].endswith("Z") and stored["summary"]["time_end"].endswith("Z")  # as every JSON time
    assert json.loads(run("items", "show", str(stored["stored_item_id"]), "--json").stdout)["kind"] == "summary"
    assert "'--last': must be" in run("summarize", "--scope", "x", "--last", "0", code=2).output
    back = json.loads(run("backfill", "embeddings", "--missing-only", "--json").stdout)
    assert back["embedded"] == 0
    back = json.loads(run("backfill", "embeddings", "--json").stdout)
    assert back["embedded"] == sum(json.loads(run("stats", "--json").stdout)["items"].values())
    stats = json.loads(run("stats", "--json").stdout)
    assert stats["summary_queue"]["done"] == 5 and stats["counters"]["sessions_summarized"] == 5


def test_search_places_every_kind_of_hit_without_a_missing_turn(run):
    """A hit read from a whole session (summary, fact, entity) shows its session alone and
    an upserted item shows none: never "turn None"."""
    for f in example_files():
        run("import", str(f))
    run("index", "--now", "2024-06-01T00:00:00Z")
    out = json.loads(run("search", "Lisbon", "--json", "-k", "30").stdout)
    kinds = {h["item"]["kind"] for h in out["hits"]}
    assert "turn" in kinds and kinds - {"turn"}  # whole-session items are among the hits
    text = run("search", "Lisbon", "-k", "30").output
    assert "turn None" not in text
    for h in out["hits"]:
        it = h["item"]
        where = f"session {it['session_id']} turn {it['seq']}" if it["seq"] else f"session {it['session_id']}"
        assert f"[{it['scope']} · {where} · " in text


@pytest.mark.parametrize("poll", ["0", "-1", "nan", "inf", "1e12", "-inf"])
def test_worker_refuses_a_poll_it_cannot_sleep(run, poll):
    """0 and negatives were a ValueError traceback, nan a loop that never slept, past
    threading's limit an OverflowError: each is a usage error naming --poll."""
    run("add", "--scope", "s", "hello")
    out = run("worker", "--poll", poll, code=2).output
    assert "--poll" in out and "Traceback" not in out


def test_every_command_that_prints_data_takes_json():
    """README: 'Every command that prints data takes --json' (`facts forget` did not)."""
    runs = {("worker",), ("serve",), ("mcp",), ("bench", "longmemeval"), ("bench", "locomo")}
    missing = [" ".join(path) for path, cmd in cli_commands(groups=True)
               if not hasattr(cmd, "commands") and path not in runs
               and "--json" not in [o for p in cmd.params for o in getattr(p, "opts", [])]]
    assert missing == []


def test_facts_forget_json(run, tmp_path):
    from memlane.testing import memory

    run("add", "--scope", "s", "hello")
    with memory(tmp_path / "cli.db") as mem:
        fact_id = mem.add_fact("user", "city", "Lisbon", scope="s").fact_id
    assert json.loads(run("facts", "forget", str(fact_id), "--json").stdout) == {"forgotten": fact_id}
    assert "does not exist" in run("facts", "forget", str(fact_id), "--json", code=1).output


def test_search_help_names_every_preset():
    from memlane.retrieve.presets import PRESETS

    text = CliRunner().invoke(cli, ["search", "--help"], terminal_width=1000).output
    assert all(name in text for name in ["default", *PRESETS]), text

