"""``retry_time`` answers from the one lookup its caller made (``stored_before``) and looks
nothing up itself (session 34: a caller that did not pass the lookup had it made again)."""

from __future__ import annotations

from datetime import datetime, timezone

from hypothesis import given
from hypothesis import strategies as st

from memlane.serve.delivered import retry_time, time_left_out
from memlane.types import Message

stored = st.builds(Message, id=st.integers(1, 9), session_id=st.just(1), scope=st.just("s"),
                   role=st.just("user"), text=st.just("x"), seq=st.just(1),
                   at=st.datetimes(timezones=st.just(timezone.utc)))
ats = st.none() | st.just("") | st.just("2026-01-01T00:00:00Z") | st.floats(0, 4e9)


@given(at=ats, earlier=st.none() | stored)
def test_retry_time_is_the_given_time_or_the_stored_messages(at, earlier):
    got = retry_time(at, earlier)
    if time_left_out(at) and earlier is not None:
        assert isinstance(got, datetime) and got == earlier.at
    else:
        assert got is at
