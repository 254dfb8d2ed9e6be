"""``memlane search`` with the retrieval options, through click's runner on a real file."""

from __future__ import annotations

import json

import pytest

from memlane.testing import example_files


@pytest.fixture
def run(cli_run):
    for f in example_files():
        cli_run("import", str(f))
    cli_run("index", "--now", "2024-06-01T00:00:00Z")
    return cli_run


def test_explain_prints_stage_ranks_and_signals(run) -> None:
    out = run("search", "what database for billing", "-k", "3", "--explain").output
    assert out.count("ranks: ") == 3
    assert "session #" in out and "relevance  value" in out and "contributes" in out


def test_flat_and_session_options(run) -> None:
    flat = json.loads(run("search", "half marathon", "--flat", "--json", "-k", "4").output)
    assert flat["hits"] and all("session_rank" not in h["scores"] for h in flat["hits"])
    aware = json.loads(run("search", "half marathon", "--session-aware", "--top-sessions", "1",
                           "--turns-per-session", "2", "--json", "-k", "4").output)
    ranks = [h["scores"].get("session_rank") for h in aware["hits"]]
    assert ranks[0] == 1.0 and ranks == sorted(ranks)
    arawn = json.loads(run("search", "half marathon", "--preset", "arawn", "--mmr", "--json").output)
    assert arawn["hits"]


def test_unknown_preset_is_refused(run) -> None:
    res = run("search", "x", "--preset", "nope", code=2)
    assert "unknown preset 'nope'" in res.output
