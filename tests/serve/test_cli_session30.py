"""Session 30's walk of the README as a new user: a bad value of an option with a fixed set
of values is refused in the words of every other bad value (introspected: every choice
option of every command)."""

from __future__ import annotations

import contextlib
import json

import click
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.serve.cli import cli
from memlane.testing import cli_commands

ENV = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}
CHOICES = [(path, command, param) for path, command in cli_commands() for param in command.params
           if isinstance(param, click.Option) and isinstance(param.type, click.Choice)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_value_outside_an_options_choices_is_refused_as_every_bad_value_is(tmp_path_factory, data):
    """``sessions list --status bogus`` said click's "'bogus' is not one of 'open', …" where
    ``add --role bot`` says "must be one of user, …, got 'bot'" (the wording the README
    quotes for every bad option value); ``bench compare --metric`` and ``bench summaries
    --kind`` too."""
    assert len(CHOICES) >= 9, CHOICES
    path, command, param = data.draw(st.sampled_from(CHOICES), label="option")
    value = data.draw(st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=8)
                      .filter(lambda v: v not in param.type.choices), label="value")  # type: ignore[attr-defined]
    folder = tmp_path_factory.mktemp("cli")
    runner = CliRunner(env={**ENV, "MEMLANE_DB": str(folder / "m.db")})
    runner.invoke(cli, ["add", "--scope", "s", "seed"])
    with contextlib.chdir(folder):
        result = runner.invoke(cli, [*path, param.opts[0], value])
        as_json = runner.invoke(cli, [*path, param.opts[0], value, "--json"])
    choices = ", ".join(map(str, param.type.choices))  # type: ignore[attr-defined]
    assert result.exit_code == 2, (path, value, result.output)
    assert f"Error: Invalid value for '{param.opts[0]}': must be one of {choices}, got {value!r}" \
        in result.stderr, (path, value, result.output)
    if any("--json" in p.opts for p in command.params):  # the commands that take it
        error = json.loads(as_json.stdout)["error"]
        assert (error["code"], error["field"]) == ("usage", param.opts[0]), error


def test_no_options_help_says_its_range_twice():
    """``worker --help`` read "Seconds between index runs (0.01 to 86400).  [default: 5.0;
    0.01 to 86400]": the range click shows after the help was written into it too."""
    from memlane.serve.cli_common import Float, Int

    checked = 0
    for path, command in cli_commands():
        for param in command.params:
            if isinstance(param, click.Option) and isinstance(param.type, (Int, Float)):
                shown = param.type._describe_range()
                assert shown not in (param.help or ""), (path, param.opts, param.help)
                checked += 1
    assert checked > 30


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(st.text(st.sampled_from("abcdefghij-0123456789"), min_size=1, max_size=60),
                      min_size=2, max_size=4, unique=True))
@example(names=["team-backend", "3f2b9c1e-8d4a-4e7b-9a6c-1d2e3f4a5b6c"])
def test_listings_keep_their_columns_whatever_the_widths(tmp_path_factory, names):
    """``sessions list`` padded scopes to 20 characters and ``keys list`` names to 20 and
    scopes to 24: a UUID scope (36) or a long ``--name`` pushed its row's columns out of line
    with the others'. Each column is now as wide as the listing's widest value."""
    folder = tmp_path_factory.mktemp("cols")
    runner = CliRunner(env={**ENV, "MEMLANE_DB": str(folder / "m.db")})
    for name in names:
        assert runner.invoke(cli, ["add", "--scope", name, "hello"]).exit_code == 0
        assert runner.invoke(cli, ["keys", "create", "--scopes", name, "--name", name]).exit_code == 0
    sessions = runner.invoke(cli, ["sessions", "list"]).stdout.splitlines()
    keys = runner.invoke(cli, ["keys", "list"]).stdout.splitlines()
    assert len(sessions) == len(keys) == len(names)
    assert len({line.index(" → ") for line in sessions}) == 1, sessions
    assert len({line.index(" ml_") for line in keys}) == 1, keys
    assert len({line.index(" read-write") for line in keys}) == 1, keys


def test_search_explain_shows_the_stage_times_the_actions_answer(tmp_path):
    """The README says ``/actions`` answers "the per-stage timings ``memlane search
    --explain`` shows": ``--explain`` showed ranks and signals, no time (only ``--json`` had
    ``timings_ms``). Its last line now gives each stage's time, the stages ``--json`` names."""
    runner = CliRunner(env={**ENV, "MEMLANE_DB": str(tmp_path / "m.db")})
    for text in ("I signed up for the Lisbon half marathon", "Great, a 16-week plan then"):
        assert runner.invoke(cli, ["add", "--scope", "s", text]).exit_code == 0
    assert runner.invoke(cli, ["sessions", "close", "--scope", "s"]).exit_code == 0
    assert runner.invoke(cli, ["index"]).exit_code == 0
    shown = runner.invoke(cli, ["search", "half marathon", "--scope", "s", "--explain"])
    assert shown.exit_code == 0, shown.output
    last = shown.stdout.splitlines()[-1]
    as_json = json.loads(runner.invoke(cli, ["search", "half marathon", "--scope", "s", "--json"]).stdout)
    stages = [name.removesuffix("_ms") for name in as_json["timings_ms"]]
    assert stages and last.startswith("stage times: "), shown.stdout
    assert [part.split()[0] for part in last.removeprefix("stage times: ").split(" · ")] == stages
    plain = runner.invoke(cli, ["search", "half marathon", "--scope", "s"]).stdout
    assert "stage times" not in plain  # --explain's alone
