"""Listings the CLI cuts say so, with the command that reads on (session 23).

``memlane sessions list`` printed the newest 50 sessions as if they were all (no notice, no
``--offset``); ``memlane facts list --scope s`` said "more facts follow: memlane facts list
--offset 1000", whose command lists every scope's facts; ``memlane graph show`` printed 10
of an entity's items without a word."""

from __future__ import annotations

import json
import shlex

from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.testing import memory


def _hint(stderr: str, what: str) -> list[str]:
    line = next(ln for ln in stderr.splitlines() if ln.startswith(f"more {what} follow: "))
    return shlex.split(line.split(": ", 1)[1])


def test_sessions_list_says_more_follow_and_its_hint_reads_on(cli_run, tmp_path):
    with memory(tmp_path / "cli.db") as mem:
        for day in range(1, 56):  # 55 sessions of s, a day apart; 3 of another scope
            mem.add_message("s", "user", f"note of day {day}", at="2024-01-01T00:00:00Z")
            mem.close_session("s")
        for _ in range(3):
            mem.add_message("other", "user", "elsewhere", at="2024-02-01T00:00:00Z")
            mem.close_session("other")
        want = [s.id for s in mem.sessions(scope="s", limit=1000)]
    first = cli_run("sessions", "list", "--scope", "s", "--json")
    assert [s["id"] for s in json.loads(first.stdout)] == want[:50]
    hint = _hint(first.stderr, "sessions")
    assert hint == ["memlane", "sessions", "list", "--scope", "s", "--offset", "50"]
    rest = cli_run(*hint[1:], "--json")
    assert [s["id"] for s in json.loads(rest.stdout)] == want[50:]
    assert "follow" not in rest.stderr
    page = cli_run("sessions", "list", "--scope", "s", "--status", "closed", "--limit", "20",
                   "--offset", "20")
    assert len(page.stdout.splitlines()) == 20
    assert _hint(page.stderr, "sessions")[3:] == ["--scope", "s", "--status", "closed",
                                                  "--limit", "20", "--offset", "40"]
    exact = cli_run("sessions", "list", "--scope", "s", "--limit", "55")
    assert len(exact.stdout.splitlines()) == 55 and "follow" not in exact.stderr
    assert "'--offset'" in cli_run("sessions", "list", "--offset", "-1", code=2).stderr


def test_the_facts_hint_keeps_the_scope_and_subject_it_was_given(cli_run, tmp_path):
    with memory(tmp_path / "cli.db") as mem:
        for i in range(5):
            mem.add_fact("user", f"trait {i}", "v", scope="s", at="2024-01-01T00:00:00Z")
            mem.add_fact("user", f"trait {i}", "w", scope="t", at="2024-01-01T00:00:00Z")
    first = cli_run("facts", "list", "--scope", "s", "--subject", "user", "--limit", "3")
    hint = _hint(first.stderr, "facts")
    assert hint == ["memlane", "facts", "list", "--scope", "s", "--subject", "user",
                    "--limit", "3", "--offset", "3"]
    rest = cli_run(*hint[1:], "--json")
    assert {f["scope"] for f in json.loads(rest.stdout)} == {"s"}
    assert len(json.loads(rest.stdout)) == 2


def test_graph_show_says_how_many_items_it_left_out(cli_run, tmp_path):
    with memory(tmp_path / "cli.db") as mem:
        for day in range(1, 14):
            at = f"2024-03-{day:02d}T10:00:00Z"
            mem.add_message("s", "user", f"Day {day} in Lisbon: I walked to Belém in Lisbon.", at=at)
            mem.add_message("s", "assistant", f"Lisbon on day {day} sounds lovely.", at=at)
            mem.close_session("s")
        mem.index(now="2024-04-01T00:00:00Z")
    items = json.loads(cli_run("graph", "show", "Lisbon", "--json").stdout)["items"]
    assert len(items) > 10
    shown = cli_run("graph", "show", "Lisbon").stdout
    assert len([ln for ln in shown.splitlines() if ln.startswith("  item ")]) == 10
    assert f"… and {len(items) - 10} more item(s)" in shown and "--json" in shown


def test_every_option_of_every_command_says_what_it_does():
    """--scope (five commands), --agent, --project and sessions list's options had no help
    line; gc's help showed reStructuredText backticks."""
    from memlane.testing import cli_commands

    for path, cmd in cli_commands():
        for p in cmd.params:
            if getattr(p, "hidden", True) is False and not p.help:  # click.Option only
                raise AssertionError(f"memlane {' '.join(path)} {p.opts[0]} has no help")
        out = CliRunner().invoke(cli, [*path, "--help"]).output
        assert "``" not in out, f"memlane {' '.join(path)} --help shows ``"
