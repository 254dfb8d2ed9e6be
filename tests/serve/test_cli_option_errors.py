"""Session 31: every option's refusal reads ``Invalid value for '--option': …``, click's own
words, whether click raised it or a command did by hand (docs/hardening.md)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from memlane.serve.cli import cli

_UNQUOTED = re.compile(r"Invalid value for -")


def _refused(args: list[str], option: str, tmp_path) -> None:
    runner = CliRunner()
    res = runner.invoke(cli, args)
    assert res.exit_code == 2, (args, res.output)
    assert f"Invalid value for '{option}': " in res.output, (args, res.output)
    assert not _UNQUOTED.search(res.output), (args, res.output)
    res = runner.invoke(cli, ["--json", *args])
    doc = json.loads(res.stdout[:res.stdout.rindex("}") + 1])
    if doc["error"]["field"] == "--json":  # a command with no --json says so first
        return
    assert doc["error"]["message"].startswith(f"Invalid value for '{option}': "), doc
    assert doc["error"]["field"] == option, doc


# each option refused by a command's own code (a ``param_hint`` raised by hand)
_BY_HAND = [
    (["bench", "serve", "--mix", "search=x"], "--mix"),
    (["bench", "serve", "--mix", "search=inf"], "--mix"),
    (["bench", "serve", "--mix", "search=1,search=2"], "--mix"),
    (["bench", "serve", "--mix", "nope"], "--mix"),
    (["bench", "serve", "--mix", "search=0"], "--mix"),
    (["bench", "ingest", "--items", "5"], "--items"),
    (["bench", "ingest", "--items", "a,b"], "--items"),
    (["bench", "ingest", "--items", "100", "--embedder", "nope"], "--embedder"),
    (["bench", "longmemeval", "--data", "{data}", "--preset", "nope"], "--preset"),
    (["bench", "longmemeval", "--data", "{data}", "--set", "bad"], "--set"),
    (["bench", "locomo", "--data", "{data}", "--set", "search.rrf_k=0"], "--set"),
    (["bench", "locomo", "--data", "{data}", "--out", "{full}"], "--out"),
    (["bench", "locomo", "--data", "{data}", "--db", "{full}/x"], "--db"),
    (["bench", "longmemeval", "--data", "{data}", "--vectors", "{data}"], "--vectors"),
    (["mcp", "--scope", ""], "--scope"),
    (["mcp", "--allow", ""], "--allow"),
    (["pack", "hello", "--text", "--json"], "--text"),
]


@pytest.mark.parametrize(("args", "option"), _BY_HAND, ids=[" ".join(a) for a, _ in _BY_HAND])
def test_an_option_refused_by_a_commands_own_code_is_named_as_click_names_one(
        args, option, tmp_path, monkeypatch):
    """``memlane bench serve --mix search=x`` read ``Invalid value for --mix: …`` where
    ``sessions list --status x`` reads ``Invalid value for '--status': …``: every refusal a
    command raised itself named its option unquoted (bench's ``--mix``, ``--items``,
    ``--embedder``, ``--preset``, ``--set``, ``--out``, ``--db``, ``--vectors``; ``mcp
    --scope`` / ``--allow``; ``pack --text``)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MEMLANE_DB", raising=False)
    data = tmp_path / "d.json"
    data.write_text("{}")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    filled = [a.format(data=data, full=tmp_path / "full") for a in args]
    _refused(filled, option, tmp_path)

