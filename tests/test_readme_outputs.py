"""What the README shows memlane printing is what it prints (session 25).

test_readme_examples.py runs the README's commands and blocks; this file holds the README
to the outputs it quotes: each quote below is found in the README as written, and the
product, given the input the README describes, prints it. The README said a bad config value
is named ``retrieval.fusion_vector: must be >= 0`` after session 24 had made every refusal
name the key as the file writes it, ``memory.retrieval.fusion_vector``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from mcp import Client

import memlane
from memlane.config import load_config
from memlane.errors import ConfigError
from memlane.serve.cli import cli

README = " ".join((Path(__file__).parents[1] / "README.md").read_text().split())  # as read, not as wrapped


def _cli(tmp_path: Path, *args: str) -> str:
    db = str(tmp_path / "m.db")
    env = {"MEMLANE_EMBEDDING_BACKEND": "hashing", "MEMLANE_CONFIG": str(tmp_path / "none.toml")}
    (tmp_path / "none.toml").write_text("")
    CliRunner().invoke(cli, ["--db", db, "add", "hello", "--scope", "s"], env=env)
    r = CliRunner().invoke(cli, ["--db", db, *args], env=env, prog_name="memlane")
    return r.output


def _config(environ: dict[str, str]) -> str:
    with pytest.raises(ConfigError) as e:
        load_config(None, environ=environ)  # no file: the variable alone
    return str(e.value)


CLI = [
    ("`memlane, version X.Y.Z`", ["--version"],
     lambda out: out.strip() == f"memlane, version {memlane.__version__}"),
    ("`Invalid value for '-k': must be an integer from 1 to 1000, got 0`", ["search", "q", "-k", "0"],
     lambda out: "Invalid value for '-k': must be an integer from 1 to 1000, got 0" in out),
    ("`Invalid value for '--role': must be one of …`", ["add", "x", "--scope", "s", "--role", "boss"],
     lambda out: "Invalid value for '--role': must be one of " in out),
]


@pytest.mark.parametrize(("quote", "args", "shown"), CLI, ids=[q for q, _, _ in CLI])
def test_the_command_line_prints_what_the_readme_quotes(tmp_path: Path, quote: str,
                                                        args: list[str], shown) -> None:
    assert quote in README, f"README no longer quotes {quote}"
    out = _cli(tmp_path, *args)
    assert shown(out), (quote, out)


def test_a_bad_config_value_is_named_as_the_readme_says(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # no ./memlane.toml
    quote = "`memory.retrieval.fusion_vector: must be >= 0`"
    variable = "`(set by MEMLANE_RETRIEVAL_FUSION_VECTOR)`"
    assert quote in README and variable in README
    said = _config({"MEMLANE_RETRIEVAL_FUSION_VECTOR": "-1"})
    assert said == f"{quote.strip('`')} {variable.strip('`')}", said


def test_the_mcp_errors_the_readme_quotes_are_what_a_client_gets(tmp_path: Path) -> None:
    from tests.serve.test_mcp import server, talk

    quotes = {"recall": ({"query": "q", "k": 500}, "`k: must be an integer from 1 to 50, got 500`"),
              "remember": ({"text": "x", "role": "user", "at": "soon"}, "`at: 'soon' is not an ISO-8601 time`")}
    for _, quote in quotes.values():
        assert quote in README, f"README no longer quotes {quote}"

    async def body(c: Client) -> None:
        for tool, (args, quote) in quotes.items():
            result = await c.call_tool(tool, {"scope": "s", **args})
            text = " ".join(x.text for x in result.content if x.type == "text")
            assert result.is_error and quote.strip("`") in text, (quote, text)

    talk(server(tmp_path, str(tmp_path / "m.db")), body)
