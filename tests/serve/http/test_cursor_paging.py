"""Paging by cursor (session 28). ``GET /v1/sessions`` and ``GET /v1/facts`` paged by
``offset`` only: a session or fact added before the page a client had reached moved every
later row one place on, so the client saw the row at the page's edge twice; one removed
moved them back, so it never saw one. ``next_cursor`` names the last row's sort key and
id, and ``cursor`` reads on after it, whatever was added or removed before it.

The class test pages through each listing over a real service, on SQLite and on
PostgreSQL, while sessions or facts are added and removed between pages, and asserts that
every row present throughout is seen exactly once (and no row twice)."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane import Client
from memlane.cursor import cursor_after
from memlane.ingest.validate import parse_time

_scopes = itertools.count()
TIMES = [f"2024-01-0{d}T00:00:00Z" for d in range(1, 5)]  # few: many ties, broken by id

# an op between two pages: add a row at one of TIMES, or remove the n-th row still stored
# subjects whose byte order is not a locale's ("B" before "a", "é" last): the cursor's
# comparison must sort text as the listing does, on PostgreSQL too
SUBJECTS = st.sampled_from(["a", "B", "é", "b"])
_op = st.one_of(st.tuples(st.just("add"), st.sampled_from(TIMES), SUBJECTS),
                st.tuples(st.just("remove"), st.integers(0, 40), st.just("")))
_history = st.fixed_dictionaries({
    "first": st.lists(st.tuples(st.sampled_from(TIMES), SUBJECTS),
                      min_size=1, max_size=14),
    "limit": st.integers(1, 4),
    "between": st.lists(st.lists(_op, max_size=3), max_size=12),
})
_settings = settings(max_examples=20, deadline=None, database=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture,
                                            HealthCheck.too_slow])


class _Sessions:
    path, rows_key = "/v1/sessions", "sessions"

    def __init__(self, mem: Any, scope: str) -> None:
        self.mem, self.scope = mem, scope

    def add(self, at: str, subject: str) -> int:
        # the store's own session start (a message older than a closed session of the
        # scope joins it, so sessions at any time are made as the importer makes them)
        sid = self.mem.store.create_session(self.scope, parse_time(at).timestamp(), None, None)
        self.mem.close_session(session_id=sid)
        return int(sid)

    def remove(self, row_id: int) -> None:
        self.mem.forget_session(row_id)


class _Facts(_Sessions):
    path, rows_key = "/v1/facts", "facts"
    _predicates = itertools.count()

    def add(self, at: str, subject: str) -> int:
        # a predicate of its own: nothing is superseded, a row leaves only when removed
        return self.mem.add_fact(subject, f"p{next(self._predicates)}", "x", scope=self.scope,
                                 at=at).fact_id

    def remove(self, row_id: int) -> None:
        self.mem.forget_fact(row_id)


def _page_through(service: Any, listing: _Sessions, history: dict[str, Any]) -> None:
    stored = [listing.add(at, subject) for at, subject in history["first"]]
    throughout = set(stored)
    seen: list[int] = []
    cursor: str | None = None
    between = iter(history["between"])
    with service.client(service.key()) as http:
        for _ in range(200):  # bounded: every page but the last has a row or more
            params: dict[str, Any] = {"scope": listing.scope, "limit": history["limit"]}
            if cursor is not None:
                params["cursor"] = cursor
            r = http.get(listing.path, params=params)
            assert r.status_code == 200, r.text
            body = r.json()
            seen += [row["id"] for row in body[listing.rows_key]]
            cursor = body["next_cursor"]
            if cursor is None:
                break
            for kind, value, subject in next(between, []):
                if kind == "add":
                    stored.append(listing.add(value, subject))
                elif stored:
                    gone = stored.pop(value % len(stored))
                    listing.remove(gone)
                    throughout.discard(gone)
        else:
            raise AssertionError("the listing never ended")
    assert len(seen) == len(set(seen)), f"a row was seen twice: {seen}"
    assert throughout <= set(seen), f"rows present throughout were skipped: {throughout - set(seen)}"


@_settings
@given(history=_history)
def test_paging_sessions_by_cursor_sees_each_lasting_session_once(service, history) -> None:
    _page_through(service, _Sessions(service.mem, f"s{next(_scopes)}"), history)


@_settings
@given(history=_history)
def test_paging_facts_by_cursor_sees_each_lasting_fact_once(service, history) -> None:
    _page_through(service, _Facts(service.mem, f"f{next(_scopes)}"), history)


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cursor=st.one_of(st.text(max_size=80), st.binary(max_size=60).map(
    lambda b: __import__("base64").urlsafe_b64encode(b).decode() + ".0123456789abcdef")))
def test_a_cursor_memlane_did_not_give_is_a_400_naming_cursor(sqlite_service, cursor) -> None:
    """Made-up, cut or changed cursors, and a listing's cursor given to the other one, are
    refused naming ``cursor`` (never a 500, never read as some other position)."""
    with sqlite_service.client(sqlite_service.key()) as http:
        for path in ("/v1/sessions", "/v1/facts"):
            r = http.get(path, params={"cursor": cursor})
            assert r.status_code in (400, 422), r.text
            assert r.json()["error"]["field"] == "cursor", r.text


def test_cursor_and_offset_together_are_refused_and_stale_cursors_read_on(sqlite_service) -> None:
    mem = sqlite_service.mem
    ids = [mem.add_fact("user", f"p{i}", "x", scope="t", at=TIMES[0]).fact_id for i in range(5)]
    mem.add_message("t", "user", "hi", at=TIMES[0])
    session = mem.close_session("t")
    with sqlite_service.client(sqlite_service.key()) as http:
        first = http.get("/v1/facts", params={"scope": "t", "limit": 2}).json()
        assert [f["id"] for f in first["facts"]] == ids[:2] and first["next_offset"] == 2
        both = http.get("/v1/facts", params={"scope": "t", "offset": 2,
                                             "cursor": first["next_cursor"]})
        assert both.status_code == 400 and both.json()["error"]["field"] == "cursor"
        # the cursor's row removed since: the page after it still starts after it
        mem.forget_fact(ids[1])
        after = http.get("/v1/facts", params={"scope": "t", "cursor": first["next_cursor"]})
        assert [f["id"] for f in after.json()["facts"]] == ids[2:]
        assert after.json()["next_offset"] is None and after.json()["next_cursor"] is None
        # a sessions cursor is not a facts cursor
        other = http.get("/v1/facts", params={"cursor": cursor_after(session)})
        assert other.status_code == 400 and "sessions" in other.json()["error"]["message"]
    with Client(sqlite_service.url, key=sqlite_service.key()) as client:
        page = client.facts("t", limit=2)
        assert [f.id for f in client.facts("t", cursor=cursor_after(page[-1]))] == ids[3:]


@_settings
@given(history=_history)
def test_a_page_back_is_the_rows_just_before_its_cursor_on_both_stores(service, history) -> None:
    """Session 28, fourth round: the inspector's pages back (``before``, a cursor read the
    other way: the store reads back from the row, in reverse, and turns them round). From
    every row of a listing with tied times and subjects whose byte order is not a locale's,
    the page back is the ``limit`` rows just before it in the listing's order; it links
    back again only when a row is before those, and on to the row. Before the first row
    is the first page."""
    from memlane.serve.paging import fact_page, session_page

    limit, mem = history["limit"], service.mem
    for listing, read, listed in (
            (_Sessions(mem, f"b{next(_scopes)}"),
             lambda scope, before: session_page(mem, scope, None, limit=limit, stored=True,
                                                before=before),
             lambda scope: mem.store.list_sessions(scope=scope, limit=100)),
            (_Facts(mem, f"g{next(_scopes)}"),
             lambda scope, before: fact_page(mem, scope, None, limit=limit, before=before),
             lambda scope: mem.store.list_facts(scope, limit=100))):
        for at, subject in history["first"]:
            listing.add(at, subject)
        rows = listed(listing.scope)
        ids = [r.id for r in rows]
        for i, row in enumerate(rows):
            page = read(listing.scope, cursor_after(row))
            got = [r.id for r in page.rows]
            if i == 0:  # nothing before the first row: the first page
                assert got == ids[:limit] and page.prev_cursor is None
                continue
            assert got == ids[max(0, i - limit):i], (i, got, ids)
            assert (page.prev_cursor is None) == (i <= limit)
            assert page.next_cursor == cursor_after(rows[i - 1])
