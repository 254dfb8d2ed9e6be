"""Session 30's walk of the README as a new user: a bad value of an option with a fixed set
of values is refused in the words of every other bad value (introspected: every choice
option of every command)."""

from __future__ import annotations

import contextlib
import json

import click
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
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
