"""The service's orjson encoder writes memlane's dataclasses exactly as ``to_plain`` does.

The search and pack answers hand items, sessions and packs to ``JSONResponse`` as
dataclasses; the CLI's ``--json`` goes through ``render.dumps``. A client must read the
same JSON from both, datetimes included (ISO 8601, ``Z`` for UTC, microseconds kept).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.serve.http.responses import JSONResponse
from memlane.serve.render import dumps, hit_dict
from memlane.types import Hit, Item, Session

_zones = st.one_of(
    st.none(),
    st.just(timezone.utc),
    st.integers(-14 * 60, 14 * 60).map(lambda m: timezone(timedelta(minutes=m))),
)
_times = st.builds(
    lambda dt, tz: dt.replace(tzinfo=tz),
    st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1)),
    _zones,
)
_text = st.text(max_size=40)
_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False) | _text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=8,
)
_items = st.builds(
    Item, id=st.integers(1, 2**40), kind=_text, text=_text, at=_times,
    scope=st.none() | _text, keywords=st.lists(_text, max_size=3).map(tuple),
    parents=st.lists(st.integers(1, 2**40), max_size=3).map(tuple),
    trust=st.floats(0, 1), extra=st.dictionaries(_text, _json, max_size=3),
)
_sessions = st.builds(
    Session, id=st.integers(1, 2**40), scope=_text, status=st.sampled_from(["open", "closed"]),
    started_at=_times, ended_at=_times, message_count=st.integers(0, 10_000),
    participants=st.lists(_text, max_size=3).map(tuple),
)
_hits = st.builds(
    Hit, item=_items, score=st.floats(-1e6, 1e6),
    scores=st.dictionaries(_text, st.floats(-1e6, 1e6), max_size=4),
    session=st.none() | _sessions,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_hits, max_size=4))
def test_service_json_of_hits_equals_the_cli_json(hits: list[Hit]) -> None:
    answer = {"query": "q", "hits": [hit_dict(h) for h in hits]}
    assert json.loads(JSONResponse(answer).body) == json.loads(dumps(answer))


def test_a_utc_time_ends_in_z_and_keeps_its_microseconds() -> None:
    at = datetime(2026, 11, 24, 1, 2, 3, 456789, tzinfo=timezone.utc)
    item = Item(id=1, kind="turn", text="x", at=at)
    body = json.loads(JSONResponse({"item": item}).body)
    assert body["item"]["at"] == "2026-11-24T01:02:03.456789Z"
    assert body == json.loads(dumps({"item": item}))
