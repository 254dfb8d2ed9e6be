"""Two things the service did without a word, made to say them (session 33, ux33b;
docs/hardening.md): a search ranked flat by the request itself (``session_aware: false`` or
a preset that ranks flat) dropped ``top_sessions`` / ``turns_per_session``; and a parameter
given by both its names (``agent`` and the overlay spec's ``agent_id``) was refused as
``agent: Extra inputs are not permitted``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.retrieve.presets import PRESETS
from memlane.serve.http.actions import ACTIONS
from memlane.serve.http.models import MessageIn

SESSION_OPTIONS = ("top_sessions", "turns_per_session")  # what only session-aware ranking reads
FLAT_PRESETS = sorted(n for n, p in PRESETS.items() if p.session_aware is False)
AWARE_PRESETS = sorted(n for n, p in PRESETS.items() if p.session_aware is True)


def _post(service: Any, route: str, kind: str, body: dict[str, Any]) -> Any:
    sent = body if route != "/actions" else {"kind": kind, "input": body}
    with service.client() as http:
        return http.post(route, json=sent)


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
@pytest.mark.parametrize("route", ["/v1/search", "/actions"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(options=st.lists(st.sampled_from(SESSION_OPTIONS), min_size=1, unique=True),
       flat=st.one_of(st.just(("session_aware", None)),
                      st.tuples(st.just("preset"), st.sampled_from(FLAT_PRESETS))),
       aware=st.sampled_from([None, True, False]), value=st.integers(1, 1000))
def test_session_options_in_a_request_ranked_flat_are_refused_naming_both(
        service, route: str, options: list[str], flat: tuple[str, str | None],
        aware: bool | None, value: int) -> None:
    body: dict[str, Any] = {"query": "where did I move", **{o: value for o in options}}
    if flat[0] == "session_aware":
        body["session_aware"] = False
    else:
        body["preset"] = flat[1]
        if aware is not None:
            body["session_aware"] = aware
    res = _post(service, route, "memory.search", body)
    assert res.status_code == 422, res.text
    option = next(o for o in SESSION_OPTIONS if o in options)
    prefix = "" if route == "/v1/search" else "input."
    error = res.json()["error"]
    assert error["field"] == prefix + option, res.text
    off = "session_aware false" if body.get("session_aware") is False else f"preset {flat[1]!r}"
    assert error["message"] == (f"{prefix}{option}: {option} goes with session-aware ranking, "
                                f"and {off} ranks flat: drop one of them"), res.text


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
@pytest.mark.parametrize("route", ["/v1/search", "/actions"])
def test_session_options_with_session_aware_ranking_are_taken(service, route: str) -> None:
    """The refusal is the flat request's only: the options with a session-aware preset,
    with session_aware true, and flat ranking without them all answer as before."""
    for body in ({"top_sessions": 2, "turns_per_session": 3},
                 {"session_aware": True, "top_sessions": 2},
                 *({"preset": p, "turns_per_session": 2} for p in AWARE_PRESETS),
                 {"session_aware": False},
                 *({"preset": p} for p in FLAT_PRESETS)):
        res = _post(service, route, "memory.search", {"query": "where did I move", **body})
        assert res.status_code == 200, (body, res.text)


def _alias_pairs() -> list[tuple[str, str | None, str, str]]:
    """(action kind, the list a field sits in or None, its name, its other name) for every
    field of every action's input model that takes two names."""
    out = []
    for kind, act in ACTIONS.items():
        for name, f in act.model.model_fields.items():
            if f.alias and f.alias != name:
                out.append((kind, None, name, f.alias))
    for name, f in MessageIn.model_fields.items():  # each message of a batch
        if f.alias and f.alias != name:
            out.append(("memory.add", "messages", name, f.alias))
    return out


PAIRS = _alias_pairs()
BASE = {"memory.add": {"scope": "chat-a", "text": "I moved to Lisbon"},
        "memory.search": {"query": "where did I move"},
        "memory.upsert": {"text": "the user prefers tea"}}
VALUES = {"ttl_seconds": 3600}


def test_every_alias_pair_is_covered() -> None:
    """A field given a second name later is walked by the test below, or this fails."""
    assert {kind for kind, *_ in PAIRS} == set(BASE)
    assert {(n, a) for _, _, n, a in PAIRS} == {
        ("agent", "agent_id"), ("project", "project_id"), ("ttl_seconds", "ttl_s")}


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
@pytest.mark.parametrize("via", ["rest", "actions"])
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0]}-{p[1] or ''}-{p[3]}")
@pytest.mark.parametrize("order", ["name first", "alias first"])
def test_a_parameter_given_by_both_its_names_is_refused_saying_so(
        service, via: str, pair: tuple[str, str | None, str, str], order: str) -> None:
    from memlane.serve.http.rest import ROUTES

    kind, inside, name, alias = pair
    value = VALUES.get(name, "atlas")
    both = {name: value, alias: value} if order == "name first" else {alias: value, name: value}
    if inside is None:
        body: dict[str, Any] = {**BASE[kind], **both}
    else:
        body = {inside: [{**BASE[kind], **both}]}
    route = "/actions" if via == "actions" else next(
        path for method, path, k in ROUTES if k == kind and method == "POST")
    before = service.mem.stats()
    res = _post(service, route, kind, body)
    assert res.status_code == 422, res.text
    field = ("input." if via == "actions" else "") + (f"{inside}.0." if inside else "") + alias
    assert res.json()["error"] == {
        "code": "invalid_request", "field": field,
        "message": f"{field}: the same parameter as {name}; give one of them"}, res.text
    assert service.mem.stats() == before
    # either name alone is taken, as before
    for one in (name, alias):
        alone = {one: value}
        ok = _post(service, route, kind, {**BASE[kind], **alone} if inside is None
                   else {inside: [{**BASE[kind], **alone}]})
        assert ok.status_code == 200, ok.text
