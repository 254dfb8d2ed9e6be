"""``session_aware`` true beside a preset that ranks flat (``flat``, ``arawn``, ``lexical``)
named in the same call was ranked flat without a word (session 34, fix34): it is refused
naming both, as session 33 refused ``--top-sessions`` beside such a preset (the call asks
for session-aware ranking and turns it off itself). Library and CLI here; HTTP in
tests/serve/http/test_fix34_flat_preset_http.py; the inspector's form in
tests/serve/inspector/test_fix34_ranking_mode.py."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.errors import ValidationError
from memlane.retrieve.presets import PRESETS
from memlane.serve.cli import cli
from memlane.testing import memory

FLAT_PRESETS = sorted(n for n, p in PRESETS.items() if p.session_aware is False)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("flat") / "m.db"
    with memory(path) as mem:
        mem.add_message("chat", "user", "I moved to Lisbon in March", at="2024-03-02T10:00:00Z")
        mem.index("2024-06-01T00:00:00Z")
    return str(path)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(preset=st.sampled_from([None, "default", *sorted(PRESETS)]),
       aware=st.sampled_from([None, True, False]))
def test_session_aware_beside_a_flat_preset_is_refused_naming_both(
        db: str, preset: str | None, aware: bool | None) -> None:
    args = ["--db", db, "search", "Lisbon", "--json"]
    args += ["--preset", preset] if preset else []
    args += [] if aware is None else ["--session-aware" if aware else "--flat"]
    got = CliRunner().invoke(cli, args)
    with memory(db) as mem:
        if not (aware is True and preset in FLAT_PRESETS):  # answered, as before
            assert got.exit_code == 0, got.output
            assert json.loads(got.stdout)["hits"]
            assert mem.search("Lisbon", preset=preset, session_aware=aware)
            return
        with pytest.raises(ValidationError) as refused:
            mem.search("Lisbon", preset=preset, session_aware=aware)
    assert got.exit_code == 2, got.output
    assert json.loads(got.stdout)["error"] == {
        "code": "usage", "field": "--session-aware",
        "message": f"--session-aware asks for session-aware ranking, and --preset {preset} "
                   "ranks flat: drop one of them"}
    assert refused.value.field == "session_aware"
    assert str(refused.value) == (f"session_aware: session_aware=True asks for session-aware "
                                  f"ranking, and preset {preset!r} ranks flat: drop one of them")


def test_a_configured_flat_preset_with_session_aware_is_not_refused(db: str) -> None:
    """As session 33's rule: a flat ranking the configuration chose is not the call's."""
    with memory(db, retrieval={"preset": "lexical"}) as mem:
        assert mem.search("Lisbon", session_aware=True)
