"""How the CLI mounts its commands: lazily, from one table, without importing benchmarks."""

from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner

from memlane.serve.cli import COMMANDS, cli


def test_help_does_not_import_the_benchmarks():
    code = (
        "import sys\n"
        "from memlane.serve.cli import main\n"
        "sys.argv = ['memlane', '--help']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as e:\n"
        "    assert e.code == 0, e.code\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('memlane.bench'))\n"
        "print('BENCH:' + ','.join(loaded))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "bench " in out.stdout  # still listed
    assert out.stdout.strip().splitlines()[-1] == "BENCH:"


def test_each_table_line_is_the_commands_own_help():
    ctx = click.Context(cli)
    for name, (_, line) in COMMANDS.items():
        cmd = cli.get_command(ctx, name)
        assert cmd is not None, name
        assert cmd.help is not None and cmd.help.strip().splitlines()[0] == line, name


def test_a_mounted_command_runs(tmp_path):
    db = str(tmp_path / "m.db")
    assert CliRunner().invoke(cli, ["--db", db, "add", "hello", "--scope", "s"]).exit_code == 0
    result = CliRunner().invoke(cli, ["--db", db, "facts", "list", "--json"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "[]"
