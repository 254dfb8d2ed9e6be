"""Session 24's walk of the command line as a new user: an import's bad line named by its
field and line in ``--json``; one exit status and one wording for a bad option value on
every command (introspected: every numeric option of every command)."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import time

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.cli import cli
from memlane.serve.cli_common import Float, Int

ENV = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}


@pytest.mark.parametrize(("line", "field"), [
    ('{"scope": "s", "role": "robot", "text": "x", "at": "2024-01-01T00:00:00Z"}', "role"),
    ('{"scope": "s", "role": "user", "text": "x", "at": "soon"}', "at"),
    ('{"scope": "s", "role": "user", "at": "2024-01-01T00:00:00Z"}', "text"),
    ('{"scope": "s", "role": "user", "text": "x", "at": "2024-01-01T00:00:00Z", "colour": 1}',
     "colour"),
    ('{"scope": "s", "role": "user", "text": "x"', None),  # not JSON: the line as a whole
])
def test_a_bad_import_line_is_named_by_its_field_and_line_in_json(cli_run, tmp_path, line, field):
    """``import --json`` named ``field: "file"`` whatever was wrong; the field and the line
    were only in the message."""
    f = tmp_path / "bad.jsonl"
    good = '{"scope": "s", "role": "user", "text": "ok", "at": "2024-01-01T00:00:00Z"}'
    f.write_text(f"{good}\n{line}\n", encoding="utf-8")
    data = json.loads(cli_run("import", str(f), "--json", code=1).stdout)
    assert data["error"]["field"] == field, data
    assert data["line"] == 2 and data["report"]["errors"][0][0] == 2
    assert data["report"]["error_field"] == field


def _commands() -> list[tuple[tuple[str, ...], click.Command]]:
    """Every command under ``memlane``, by its path (the lazily mounted ones too)."""
    found = []
    stack: list[tuple[tuple[str, ...], click.Command]] = [((), cli)]
    ctx = click.Context(cli)
    while stack:
        path, command = stack.pop()
        if isinstance(command, click.Group):
            stack += [((*path, name), command.get_command(ctx, name))
                      for name in command.list_commands(ctx)]
        else:
            found.append((path, command))
    return sorted(found, key=lambda c: c[0])


NUMERIC = (click.types.IntParamType, click.types.FloatParamType)
NUMBERS = [(path, param) for path, command in _commands() for param in command.params
           if isinstance(param.type, NUMERIC) and param.name not in ("help",)]


def test_every_numeric_option_of_every_command_has_memlanes_range():
    """Each number a command takes has a range, checked by click before the command runs,
    in memlane's words (a plain ``type=int`` left ``-k 0`` to memlane, exit 1, and
    ``--top-sessions 0`` to click, exit 2, in other words)."""
    assert len(NUMBERS) > 30
    loose = [(" ".join(path), param.name) for path, param in NUMBERS
             if not isinstance(param.type, (Int, Float))]
    assert not loose


def _bad_values(param: click.Parameter) -> list[str]:
    kind = param.type
    values = ["abc", "1e400", "", "--", "٣", "１٠"]  # other scripts' digits: session 25
    if isinstance(kind, Int):
        values += ["1.5", str(kind.min - 1), str(kind.max + 1), "9" * 30]
    if isinstance(kind, Float):
        values += ["nan", "-inf", f"{kind.min - 1}", *([f"{kind.max * 2 + 1}"] if kind.max < 1e300 else [])]
        if kind.min_open:
            values.append(str(kind.min))
    return values


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_bad_number_is_one_usage_error_naming_its_option_on_every_command(tmp_path_factory, data):
    """Any command, any numeric option or argument, a value out of its range or no number:
    exit 2, ``Invalid value for '<option>': must be …``, no traceback, and ``--json``'s field
    the option as typed. ``-k 0`` was exit 1 (memlane's ``k: must be``), ``--top-sessions 0``
    exit 2 (click's ``0 is not in the range x>=1.``), ``backfill embeddings --rate 0`` exit 2
    ("must be > 0") and ``--rate 0.0001`` exit 1."""
    path, param = data.draw(st.sampled_from(NUMBERS), label="option")
    value = data.draw(st.sampled_from(_bad_values(param)), label="value")
    folder = tmp_path_factory.mktemp("cli")
    runner = CliRunner(env={**ENV, "MEMLANE_DB": str(folder / "m.db")})  # bench refuses --db
    runner.invoke(cli, ["add", "--scope", "s", "seed"])
    given = [param.opts[0], value] if isinstance(param, click.Option) else ["--", value]
    with contextlib.chdir(folder):
        result = runner.invoke(cli, [*path, *given])
    hint = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
    assert result.exit_code == 2, (path, value, result.output)
    assert f"Invalid value for '{hint}': must be " in result.stderr, (path, value, result.output)
    assert "Traceback" not in result.output
    if "--" not in given:
        with contextlib.chdir(folder):
            as_json = runner.invoke(cli, ["--json", *path, *given])
        if path[0] not in ("worker", "serve", "mcp") and path[:2] not in (("bench", "longmemeval"),
                                                                          ("bench", "locomo")):
            error = json.loads(as_json.stdout)["error"]
            assert (error["code"], error["field"]) == ("usage", param.opts[0]), error


# options whose values memlane's own checks refuse (scope, role, at, ...): the same class
STRINGS = [(path, param) for path, command in _commands()
           if path[0] not in ("serve", "worker", "mcp", "bench", "copy", "migrate")
           for param in command.params
           if isinstance(param, click.Option) and param.type is click.STRING
           and param.name not in ("db", "config_path")]
HOSTILE = st.sampled_from(["", " ", "a\nb", "x\u200by", "\x1b[2J", "9999-99-99", "z" * 300,
                           "-1", "robot"])


def _filled(command: click.Command) -> list[str]:
    """Values for ``command``'s required parameters, so that the one tested is reached."""
    args: list[str] = []
    for p in command.params:
        if p.required and isinstance(p, click.Option):
            args += [p.opts[0], "1" if isinstance(p.type, NUMERIC) else "s"]
    args += ["1" if isinstance(p.type, NUMERIC) else "x"
             for p in command.params if p.required and isinstance(p, click.Argument)]
    return args


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_value_memlane_refuses_is_the_same_usage_error_naming_the_option(tmp_path_factory, data):
    """``add --role robot``, ``--scope ''``, ``--at soon``, ``facts list --now 9999-12-31``…
    refused by memlane's checks: the same class as a bad number, so the same answer: exit 2
    and ``Invalid value for '--role': must be one of …``, ``--json``'s field ``--role``
    (they were exit 1 and ``role: must be one of …``, field ``role``)."""
    path, param = data.draw(st.sampled_from(STRINGS), label="option")
    value = data.draw(HOSTILE, label="value")
    command = dict(_commands())[path]
    folder = tmp_path_factory.mktemp("cli")
    db = str(folder / "m.db")
    runner = CliRunner(env=ENV)
    runner.invoke(cli, ["--db", db, "add", "--scope", "s", "seed"])
    filled = _filled(command)
    if param.opts[0] in filled:
        i = filled.index(param.opts[0])
        filled[i + 1] = value
    else:
        filled = [param.opts[0], value, *filled]
    with contextlib.chdir(folder):
        result = runner.invoke(cli, ["--db", db, "--json", *path, *filled], input="")
    assert result.exit_code in (0, 1, 2) and "Traceback" not in result.output, result.output
    if not result.exit_code:
        return
    error = json.loads(result.stdout)["error"]
    names = {param.name, *(o.lstrip("-").replace("-", "_") for o in param.opts), *param.opts}
    if error["field"] in names:  # the error is this option's
        assert error["field"] == param.opts[0] and result.exit_code == 2, (path, value, error)
        assert f"Invalid value for '{param.opts[0]}'" in result.stderr


def test_python_dash_m_memlane_is_the_memlane_command(tmp_path):
    """``python -m memlane`` said "No module named memlane.__main__"."""
    done = subprocess.run([sys.executable, "-m", "memlane", "search", "--help"], capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: memlane search [OPTIONS] QUERY")


@pytest.mark.parametrize(("args", "said"), [
    (["search", "--help"], "[1 to 1000]"), (["facts", "list", "--help"], "0; at least 0]"),
    (["worker", "--help"], "0.01 to 86400]"), (["bench", "summaries", "--help"], "[above 0]"),
])
def test_help_states_a_range_as_its_error_does(args, said):
    """``--help`` said ``[0<=x<=9223372036854775807]`` where the error says ``must be an
    integer from 0 to …``."""
    out = " ".join(CliRunner(env=ENV).invoke(cli, args).output.split())
    assert said in out, out


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["export"], ["stats"], ["export", "--json"]], ids=" ".join)
def test_a_full_disk_under_the_output_is_one_line_and_exit_1(tmp_path, args):
    """``memlane export > file`` on a full disk (``/dev/full``) ended in a traceback
    (``OSError: [Errno 28] No space left on device``), and a short output failing at exit
    in a second one from the final flush."""
    env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing", "MEMLANE_DB": str(tmp_path / "m.db")}
    for i in range(300):  # more than a pipe buffer of export
        CliRunner(env=env).invoke(cli, ["add", "--scope", "s", f"message {i} " + "x" * 200])
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "memlane", *args], stdout=full,
                              stderr=subprocess.PIPE, text=True, env=env)
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "Error: cannot write the output: No space left on device"), done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


