"""The service takes the scopes memlane takes, and refuses the others before it answers.

Two ways the service disagreed with memlane's scope rule (docs/hardening.md: 1-256
characters after trimming, one line, no control characters):

- its models capped a scope at 200 characters, so a scope the library, the CLI and MCP
  accept (201-256 characters) could be written but not read, searched or followed over
  HTTP;
- ``/state/memory`` checked the scope only inside the stream: ``?scope=a%0Ab`` (or only
  spaces, or 300 characters) answered 200 ``text/event-stream`` and closed with no event
  and a traceback in the log, which an EventSource reopens forever. Now a 400 naming
  ``scope``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.errors import ValidationError
from memlane.ingest.validate import MAX_SCOPE_CHARS, check_scope
from tests.serve.http.sse import opening


def test_the_longest_scope_works_everywhere_and_one_more_is_refused(sqlite_service) -> None:
    longest = "s" * MAX_SCOPE_CHARS
    with sqlite_service.client() as c:
        assert c.post("/v1/messages", json={"scope": longest, "text": "I live in Porto"}
                      ).status_code == 200
        assert c.post("/v1/items", json={"scope": longest, "text": "tea, not coffee",
                                         "kind": "preference"}).status_code == 200
        listed = c.get("/v1/sessions", params={"scope": longest})
        assert listed.status_code == 200 and len(listed.json()["sessions"]) == 1
        found = c.post("/v1/search", json={"query": "tea", "scope": longest})
        assert found.status_code == 200 and found.json()["hits"], found.text
        assert c.post("/v1/pack", json={"query": "tea", "scope": longest}).status_code == 200
        assert c.get("/v1/facts", params={"scope": longest}).status_code == 200
        assert c.post("/v1/sessions/close", json={"scope": longest}).status_code == 200
        assert opening(c, longest) == (200, "snapshot")

        too_long = longest + "s"
        for r in (c.post("/v1/messages", json={"scope": too_long, "text": "x"}),
                  c.post("/v1/search", json={"query": "tea", "scope": too_long}),
                  c.get("/v1/sessions", params={"scope": too_long}),
                  c.get("/v1/graph/Porto", params={"scope": too_long})):
            assert r.status_code == 400, r.text
            assert r.json()["error"]["field"] == "scope", r.text
        status, body = opening(c, too_long)
        assert status == 400 and '"field":"scope"' in body, body


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scope=st.text(min_size=1, max_size=300) | st.sampled_from(
    ["a\nb", "  ", "\u2028", "tab\there", "x" * 257, " chat-42 "]))
def test_the_stream_answers_any_scope_with_a_snapshot_or_a_400(sqlite_service, scope) -> None:
    try:
        check_scope(scope)
        valid = True
    except ValidationError:
        valid = False
    with sqlite_service.client() as c:
        status, what = opening(c, scope)
    if valid:
        assert (status, what) == (200, "snapshot"), (scope, status, what)
    else:
        assert status in (400, 422) and '"field":"scope"' in what, (scope, status, what)
