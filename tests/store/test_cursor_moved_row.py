"""A session cursor whose own session moved between two pages (session 28 review).

The sessions listing is ordered by start time, newest first, and a cursor names the last
row's start and id. ``list_sessions`` read on from the row's start *as stored now*, which
is not where the page ended when the session has moved since: a late message that joins it
stretches its start back (the sessions started between its old and new start, of another
scope, were never listed), and an erase of its first turn narrows its start (those were
listed twice). The page now reads on from the cursor's own position; the stored start is
used only while it is the one the cursor was made from (a float read back from a datetime
may be a microsecond off the stored one). The session that moved is listed again at its
new place when that place is after the cursor: it did move."""

from __future__ import annotations

from typing import Any

from memlane.cursor import cursor_after, read_cursor

GAP = 1800.0


def _add(store: Any, scope: str, at: float, text: str = "hello") -> tuple[int, int]:
    got = store.add_message(scope, "user", text, at, gap=GAP, speaker=None, ext_id=None,
                            agent=None, project=None, redactions=0)
    assert got is not None
    return got[0], got[1]


def _next_page(store: Any, last: Any) -> list[int]:
    after = read_cursor(cursor_after(last), "sessions")
    return [s.id for s in store.list_sessions(limit=10, after=after)]


def test_a_late_message_stretching_the_cursors_session_back_skips_nothing(store: Any) -> None:
    _, moved = _add(store, "a", 10_000.0)
    store.close_session(moved, "idle")  # closed, not by a label: late messages join it
    _, between = _add(store, "b", 9_500.0)  # another scope, started before it
    store.close_session(between, "idle")
    first = store.list_sessions(limit=1)
    assert [s.id for s in first] == [moved]
    # a late message within the gap before its start joins it: it now starts at 9000
    assert _add(store, "a", 9_000.0)[1] == moved
    assert store.get_session(moved).started_at.timestamp() == 9_000.0
    page = _next_page(store, first[-1])
    assert between in page  # was skipped: the page read on from 9000
    assert page.count(between) == 1


def test_an_erase_narrowing_the_cursors_session_repeats_nothing(store: Any) -> None:
    first_turn, moved = _add(store, "a", 10_000.0)
    _add(store, "a", 10_500.0, "later")
    store.close_session(moved, "idle")
    _, before = _add(store, "b", 10_200.0)  # listed before the cursor's session
    store.close_session(before, "idle")
    first = store.list_sessions(limit=2)
    assert [s.id for s in first] == [before, moved]
    store.erase_messages([first_turn])  # its start is now 10500
    assert store.get_session(moved).started_at.timestamp() == 10_500.0
    assert _next_page(store, first[-1]) == []  # was [before]: listed twice


def test_an_unmoved_cursor_row_reads_on_exactly(store: Any) -> None:
    # a start no float-from-datetime keeps exactly: the stored one is used for the row
    ids = [_add(store, s, 1_700_000_000.123_456_7)[1] for s in ("a", "b", "c")]
    pages: list[int] = []
    last = None
    for _ in range(5):  # bounded
        got = store.list_sessions(limit=1, after=None if last is None else
                                  read_cursor(cursor_after(last), "sessions"))
        if not got:
            break
        pages += [s.id for s in got]
        last = got[-1]
    assert pages == sorted(ids, reverse=True)
