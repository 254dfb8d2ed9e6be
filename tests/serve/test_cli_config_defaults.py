"""A command-line option left out takes the config's value, as the library call does
(session 20: ``memlane search`` without ``-k`` printed 10 hits whatever
``search.default_k`` said, while ``Memory.search`` honoured it)."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def many(cli_run):
    for i in range(12):
        cli_run("add", "--scope", "s", "--at", f"2024-03-04T09:{i:02d}:00Z",
                f"Lisbon trip note number {i}")
    cli_run("sessions", "close", "--scope", "s")
    cli_run("index")
    return cli_run


@pytest.mark.parametrize("k", ["1", "3"])
def test_search_without_k_takes_search_default_k_from_the_environment(many, monkeypatch, k):
    monkeypatch.setenv("MEMLANE_SEARCH_DEFAULT_K", k)
    hits = json.loads(many("search", "Lisbon trip", "--json").stdout)["hits"]
    assert len(hits) == int(k)
    assert len(json.loads(many("search", "Lisbon trip", "-k", "5", "--json").stdout)["hits"]) == 5


def test_search_without_k_takes_search_default_k_from_the_config_file(many, tmp_path):
    config = tmp_path / "other.toml"
    config.write_text("[memory.search]\ndefault_k = 2\n")
    out = many("search", "Lisbon trip", "--config", str(config)).output
    assert out.count("    item ") == 2, out
    shipped = many("search", "Lisbon trip", "--json").stdout
    assert len(json.loads(shipped)["hits"]) == 10  # the shipped default
