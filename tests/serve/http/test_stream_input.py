"""``/state/memory`` checks what the client sent, and makes its first read, before the
stream starts: any request is answered with an error naming the field, or with a stream
whose first event is ``snapshot``, ``patch`` or ``reset``, never an empty 200 stream.

``Last-Event-ID: -5`` (a negative id) answered 200 ``text/event-stream`` and closed with no
event (``live.poll`` refused it inside the stream; 'response already started' in the
log), which an EventSource reopens forever. The same for a bad scope (test_scopes.py)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.serve.http.sse import opening


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.integers(-(2**80), 2**80).map(str) | st.sampled_from(
    ["-1", "-0", "0", "+2", "1e3", "abc", "3 4"]))
def test_any_last_event_id_opens_with_an_event_or_a_named_error(sqlite_service, value) -> None:
    mem = sqlite_service.mem
    if not mem.sessions(scope="chat-42"):
        mem.add_message("chat-42", "user", "I moved to Lisbon", at="2024-01-01T00:00:00Z")
    with sqlite_service.client() as c:
        status, what = opening(c, headers={"Last-Event-ID": value})
    if status == 200:
        assert what in ("snapshot", "patch", "reset", "quiet"), (value, what)
    else:
        assert status == 422 and '"field":"Last-Event-ID"' in what, (value, status, what)
    try:
        number = int(value)
    except ValueError:
        number = None
    if number is not None and number < 0:
        assert status == 422, (value, status, what)


def test_resuming_still_gives_the_changes_after_the_id(sqlite_service) -> None:
    mem = sqlite_service.mem
    mem.add_message("chat-42", "user", "first", at="2024-01-01T00:00:00Z")
    with sqlite_service.client() as c:
        with c.stream("GET", "/state/memory", params={"scope": "chat-42"}) as r:
            lines = r.iter_lines()
            head = next(line for line in lines if line.startswith("id:")).split(":")[1].strip()
        mem.add_message("chat-42", "user", "second", at="2024-01-01T00:01:00Z")
        assert opening(c, headers={"Last-Event-ID": head}) == (200, "patch")



def test_an_empty_last_event_id_is_no_id_and_opens_with_a_snapshot(sqlite_service) -> None:
    """Empty is the standard's "no last event id" (an ``id:`` line without a value resets
    it; HTTP trims a value's spaces); a client sending it as an empty header on its first
    connection got a 422, on which an EventSource stops for good (session 27)."""
    sqlite_service.mem.add_message("chat-42", "user", "I moved to Lisbon")
    with sqlite_service.client() as c:
        assert opening(c, headers={"Last-Event-ID": ""}) == (200, "snapshot")
