"""Relative dates in queries, read against a fixed 'now' (Saturday 22 April 2023, 08:00 UTC)."""

from __future__ import annotations

from datetime import UTC, datetime

from memlane.retrieve.timeparse import time_windows

NOW = datetime(2023, 4, 22, 8, 0, tzinfo=UTC)


def spans(query: str) -> list[tuple[str, str, str]]:
    return [(w.start.date().isoformat(), w.end.date().isoformat(), w.phrase)
            for w in time_windows(query, NOW)]


def test_yesterday_and_today() -> None:
    assert spans("what did I eat yesterday?") == [("2023-04-21", "2023-04-22", "yesterday")]
    assert spans("anything today") == [("2023-04-22", "2023-04-23", "today")]


def test_last_week_is_the_previous_calendar_week() -> None:
    assert spans("the movie I saw last week") == [("2023-04-10", "2023-04-17", "last week")]


def test_in_march_is_the_latest_march_not_after_now() -> None:
    assert spans("the trip in March") == [("2023-03-01", "2023-04-01", "in March")]
    # a month after now's month is last year's
    assert spans("what happened in June") == [("2022-06-01", "2022-07-01", "in June")]


def test_two_months_ago_is_a_fuzzy_point() -> None:
    # 2 × 30.44 days before 22 April is 20 February; half a month either side
    assert spans("two months ago I started a class") == [
        ("2023-02-04", "2023-03-08", "two months ago")]


def test_n_days_and_weeks_ago_in_words_and_digits() -> None:
    assert spans("3 days ago") == [("2023-04-18", "2023-04-21", "3 days ago")]
    # 14 days before 22 April is 8 April; half a week (3.5 days) either side, plus that day
    assert spans("a couple of weeks ago") == [("2023-04-04", "2023-04-12", "a couple of weeks ago")]


def test_on_may_3rd_and_iso_dates() -> None:
    assert spans("what did we decide on May 3rd?") == [("2022-05-03", "2022-05-04", "May 3rd")]
    assert spans("on 3 April") == [("2023-04-03", "2023-04-04", "3 April")]
    assert spans("since 2023-01-15") == [("2023-01-15", "2023-01-16", "2023-01-15")]


def test_weekdays_and_past_spans() -> None:
    assert spans("last Saturday") == [("2023-04-15", "2023-04-16", "last Saturday")]
    assert spans("in the past two months") == [("2023-02-20", "2023-04-23", "past two months")]
    assert spans("the Friday two months ago") == [("2023-02-04", "2023-03-08", "two months ago")]


def test_no_dates_no_windows() -> None:
    assert spans("what is my cat's name?") == []
    assert spans("may I ask something") == []


def test_a_range_of_months() -> None:
    # now is April 2023: July and October are last year's; a range may wrap the year
    assert spans("rollercoasters I rode from July to October") == [
        ("2022-07-01", "2022-11-01", "from July to October")]
    assert spans("between November and February") == [
        ("2022-11-01", "2023-03-01", "between November and February")]
    assert spans("from March 2022 to May 2022") == [
        ("2022-03-01", "2022-06-01", "from March 2022 to May 2022")]

