"""Relative dates in a query, read against the time the question is asked.

``time_windows("what did I do two months ago?", now)`` returns the windows of time the
query points at, each with the phrase that produced it. Ranking rewards items inside a
window (and, less, near it); nothing is filtered. Supported: ``yesterday``, ``today``,
``N days/weeks/months/years ago`` (digits or words, ``a couple of``, ``a few``),
``last/this/past week|month|year|weekend``, ``past N days/weeks/months``, ``last Monday``,
``on Monday``, ``in March`` (the latest March not after now), ``from July to October``,
``between November and February``, ``in 2022``,
``on May 3rd`` / ``3 May`` / ``March 3, 2023`` and ISO dates. Pure functions, no I/O.

``day_part_words`` reads a part of the day the query names ("in the evening") as the words
that name the same hours: the parts it overlaps ("night") and the clock's "pm", so that
"I like to relax after 8:30 pm" answers "what could I do in the evening".
"""

from __future__ import annotations

import calendar
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["DAY_PARTS", "TimeWindow", "asks_when", "day_part_words", "says_when", "time_windows"]


@dataclass(frozen=True, slots=True)
class TimeWindow:
    """``[start, end)`` in the query's time zone, and the phrase that named it."""

    start: datetime
    end: datetime
    phrase: str

    def contains(self, at: datetime) -> bool:
        return self.start <= at < self.end

    def distance_days(self, at: datetime) -> float:
        """0 inside the window, else days to its nearest edge."""
        if at < self.start:
            return (self.start - at).total_seconds() / 86400
        if at >= self.end:
            return (at - self.end).total_seconds() / 86400
        return 0.0


_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
        "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
        "a couple of": 2, "a couple": 2, "couple of": 2, "a few": 3, "few": 3, "several": 4}
_NUM_RE = r"(\d{1,3}|a couple of|a couple|couple of|a few|few|several|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_UNIT = {"day": 1, "week": 7, "month": 30.44, "year": 365.25}
_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_MONTH_RE = (r"(january|february|march|april|may|june|july|august|september|october|november|"
             r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")
_DAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_DAY_RE = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"

_AGO = re.compile(rf"\b{_NUM_RE}\s+(day|week|month|year)s?\s+ago\b", re.IGNORECASE)
_PAST_N = re.compile(rf"\b(?:past|last|previous)\s+{_NUM_RE}\s+(day|week|month|year)s?\b", re.IGNORECASE)
_LAST_UNIT = re.compile(r"\b(last|past|previous|this)\s+(week(?:end)?|month|year)\b", re.IGNORECASE)
_LAST_DAY = re.compile(rf"\b(last|this|on|on the)\s+{_DAY_RE}\b", re.IGNORECASE)
_YESTERDAY = re.compile(r"\b(yesterday|today|tonight|this morning|day before yesterday)\b", re.IGNORECASE)
_MONTH_DAY = re.compile(rf"\b{_MONTH_RE}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?\b", re.IGNORECASE)
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_RE}\b(?:,?\s+(\d{{4}}))?", re.IGNORECASE)
_IN_MONTH = re.compile(rf"\b(?:in|during|of|since|early|late|mid)\s+(?:early\s+|late\s+|mid-?)?{_MONTH_RE}\b(?:\s+(\d{{4}}))?", re.IGNORECASE)
_MONTH_RANGE = re.compile(
    rf"\b(?:from|between)\s+{_MONTH_RE}\b(?:\s+(\d{{4}}))?\s+(?:to|and|until|till|through)\s+"
    rf"{_MONTH_RE}\b(?:\s+(\d{{4}}))?", re.IGNORECASE)
_IN_YEAR = re.compile(r"\b(?:in|during|of)\s+((?:19|20)\d\d)\b", re.IGNORECASE)
_ISO = re.compile(r"\b((?:19|20)\d\d)[-/](\d{1,2})[-/](\d{1,2})\b")


_AS_OF = re.compile(
    rf"\bas\s+of\s+(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?)?{_MONTH_RE}\.?"
    rf"(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?(?:,?\s+\d{{4}})?|\bas\s+of\s+(?:19|20)\d\d\b", re.IGNORECASE)


