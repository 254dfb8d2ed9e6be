"""A time out of range is refused with the range it is out of (session 20: ``--now
9999-12-31`` was refused as "out of range (years 1 to 9999 in UTC)", a year inside the
range it named; an epoch value out of range named no range at all)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlane.errors import ValidationError
from memlane.ingest.validate import parse_time

LOW = datetime(1, 1, 2, tzinfo=UTC)
HIGH = datetime(9999, 12, 30, tzinfo=UTC)
RANGE = "from 0001-01-02 to 9999-12-30 UTC"

zones = st.integers(-14 * 60, 14 * 60).map(lambda m: timezone(timedelta(minutes=m)))


@given(when=st.datetimes(timezones=zones | st.none()), as_text=st.booleans())
def test_a_time_is_accepted_exactly_inside_the_range_the_error_names(when, as_text):
    try:
        utc = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    except OverflowError:  # past Python's own range once in UTC
        utc = None
    value = when.isoformat() if as_text else when
    inside = utc is not None and LOW <= utc <= HIGH
    if inside:
        assert parse_time(value, "now") == utc
        return
    with pytest.raises(ValidationError) as e:
        parse_time(value, "now")
    assert e.value.field == "now" and RANGE in str(e.value), str(e.value)


@pytest.mark.parametrize("value", ["9999-12-31T00:00:00Z", "0001-01-01T00:00:00Z",
                                   "9999-12-30T23:00:00-14:00", math.nan, math.inf, 1e20, -1e20,
                                   10 ** 30])
def test_the_edges_and_numbers_past_them_name_the_range(value):
    with pytest.raises(ValidationError) as e:
        parse_time(value, "at")
    assert str(e.value).startswith("at: ") and RANGE in str(e.value), str(e.value)


def test_the_cli_names_the_range(cli_run):
    cli_run("add", "--scope", "s", "hello")
    out = cli_run("facts", "list", "--now", "9999-12-31", code=2).output
    assert RANGE in out and "years 1 to 9999" not in out


def test_epoch_milliseconds_are_refused_with_a_hint_naming_the_seconds() -> None:
    """Session 23: ``"at": 1709543700000`` (JavaScript's ``Date.now()``; the live stream
    writes times in milliseconds) was refused as out of range, with no word of why."""
    import pytest

    from memlane.errors import ValidationError
    from memlane.ingest.validate import parse_time

    for value in (1709543700000, 1709543700000.0):
        with pytest.raises(ValidationError) as e:
            parse_time(value)
        assert "epoch milliseconds? memlane reads epoch seconds: 1709543700.000 is " \
               "2024-03-04T09:15:00Z" in str(e.value)
    for value in (-1e20, 1e30):
        with pytest.raises(ValidationError) as e:
            parse_time(value)
        assert "milliseconds" not in str(e.value)
    assert parse_time(1709543700).isoformat() == "2024-03-04T09:15:00+00:00"
