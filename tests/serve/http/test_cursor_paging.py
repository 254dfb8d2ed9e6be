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
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane import Client
from memlane.cursor import cursor_after
from memlane.errors import ValidationError
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


# Session 29: every surface pages back. ``before`` (a page's ``prev_cursor``) was the
# inspector's only; the HTTP API, MCP, CLI and Client paged forward alone.
NFC_CAFE, NFD_CAFE = (unicodedata.normalize(f, "café") for f in ("NFC", "NFD"))


def _ids(body: dict[str, Any], listing: _Sessions) -> list[int]:
    return [row["id"] for row in body[listing.rows_key]]


def _walk(http: Any, listing: _Sessions, params: dict[str, Any], first: dict[str, Any],
          key: str) -> list[dict[str, Any]]:
    """The pages from ``first`` on, following each answer's ``key`` (``next_cursor`` as
    ``cursor``, ``prev_cursor`` as ``before``) until it is null."""
    pages, start = [first], {"next_cursor": "cursor", "prev_cursor": "before"}[key]
    for _ in range(100):  # bounded: a listing of a few dozen rows
        if pages[-1][key] is None:
            return pages
        r = http.get(listing.path, params={**params, start: pages[-1][key]})
        assert r.status_code == 200, r.text
        pages.append(r.json())
    raise AssertionError(f"{key} never ended")


def test_paging_forward_to_the_end_then_back_joins_the_pages(service) -> None:
    """Forward by ``next_cursor`` to the last page, then back by ``prev_cursor`` passed as
    ``before`` (the scope typed decomposed, as a Mac types it): the same pages in reverse,
    each page back naming the one it came from as next, the first with no ``prev_cursor``.
    Then rows added at tied times and removed on the first pages: the walk back from the
    third page lists exactly the rows now before it, each once."""
    n = next(_scopes)
    scope = f"{NFC_CAFE}{n}"
    typed = f"{NFD_CAFE}{n}"
    mem = service.mem
    with service.client(service.key()) as http:
        for listing in (_Sessions(mem, scope), _Facts(mem, scope)):
            subjects = ["a", "B", "é", "b"]
            for i in range(11):
                listing.add(TIMES[i % 3], subjects[i % 4])
            params = {"scope": scope, "limit": 3}
            first = http.get(listing.path, params=params).json()
            assert first["prev_cursor"] is None
            forward = _walk(http, listing, params, first, "next_cursor")
            assert [len(_ids(p, listing)) for p in forward] == [3, 3, 3, 2]
            back = _walk(http, listing, {"scope": typed, "limit": 3}, forward[-1], "prev_cursor")
            assert [_ids(p, listing) for p in back] == [_ids(p, listing) for p in forward[::-1]]
            for went_back, was in zip(back[1:], forward[-2::-1], strict=True):
                assert went_back["next_cursor"] == was["next_cursor"]
                assert went_back["next_offset"] is None
            assert back[-1]["prev_cursor"] is None and all(p["prev_cursor"] for p in back[:-1])

            # rows added (tied times: their place among the pages is the id's) and removed
            # on pages 1 and 2 between the walk forward and the walk back from page 3
            added = [listing.add(TIMES[i % 3], subjects[i]) for i in range(3)]
            listing.remove(_ids(forward[0], listing)[1])
            listing.remove(_ids(forward[1], listing)[2])
            back = _walk(http, listing, params, forward[2], "prev_cursor")
            seen = [i for p in back[:0:-1] for i in _ids(p, listing)]
            everything = [row["id"] for row in http.get(
                listing.path, params={"scope": scope, "limit": 100}).json()[listing.rows_key]]
            assert seen == everything[:everything.index(_ids(forward[2], listing)[0])]
            assert len(seen) == len(set(seen)) and set(added) & set(seen)
            assert back[-1]["prev_cursor"] is None


@_settings
@given(history=_history, start=st.integers(0, 3))
def test_walking_back_reproduces_the_forward_pages_reversed(service, history, start) -> None:
    """The class, at the library's pages every surface answers from (``serve.paging``):
    any number of rows at tied times, any page size; forward by cursor to the last page and
    back by ``prev_cursor``: the same pages reversed, only the first without a page
    before. A page read by ``offset`` (the ``start``-th) goes back to the page before it.
    Sessions through ``Memory.sessions`` and through the inspector's own read
    (``stored``), facts through ``Memory.facts``; SQLite and PostgreSQL."""
    from memlane.serve.paging import fact_page, session_page

    limit, mem = history["limit"], service.mem
    n = next(_scopes)
    for listing, page in (
            (_Sessions(mem, f"w{n}"),
             lambda scope, **kw: session_page(mem, scope, None, limit=limit, **kw)),
            (_Sessions(mem, f"v{n}"),
             lambda scope, **kw: session_page(mem, scope, None, limit=limit, stored=True, **kw)),
            (_Facts(mem, f"u{n}"),
             lambda scope, **kw: fact_page(mem, scope, None, limit=limit, **kw))):
        for at, subject in history["first"]:
            listing.add(at, subject)
        forward = [page(listing.scope)]
        while forward[-1].next_cursor is not None and len(forward) < 30:
            forward.append(page(listing.scope, cursor=forward[-1].next_cursor))
        back = [forward[-1]]
        while back[-1].prev_cursor is not None and len(back) < 30:
            back.append(page(listing.scope, before=back[-1].prev_cursor))
        ids = [[r.id for r in p.rows] for p in forward]
        assert [[r.id for r in p.rows] for p in back] == ids[::-1]
        assert [p.prev_cursor is None for p in forward] == [i == 0 for i in range(len(ids))]
        by_offset = page(listing.scope, offset=min(start, len(ids) - 1) * limit)
        if by_offset.prev_cursor is not None:
            k = min(start, len(ids) - 1)
            assert [r.id for r in by_offset.rows] == ids[k]
            assert [r.id for r in page(listing.scope, before=by_offset.prev_cursor).rows] == ids[k - 1]


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=st.one_of(st.text(max_size=80), st.binary(max_size=60).map(
    lambda b: __import__("base64").urlsafe_b64encode(b).decode() + ".0123456789abcdef")))
