"""The date an observation's event happened, read from the words relative to when it was said.

"I went to Miami last weekend", said on Tuesday 16 May 2023, happened on the weekend of
13-14 May: ``event_date`` returns the start of the narrowest window of time the sentence
names (for "N days / weeks ago", a day with a fuzzy edge for search, the day itself) (``memlane.retrieve.timeparse`` reads "yesterday", "last weekend", "two weeks ago",
"last Monday", "on May 3rd"...) against the time it was said, with the phrase. Windows
longer than a month ("this year") or after the moment it was said are not an event date.
The pipeline stores the observation at that date, so a temporal question ("where did I go
in mid-May?") reaches it as a time (stage one matches its session to the question's
windows), and keys it by the words of the day it was said, as its turn: an inferred date
is a guess ("a few weeks ago"), and its month in the keys matched every question naming
that month, whatever the observation was about. When a weekday and a calendar date name
the same day ("on Monday, February 27th"), the calendar date wins.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from memlane.retrieve.timeparse import time_windows

__all__ = ["MAX_SPAN", "event_date"]

_AGO = re.compile(r"\bago$", re.IGNORECASE)
"""A phrase naming a point back in time ("two days ago", "a few weeks ago")."""

_CALENDAR = re.compile(r"\d")
"""A phrase naming a calendar date has a number (``May 3rd``, ``3 May``, ``2023-05-03``)."""

MAX_SPAN = timedelta(days=31)
"""A window wider than this is too vague to date an event."""


def event_date(text: str, said_at: datetime) -> tuple[datetime, str] | None:
    """``(event start, phrase)`` for the narrowest dated window in ``text``, or None.

    The result has ``said_at``'s time zone.
    """
    if not text:
        return None
    said = said_at.replace(tzinfo=None) if said_at.tzinfo is None else said_at
    naive_said = said.replace(tzinfo=None)
    windows = [w for w in time_windows(text, said)
               if w.end - w.start <= MAX_SPAN and w.start <= naive_said]
    if not windows:
        return None
    # the narrowest; on a tie a calendar date ("February 27th") beats a weekday ("on
    # Monday") or a relative day: "on Monday, February 27th" names one day, the 27th
    best = min(windows, key=lambda w: (w.end - w.start, not _CALENDAR.search(w.phrase)))
    start = best.start
    if _AGO.search(best.phrase):
        # "two days ago" is a day with a fuzzy edge for search, [day - slack, day + slack + 1
        # day): its event is the day itself, not the window's start (which dated "two days
        # ago" three days back and "a day ago" before "yesterday"; session 21)
        start += (best.end - best.start - timedelta(days=1)) / 2
    return start.replace(tzinfo=said_at.tzinfo), best.phrase
