"""Index expansion: extra lexical keys for an item, never replacing its text.

The items table has a ``keys`` column that the full-text index searches beside ``text``
with a lower weight. These pure functions write it: the date as words (so "May",
"Saturday" or "2023" find what was said then), the spelled-out forms of common chat
abbreviations ("Dr." also as "doctor"), and for session summaries the user's own
statements about themselves (observations), so that a summary is found by what the user
said in its session. (Until session 2 a summary's keys held every user turn: that doubled
the full-text index and did not measurably help; see docs/session-intelligence.md.)
The keys point at the same memory: a hit on them returns the item itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from memlane.retrieve.text import STOPWORDS

__all__ = ["ABBREVIATIONS", "REPLY_WORDS", "context_words", "date_words", "item_keys", "summary_keys"]

ABBREVIATIONS = {
    "dr": "doctor", "appt": "appointment", "bday": "birthday", "b-day": "birthday",
    "mins": "minutes", "min": "minutes", "hrs": "hours", "hr": "hour", "wk": "week",
    "wks": "weeks", "mo": "month", "mos": "months", "yr": "year", "yrs": "years",
    "approx": "approximately", "info": "information", "pic": "picture", "pics": "pictures",
    "vet": "veterinarian", "gf": "girlfriend", "bf": "boyfriend", "bro": "brother",
    "sis": "sister", "mom": "mother", "dad": "father", "grandma": "grandmother",
    "grandpa": "grandfather", "uni": "university", "govt": "government", "dept": "department",
    "mgr": "manager", "km": "kilometers", "kg": "kilograms", "lbs": "pounds", "lb": "pound",
}
"""Chat abbreviations and their spelled-out words (keys only; the text is unchanged)."""

_TOKEN = re.compile(r"[A-Za-z][A-Za-z-]*")
MAX_SUMMARY_KEY_CHARS = 20_000
"""The statements copied into a summary's keys are cut here."""


def date_words(at: datetime) -> str:
    """``"Saturday 20 May 2023"``: weekday, day, month and year as words for the index."""
    return f"{at.strftime('%A')} {at.day} {at.strftime('%B')} {at.year}"


def _abbreviations(text: str) -> list[str]:
    """The spelled-out words of the abbreviations in ``text``, in ``ABBREVIATIONS`` order."""
    tokens = set(_TOKEN.findall(text.lower()))
    return list(dict.fromkeys(full for short, full in ABBREVIATIONS.items() if short in tokens))


def item_keys(text: str, at: datetime | None = None, extra: Iterable[str] = ()) -> str:
    """The keys of a turn, fact or other item: date words, spelled-out abbreviations, extras."""
    parts = [date_words(at)] if at is not None else []
    parts.extend(_abbreviations(text))
    parts.extend(e for e in extra if e)
    return " ".join(parts)


CONTEXT_WORDS = 30
"""How many content words of the previous message a turn carries in its keys."""
REPLY_WORDS = 30
"""How many content words of the other speaker's reply a turn between two people carries in
its keys (``indexer.turn_keys``; 0: none)."""
CONTEXT_MAX_TURN_WORDS = 50
"""Only turns up to this many words get context: a longer one says what it is about."""


def context_words(text: str, turn: str = "", limit: int = CONTEXT_WORDS) -> str:
    """The first ``limit`` distinct content words of ``text``, the previous message, as the
    context of a short ``turn`` ("They loved the dinosaurs" answers "how did the kids like
    the museum?"); empty for a turn longer than ``CONTEXT_MAX_TURN_WORDS``."""
    if len(turn.split()) > CONTEXT_MAX_TURN_WORDS:
        return ""
    out: dict[str, None] = {}
    for w in _TOKEN.findall(text.lower()):
        if len(w) > 2 and w not in STOPWORDS:
            out[w] = None
            if len(out) == limit:
                break
    return " ".join(out)


def summary_keys(topics: Iterable[str], statements: Iterable[str], at: datetime | None = None) -> str:
    """A session summary's keys: topics, date words and the user's statements."""
    parts = [" ".join(t for t in topics if t)]
    if at is not None:
        parts.append(date_words(at))
    body = "\n".join(t for t in statements if t)
    parts.append(body[:MAX_SUMMARY_KEY_CHARS])
    return "\n".join(p for p in parts if p)
