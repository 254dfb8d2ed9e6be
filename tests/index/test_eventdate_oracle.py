"""``event_date`` against a plain-python oracle, for every form the docs claim
(``memlane.retrieve.timeparse`` and ``memlane.index.eventdate``): the day each phrase names,
read on the local calendar of the moment it was said, whatever that moment's time zone,
across month, year and leap-day edges (session 21)."""

from __future__ import annotations

import calendar
from datetime import date, datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.eventdate import event_date

_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
          8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}
_DAYS = list(calendar.day_name)
_MONTHS = list(calendar.month_name)[1:]


def _latest(month: int, day: int, said: date) -> date | None:
    """The latest (month, day) on or before ``said`` (a 29 February: the last leap year's)."""
    for year in range(said.year, said.year - 9, -1):
        try:
            d = date(year, month, day)
        except ValueError:
            continue
        if d <= said:
            return d
    return None


def _oracle(form: str, n: int, said: date) -> tuple[str, date | None]:
    """(the sentence's phrase, the day it names)."""
    if form == "yesterday":
        return "yesterday", said - timedelta(days=1)
    if form == "today":
        return "today", said
    if form == "day before yesterday":
        return "the day before yesterday", said - timedelta(days=2)
    if form == "days ago":
        return f"{n} days ago", said - timedelta(days=n)
    if form == "days ago words":
        return f"{_WORDS[min(n, 12)]} days ago", said - timedelta(days=min(n, 12))
    if form == "a day ago":
        return "a day ago", said - timedelta(days=1)
    if form == "weeks ago":
        k = n % 4 + 1
        return f"{_WORDS[k]} weeks ago", said - timedelta(days=7 * k)
    if form == "last weekday":
        target = n % 7
        back = (said.weekday() - target) % 7 or 7
        return f"last {_DAYS[target]}", said - timedelta(days=back)
    if form == "on weekday":
        target = n % 7
        return f"on {_DAYS[target]}", said - timedelta(days=(said.weekday() - target) % 7)
    if form == "last weekend":
        # the weekend before the one ``said`` falls in (or the last one, on a weekday)
        monday = said - timedelta(days=said.weekday())
        return "last weekend", monday - timedelta(days=2)
    if form == "last week":
        return "last week", said - timedelta(days=said.weekday() + 7)
    if form == "this week":
        return "this week", said - timedelta(days=said.weekday())
    if form == "past week":
        return "the past week", said - timedelta(days=7)
    if form == "last month":
        first = said.replace(day=1) - timedelta(days=1)
        return "last month", first.replace(day=1)
    if form == "this month":
        return "this month", said.replace(day=1)
    if form in ("month day", "day month", "month day year", "iso"):
        month, day = n % 12 + 1, n % 31 + 1
        if form == "month day year":
            year = said.year - n % 3
            try:
                d: date | None = date(year, month, day)
            except ValueError:
                d = None
            phrase = f"{_MONTHS[month - 1]} {day}, {year}"
            return phrase, d if d is not None and d <= said else None
        if form == "iso":
            year = said.year - n % 2
            try:
                d = date(year, month, day)
            except ValueError:
                d = None
            return f"{year}-{month:02d}-{day:02d}", d if d is not None and d <= said else None
        phrase = f"{_MONTHS[month - 1]} {day}" if form == "month day" else f"{day} {_MONTHS[month - 1]}"
        return phrase, _latest(month, day, said)
    if form == "leap day":
        return "February 29", _latest(2, 29, said)
    raise AssertionError(form)


_FORMS = ["yesterday", "today", "day before yesterday", "days ago", "days ago words",
          "a day ago", "weeks ago", "last weekday", "on weekday", "last weekend", "last week",
          "this week", "past week", "last month", "this month", "month day", "day month",
          "month day year", "iso", "leap day"]

_SAID = st.builds(
    lambda d, minutes, offset: datetime(d.year, d.month, d.day, tzinfo=timezone(timedelta(minutes=offset)))
    + timedelta(minutes=minutes),
    st.dates(date(1996, 1, 1), date(2099, 12, 31)),
    st.integers(0, 24 * 60 - 1),
    st.sampled_from([0, 60, -300, 330, 545, -600, 840, -720]),
)


@settings(max_examples=1500, deadline=None)
@given(form=st.sampled_from(_FORMS), n=st.integers(1, 30), said=_SAID)
def test_each_claimed_form_names_the_day_a_calendar_says(form: str, n: int, said: datetime) -> None:
    phrase, day = _oracle(form, n, said.date())
    got = event_date(f"I went to the lake {phrase} with my sister.", said)
    if day is None:
        assert got is None, (phrase, said, got)
        return
    assert got is not None, (phrase, said)
    assert got[0].tzinfo == said.tzinfo
    assert got[0].date() == day, (phrase, said.isoformat(), got[0].isoformat())
    assert got[0] <= said


@given(said=_SAID)
def test_a_time_after_the_moment_said_is_never_an_event_date(said: datetime) -> None:
    for phrase in ("tomorrow", "next week", "next Friday", "in two days", "this weekend"):
        got = event_date(f"I'm going to the lake {phrase}.", said)
        assert got is None or got[0] <= said, (phrase, said, got)
