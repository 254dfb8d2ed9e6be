"""Whatever a client sends to /actions, the answer is JSON and never a 500."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.http.actions import ACTIONS

FIELDS = ["query", "scope", "k", "text", "role", "messages", "budget", "id", "at", "since",
          "kinds", "privacy", "preset", "subject", "predicate", "entity", "limit", "status",
          "idle", "session_id", "lane", "kind", "topics", "ttl_s", "filters", "trust", "now"]
values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(FIELDS), inner, max_size=3),
    max_leaves=8,
)
inputs = st.dictionaries(st.sampled_from(FIELDS), values, max_size=5)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(ACTIONS)) | st.text(max_size=12), inp=inputs | values)
def test_any_action_input_is_answered_without_a_500(sqlite_service, kind, inp) -> None:
    with sqlite_service.client() as c:
        r = c.post("/actions", json={"kind": kind, "input": inp})
    assert r.status_code < 500, (kind, inp, r.text)
    body = r.json()
    if r.status_code >= 400:
        assert set(body["error"]) == {"code", "message", "field"}, body
    else:
        assert body["ok"] is True
