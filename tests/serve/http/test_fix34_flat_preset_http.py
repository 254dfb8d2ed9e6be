"""``session_aware: true`` beside a preset that ranks flat, in one request, is a 422 naming
both on ``/v1/search`` and ``/actions`` (session 34, fix34; it was ranked flat without a
word)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.retrieve.presets import PRESETS

FLAT_PRESETS = sorted(n for n, p in PRESETS.items() if p.session_aware is False)


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
@pytest.mark.parametrize("route", ["/v1/search", "/actions"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(preset=st.sampled_from([None, "default", *sorted(PRESETS)]),
       aware=st.sampled_from([None, True, False]))
def test_session_aware_beside_a_flat_preset_is_a_422_naming_both(
        service, route: str, preset: str | None, aware: bool | None) -> None:
    body: dict[str, Any] = {"query": "where did I move"}
    if preset is not None:
        body["preset"] = preset
    if aware is not None:
        body["session_aware"] = aware
    sent = body if route != "/actions" else {"kind": "memory.search", "input": body}
    with service.client() as http:
        res = http.post(route, json=sent)
    if not (aware is True and preset in FLAT_PRESETS):
        assert res.status_code == 200, res.text
        return
    assert res.status_code == 422, res.text
    prefix = "" if route == "/v1/search" else "input."
    assert res.json()["error"]["field"] == prefix + "session_aware"
    assert res.json()["error"]["message"] == (
        f"{prefix}session_aware: session_aware true asks for session-aware ranking, and "
        f"preset {preset!r} ranks flat: drop one of them")