def _day(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


def _n(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else _NUM.get(word, 1)


def _month_window(year: int, month: int, phrase: str) -> TimeWindow:
    start = datetime(year, month, 1, tzinfo=None)
    end = datetime(year + (month == 12), month % 12 + 1, 1)
    return TimeWindow(start, end, phrase)


def _latest(year: int | None, month: int, day: int, now: datetime) -> datetime | None:
    """The date (month, day) in ``year``, or the latest one not after now (a 29 February:
    the last leap year's; it was None outside a leap year)."""
    if year is not None:
        try:
            return datetime(year, month, day)
        except ValueError:
            return None
    for y in range(now.year, now.year - 9, -1):  # 2100 is no leap year: 8 years back
        try:
            d = datetime(y, month, day)
        except ValueError:
            continue
        if d <= now.replace(tzinfo=None):
            return d
    return None


def _ago(m: re.Match[str], today: datetime) -> TimeWindow:
    n, unit = _n(m.group(1)), m.group(2).lower()
    days = n * _UNIT[unit]
    # "two months ago" is a point with a fuzzy edge: half a unit either side.
    slack = max(1.0, _UNIT[unit] / 2) if unit != "day" else max(1.0, n * 0.15)
    center = today - timedelta(days=days)
    return TimeWindow(center - timedelta(days=slack), center + timedelta(days=slack + 1), m.group(0))


def _last_unit(m: re.Match[str], today: datetime) -> TimeWindow:
    which, unit = m.group(1).lower(), m.group(2).lower()
    if unit == "weekend":
        # the weekend of this week (Monday to Sunday), or the one before it: said on a
        # Sunday, "last weekend" was the weekend before (it named the day before), and
        # "this weekend" is the one ending today (it named the next Saturday)
        sat = today - timedelta(days=today.weekday()) + timedelta(days=5)
        if which != "this":
            sat -= timedelta(days=7)
        return TimeWindow(sat, sat + timedelta(days=2), m.group(0))
    if unit == "week":
        if which == "this":
            start = today - timedelta(days=today.weekday())
            return TimeWindow(start, today + timedelta(days=1), m.group(0))
        if which == "past":
            return TimeWindow(today - timedelta(days=7), today + timedelta(days=1), m.group(0))
        start = today - timedelta(days=today.weekday() + 7)
        return TimeWindow(start, start + timedelta(days=7), m.group(0))
    if unit == "month":
        if which == "this":
            return TimeWindow(today.replace(day=1), today + timedelta(days=1), m.group(0))
        if which == "past":
            return TimeWindow(today - timedelta(days=31), today + timedelta(days=1), m.group(0))
        y, mo = (today.year, today.month - 1) if today.month > 1 else (today.year - 1, 12)
        return _month_window(y, mo, m.group(0))
    if which == "this":
        return TimeWindow(datetime(today.year, 1, 1), today + timedelta(days=1), m.group(0))
    if which == "past":
        return TimeWindow(today - timedelta(days=366), today + timedelta(days=1), m.group(0))
    return TimeWindow(datetime(today.year - 1, 1, 1), datetime(today.year, 1, 1), m.group(0))


def _weekday(m: re.Match[str], today: datetime) -> TimeWindow:
    target = _DAYS[m.group(2).lower()]
    back = (today.weekday() - target) % 7
    if m.group(1).lower() == "last" and back == 0:
        back = 7
    day = today - timedelta(days=back)
    return TimeWindow(day, day + timedelta(days=1), m.group(0))


def time_windows(query: str, now: datetime) -> list[TimeWindow]:
    """Every window of time the query names, relative to ``now``; naive datetimes in now's zone.

    Returned windows carry naive datetimes in ``now``'s zone; compare item times after
    converting them the same way (``at.astimezone(now.tzinfo).replace(tzinfo=None)``).
    """
    today = _day(now).replace(tzinfo=None)
    naive_now = now.replace(tzinfo=None)
    # "as of December 2023" is the point the question is asked from, not when the event was
    query = _AS_OF.sub(lambda m: " " * len(m.group(0)), query)
    out: list[TimeWindow] = []
    for m in _YESTERDAY.finditer(query):
        w = m.group(1).lower()
        back = 2 if w == "day before yesterday" else 1 if w == "yesterday" else 0
        day = today - timedelta(days=back)
        out.append(TimeWindow(day, day + timedelta(days=1), m.group(0)))
    out.extend(_ago(m, today) for m in _AGO.finditer(query))
    for m in _PAST_N.finditer(query):
        days = _n(m.group(1)) * _UNIT[m.group(2).lower()]
        out.append(TimeWindow(today - timedelta(days=days), today + timedelta(days=1), m.group(0)))
    out.extend(_last_unit(m, today) for m in _LAST_UNIT.finditer(query))
    for m in _LAST_DAY.finditer(query):
        # "on the Friday three weeks ago": the other phrase already places it.
        if not (m.group(1).lower().startswith("on") and out):
            out.append(_weekday(m, today))
    dated: list[tuple[int, int]] = []
    for m in _MONTH_DAY.finditer(query):
        d = _latest(int(m.group(3)) if m.group(3) else None, _MONTHS[m.group(1).lower()],
                    int(m.group(2)), naive_now)
        if d is not None:
            dated.append(m.span())
            out.append(TimeWindow(d, d + timedelta(days=1), m.group(0)))
    for m in _DAY_MONTH.finditer(query):
        d = _latest(int(m.group(3)) if m.group(3) else None, _MONTHS[m.group(2).lower()],
                    int(m.group(1)), naive_now)
        if d is not None:
            dated.append(m.span())
            out.append(TimeWindow(d, d + timedelta(days=1), m.group(0)))
    for m in _MONTH_RANGE.finditer(query):
        first, last = _MONTHS[m.group(1).lower()], _MONTHS[m.group(3).lower()]
        y2 = int(m.group(4)) if m.group(4) else (
            today.year if last <= today.month else today.year - 1)
        y1 = int(m.group(2)) if m.group(2) else (y2 if first <= last else y2 - 1)
        start, end = _month_window(y1, first, ""), _month_window(y2, last, "")
        if start.start < end.end:
            dated.append(m.span())
            out.append(TimeWindow(start.start, end.end, m.group(0)))
    for m in _IN_MONTH.finditer(query):
        if any(a <= m.start(1) < b for a, b in dated):
            continue
        if m.group(1).lower() == "may" and not m.group(0).lower().startswith(("in", "during")):
            continue  # "of may" is too often the verb
        month = _MONTHS[m.group(1).lower()]
        year = int(m.group(2)) if m.group(2) else (today.year if month <= today.month else today.year - 1)
        out.append(_month_window(year, month, m.group(0)))
    for m in _IN_YEAR.finditer(query):
        out.append(TimeWindow(datetime(int(m.group(1)), 1, 1), datetime(int(m.group(1)) + 1, 1, 1), m.group(0)))
    for m in _ISO.finditer(query):
        try:
            d = datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            continue
        out.append(TimeWindow(d, d + timedelta(days=1), m.group(0)))
    return out


DAY_PARTS: tuple[tuple[str, int, int], ...] = (
    ("morning", 5, 12), ("afternoon", 12, 17), ("evening", 17, 23), ("night", 20, 29))
"""Each part of the day and its hours ``[start, end)``; hours past 24 are the small hours
(29 is 5 am). Speech draws the edges loosely, so evening and night overlap."""

_PART_OF = {**{name: name for name, _, _ in DAY_PARTS},
            **{name + "s": name for name, _, _ in DAY_PARTS}}


def _hours(name: str) -> set[int]:
    return {h % 24 for _, start, end in (p for p in DAY_PARTS if p[0] == name)
            for h in range(start, end)}


def day_part_words(terms: Sequence[str]) -> list[str]:
    """The words that name the hours of the parts of the day in ``terms`` ("evening",
    "mornings"; "tonight" is evening and night): each other part whose hours overlap
    ("night" for "evening") and "pm" for hours after noon (a clock time's suffix: "by 9:30
    pm"; "am" is a stopword, and too often the verb). Words already in ``terms`` are left
    out; each word once, in order."""
    have = {t.lower() for t in terms}
    named: list[str] = []
    for t in have:
        if t == "tonight":
            named += ["evening", "night"]
        elif t in _PART_OF:
            named.append(_PART_OF[t])
    out: dict[str, None] = {}
    for part in sorted(set(named), key=[p[0] for p in DAY_PARTS].index):
        hours = _hours(part)
        for other, _, _ in DAY_PARTS:
            if other != part and hours & _hours(other):
                out[other] = None
        if any(12 <= h < 24 for h in hours):
            out["pm"] = None
    return [w for w in out if w not in have]


_ASKS_WHEN = re.compile(
    r"^\W*when\b|\b(?:what|which)\s+(?:year|month|date|day|week|weekend)\b"
    r"|\bhow\s+long\s+ago\b", re.IGNORECASE)

_WHEN_WORDS = frozenset(
    _DAY_RE[1:-1].split("|") + _MONTH_RE[1:-1].split("|")
    + "yesterday today tonight tomorrow weekend weekends ago last next recently lately just "
      "earlier soon since".split())
"""Words that place what a text tells in time (``says_when``), alone."""
_WORD = re.compile(r"[a-z]+")
_WHEN_PHRASE = re.compile(
    r"\b(?:(?:19|20)\d\d|this\s+(?:morning|afternoon|evening|week|month|year|summer|winter"
    r"|spring|fall)|the\s+other\s+day|(?:days?|weeks?|months?|years?)\s+(?:now|old)"
    r"|for\s+(?:\w+\s+)?(?:days|weeks|months|years))\b")
"""...and the phrases that do (``says_when``), over lower-case text."""


def asks_when(query: str) -> bool:
    """Whether ``query`` asks for a time: "When did Ivan win his second cup?", "Which
    year did Lena adopt her cats?", "How long ago was ...?"."""
    return _ASKS_WHEN.search(query) is not None


@functools.lru_cache(maxsize=16384)
def says_when(text: str) -> bool:
    """Whether ``text`` places what it tells in time: a day, month or year, or a phrase
    relative to when it was said ("yesterday", "last week", "next month", "just",
    "recently", "for 3 years")."""
    # a set of the text's words, then one small pattern: a third of the time of one
    # pattern holding every word; and a cache, since a question asking when tests ~400
    # candidates, most of them met by the scope's earlier searches (5 us a text uncached)
    low = text.lower()
    return not _WHEN_WORDS.isdisjoint(_WORD.findall(low)) or _WHEN_PHRASE.search(low) is not None