def test_index_says_when_a_backlog_was_summarized_in_several_processes(cli_run, tmp_path,
                                                                       monkeypatch):
    """``memlane index`` over 200+ sessions with ``indexing.jobs = 2`` started two processes
    and said nothing of them (nor did ``IndexReport``): its line names them now."""
    lines = []
    for s in range(200):
        for i, text in enumerate((f"I adopted a cat named Tom{s} and I love him.",
                                  "What colour is he?", f"He is grey and {s % 9 + 1} years old.",
                                  "A grey cat, lovely!")):
            lines.append(json.dumps({"scope": "u", "role": ("user", "assistant")[i % 2],
                                     "text": text, "at": f"2024-01-{s // 20 + 1:02d}T"
                                     f"{s % 20:02d}:{i:02d}:00Z"}))
    f = tmp_path / "backlog.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cli_run("import", str(f))
    monkeypatch.setenv("MEMLANE_INDEXING_JOBS", "2")
    out = cli_run("index").stdout
    assert "summarized 200," in out and "(2 processes)" in out, out


def test_the_worker_says_what_it_summarized(cli_run, tmp_path, monkeypatch):
    """``memlane worker`` printed a run's closed and indexed sessions only: a run that
    summarized sessions indexed before (a backlog, late messages) printed nothing."""
    lines = [json.dumps({"scope": "u", "role": ("user", "assistant")[i % 2],
                         "text": f"My sister Ana moved to Porto, message {i}.",
                         "at": f"2024-01-01T10:{i:02d}:00Z"}) for i in range(4)]
    (tmp_path / "one.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    cli_run("import", str(tmp_path / "one.jsonl"))
    monkeypatch.setenv("MEMLANE_INDEXING_ENABLED", "false")
    cli_run("index")  # indexed, not summarized
    env = {**os.environ, "MEMLANE_INDEXING_ENABLED": "true", "PYTHONPATH": os.pathsep.join(
        p for p in sys.path if p)}
    worker = subprocess.Popen([sys.executable, "-m", "memlane", "--db", str(tmp_path / "cli.db"),
                               "worker", "--poll", "0.2"], stderr=subprocess.PIPE, text=True,
                              env=env, cwd=tmp_path)
    try:
        for _ in range(600):  # bounded: until the session is summarized (or a minute)
            with contextlib.closing(sqlite3.connect(tmp_path / "cli.db")) as db:
                if db.execute("select status from sessions").fetchone()[0] == "summarized":
                    break
            time.sleep(0.1)
    finally:
        worker.terminate()
        _, said = worker.communicate(timeout=60)
    assert "summarized 1," in said, said
