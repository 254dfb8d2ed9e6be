"""``top_sessions`` / ``turns_per_session`` in a call (no ``session_aware``) over a ranking the
configuration made flat (``retrieval.session_aware = false``, or ``retrieval.preset`` =
``flat``, ``arawn``, ``lexical``) were taken unread without a word (session 33 kept it,
session 35 left it). Session 36 (fix36): the option asks for session-aware ranking, and the
call's word wins over the configured ranking, as its ``session_aware`` true does (session 35;
tests/serve/test_fix35_configured_preset.py): the search ranks two-stage with the configured
weights, exactly as the same call with ``session_aware`` true. A flat ranking the call chose
itself beside a session option stays refused (session 33). Every surface that takes the
options: the library, the CLI, the HTTP API (both routes; ``Client`` posts there); MCP's
``recall`` takes none."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.retrieve.presets import PRESETS
from memlane.serve.cli import cli
from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving

FLAT_PRESETS = sorted(n for n, p in PRESETS.items() if p.session_aware is False)
# every configuration that ranks flat: retrieval.session_aware false, or a flat preset
FLAT_CONFIGS: list[dict[str, Any]] = [{"session_aware": False},
                                      *({"preset": name} for name in FLAT_PRESETS)]
OPTIONS = st.fixed_dictionaries({}, optional={"top_sessions": st.integers(1, 4),
                                              "turns_per_session": st.integers(1, 4)}).filter(bool)


def _ranked(hits: list[Any]) -> list[tuple[int, bool]]:
    """Each hit's id and whether stage one ranked its session (``session_rank``)."""
    return [(h.item.id, "session_rank" in h.scores) for h in hits]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("options") / "m.db"
    with memory(path) as mem:
        for day, (session, text) in enumerate([
                ("chat", "I moved to Lisbon in March"), ("chat", "the flat has a tiny balcony"),
                ("trip", "Lisbon trams are yellow"), ("trip", "we rode tram 28 twice"),
                ("food", "pasteis de nata in Lisbon are the best"), ("food", "coffee is cheap"),
                ("work", "my Lisbon office opens at nine")], start=1):
            mem.add_message(session, "user", text, at=f"2024-03-{day:02d}T10:00:00Z")
        mem.index("2024-06-01T00:00:00Z")
    return str(path)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(config=st.sampled_from(FLAT_CONFIGS), options=OPTIONS)
def test_a_session_option_over_configured_flat_ranking_ranks_session_aware(
        db: str, config: dict[str, Any], options: dict[str, int]) -> None:
    with memory(db, retrieval=config) as mem:
        flat = _ranked(mem.search("Lisbon"))
        got = _ranked(mem.search("Lisbon", **options))
        asked = _ranked(mem.search("Lisbon", session_aware=True, **options))
    assert flat and not any(two for _, two in flat), config  # the configuration ranks flat
    assert got == asked, (config, options)
    assert got and all(two for _, two in got), (config, options)


@pytest.mark.parametrize("config", FLAT_CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_the_cli_ranks_session_aware_for_a_session_option(db: str, config: dict[str, Any]) -> None:
    env = {f"MEMLANE_RETRIEVAL_{key.upper()}": str(value).lower() for key, value in config.items()}

    def hits(*args: str) -> list[tuple[int, bool]]:
        got = CliRunner().invoke(cli, ["--db", db, "search", "Lisbon", "--json", *args], env=env)
        assert got.exit_code == 0, got.output
        return [(h["item"]["id"], "session_rank" in h["scores"])
                for h in json.loads(got.stdout)["hits"]]

    for args in (["--top-sessions", "2"], ["--turns-per-session", "1"]):
        got = hits(*args)
        assert got == hits("--session-aware", *args), (config, args)
        assert got and all(two for _, two in got), (config, args)
    assert not any(two for _, two in hits()), config


@pytest.mark.parametrize("config", FLAT_CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_over_http_a_session_option_ranks_session_aware(tmp_path: Path, db: str,
                                                        config: dict[str, Any]) -> None:
    with memory(db, retrieval=config) as mem, serving(create_app(mem, worker=False)) as url, \
            httpx.Client(base_url=url, timeout=30.0) as http:
        for route in ("/v1/search", "/actions"):
            def hits(body: dict[str, Any]) -> list[tuple[int, bool]]:
                sent = body if route == "/v1/search" else {"kind": "memory.search", "input": body}
                res = http.post(route, json=sent)
                assert res.status_code == 200, res.text
                out = res.json()
                found = out["result"]["hits"] if route == "/actions" else out["hits"]
                return [(h["item"]["id"], "session_rank" in h["scores"]) for h in found]

            for options in ({"top_sessions": 2}, {"turns_per_session": 1}):
                got = hits({"query": "Lisbon", **options})
                assert got == hits({"query": "Lisbon", "session_aware": True, **options})
                assert got and all(two for _, two in got), (route, options)


def test_a_flat_ranking_the_call_chose_is_still_refused(db: str) -> None:
    """Unchanged (session 33): the call turning it off itself beside a session option."""
    from memlane.errors import ValidationError

    with memory(db, retrieval={"session_aware": False}) as mem:
        with pytest.raises(ValidationError) as refused:
            mem.search("Lisbon", session_aware=False, top_sessions=2)
    assert refused.value.field == "top_sessions"