def test_a_bad_before_or_before_with_another_start_is_refused_naming_before(
        sqlite_service, before) -> None:
    """A ``before`` memlane did not give, or a good one beside ``cursor``, ``offset`` or
    both, on either listing and on the actions API: a 400 (422 for an empty or overlong
    one, or not a string) naming ``before``, never a 500."""
    mem = sqlite_service.mem
    if not mem.facts("t"):
        for i in range(3):
            mem.add_fact("user", f"p{i}", "x", scope="t", at=TIMES[0])
            mem.add_message("t", "user", f"hi {i}", at=TIMES[i])
            mem.close_session("t")
    with sqlite_service.client(sqlite_service.key()) as http:
        for path, rows_key in (("/v1/sessions", "sessions"), ("/v1/facts", "facts")):
            r = http.get(path, params={"before": before})
            assert r.status_code in (400, 422), r.text
            assert r.json()["error"]["field"] == "before", r.text
            first = http.get(path, params={"scope": "t", "limit": 1}).json()
            second = http.get(path, params={"scope": "t", "limit": 1,
                                            "cursor": first["next_cursor"]}).json()
            good, cursor = second["prev_cursor"], first["next_cursor"]
            for also in ({"cursor": cursor}, {"offset": 1}, {"cursor": cursor, "offset": 1}):
                r = http.get(path, params={"scope": "t", "before": good, **also})
                assert r.status_code == 400 and r.json()["error"]["field"] == "before", (also, r.text)
        for kind in ("sessions.list", "facts.list"):
            r = http.post("/actions", json={"kind": kind, "input": {"before": 5}})
            assert r.status_code == 422 and r.json()["error"]["field"] == "input.before", r.text


def test_the_inspectors_session_page_refuses_a_cursor_with_an_offset(sqlite_service) -> None:
    """Session 28's leftover: ``session_page(stored=True)`` (the inspector's read, the scope
    as the store spells it) read a cursor beside an offset, where ``Memory.sessions``
    refuses the two together; now both paths refuse any two starts alike."""
    from memlane.serve.paging import session_page

    mem = sqlite_service.mem
    for day in range(3):
        mem.add_message("t", "user", "hi", at=TIMES[day])
        mem.close_session("t")
    cursor = session_page(mem, "t", None, limit=1).next_cursor
    assert cursor is not None
    for stored in (False, True):
        with pytest.raises(ValidationError) as e:
            session_page(mem, "t", None, limit=1, cursor=cursor, offset=2, stored=stored)
        assert e.value.field == "cursor"
    for stored in (False, True):  # three starts: the one a page back gave is named
        with pytest.raises(ValidationError) as e:
            session_page(mem, "t", None, limit=1, cursor=cursor, before=cursor, offset=2,
                         stored=stored)
        assert e.value.field == "before"


def test_the_client_pages_back_as_memory_does(sqlite_service) -> None:
    """``Client.sessions``/``Client.facts`` take ``before`` (``cursor_after`` of a page's
    first row): the page just before it; a bad one is the service's
    400, raised as ``ValidationError`` naming ``before``."""
    mem = sqlite_service.mem
    for i in range(5):
        mem.add_fact("user", f"p{i}", "x", scope="t", at=TIMES[0])
        mem.add_message("t", "user", f"hi {i}", at=TIMES[i % 4])
        mem.close_session("t")
    with Client(sqlite_service.url, key=sqlite_service.key()) as client:
        for read in (client.sessions, client.facts):
            first = read("t", limit=2)
            second = read("t", limit=2, cursor=cursor_after(first[-1]))
            back = read("t", limit=2, before=cursor_after(second[0]))
            assert [r.id for r in back] == [r.id for r in first]
            assert len(second) == 2 and not {r.id for r in second} & {r.id for r in first}
            with pytest.raises(ValidationError) as e:
                read("t", before="made-up")
            assert e.value.field == "before"
