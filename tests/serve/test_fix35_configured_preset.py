"""A call's explicit ``session_aware`` true against a preset the configuration chose
(``retrieval.preset``) that ranks flat (``flat``, ``arawn``, ``lexical``): the call's word
was dropped without one (``search`` ranked any such preset flat), while the same call against
``retrieval.session_aware = false`` ranked session-aware (session 35, fix35). The call's
explicit option now wins over every configured default, as its ``--flat`` does over a
configured session-aware preset, on every surface: the library, the CLI and the HTTP API (MCP's
``recall`` takes no ranking option). A preset named in the same call as ``session_aware`` true
stays refused (session 34: tests/serve/test_fix34_flat_preset.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from memlane.retrieve.presets import PRESETS
from memlane.serve.cli import cli
from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving

CONFIGURED = ["default", *sorted(PRESETS)]
AWARE = [None, True, False]


def expected(preset: str, aware: bool | None, configured_aware: bool = True) -> bool:
    """Session-aware ranking: the call's word, else the preset's, else the config's."""
    if aware is not None:
        return aware
    own = PRESETS[preset].session_aware if preset in PRESETS else None
    return configured_aware if own is None else own


def two_stage(scores: dict[str, Any]) -> bool:
    """Whether a hit was ranked by sessions first (stage one gives it ``session_rank``)."""
    return "session_rank" in scores


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("configured") / "m.db"
    with memory(path) as mem:
        mem.add_message("chat", "user", "I moved to Lisbon in March", at="2024-03-02T10:00:00Z")
        mem.add_message("trip", "user", "Lisbon trams are yellow", at="2024-04-02T10:00:00Z")
        mem.index("2024-06-01T00:00:00Z")
    return str(path)


@pytest.mark.parametrize("preset", CONFIGURED)
def test_the_calls_session_aware_wins_over_the_configured_preset(db: str, preset: str) -> None:
    with memory(db, retrieval={"preset": preset}) as mem:
        for aware in AWARE:
            hits = mem.search("Lisbon", session_aware=aware)
            assert hits and all(two_stage(h.scores) == expected(preset, aware) for h in hits), (
                preset, aware, [sorted(h.scores) for h in hits])
    for aware in AWARE:
        flag = [] if aware is None else ["--session-aware" if aware else "--flat"]
        got = CliRunner().invoke(cli, ["--db", db, "search", "Lisbon", "--json", *flag],
                                 env={"MEMLANE_RETRIEVAL_PRESET": preset})
        assert got.exit_code == 0, got.output
        hits = json.loads(got.stdout)["hits"]
        assert hits and all(two_stage(h["scores"]) == expected(preset, aware) for h in hits), (
            preset, aware)


def test_the_calls_session_aware_wins_over_configured_flat_ranking(db: str) -> None:
    """The rule the presets now follow, as it was for ``retrieval.session_aware``."""
    with memory(db, retrieval={"session_aware": False}) as mem:
        for aware in AWARE:
            hits = mem.search("Lisbon", session_aware=aware)
            assert hits and all(two_stage(h.scores) == expected("default", aware, False)
                                for h in hits), aware


@pytest.mark.parametrize("preset", sorted(n for n, p in PRESETS.items() if p.session_aware is False))
def test_over_http_the_requests_session_aware_wins_over_the_configured_preset(
        tmp_path: Path, preset: str) -> None:
    with memory(tmp_path / "served.db", retrieval={"preset": preset}) as mem:
        mem.add_message("chat", "user", "I moved to Lisbon in March", at="2024-03-02T10:00:00Z")
        mem.index("2024-06-01T00:00:00Z")
        with serving(create_app(mem, worker=False)) as url, \
                httpx.Client(base_url=url, timeout=30.0) as http:
            for aware in AWARE:
                body: dict[str, Any] = {"query": "Lisbon"}
                if aware is not None:
                    body["session_aware"] = aware
                for route, sent in (("/v1/search", body),
                                    ("/actions", {"kind": "memory.search", "input": body})):
                    res = http.post(route, json=sent)
                    assert res.status_code == 200, res.text
                    out = res.json()
                    hits = out["result"]["hits"] if route == "/actions" else out["hits"]
                    assert hits and all(two_stage(h["scores"]) == expected(preset, aware)
                                        for h in hits), (route, aware)
