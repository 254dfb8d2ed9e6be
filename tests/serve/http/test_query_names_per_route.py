"""Each route of each app knows its own query parameters (session 31): the names were cached
by ``id(route)``, and a route of an app made after another was collected could take the old
one's id and its names (``GET /v1/facts?offset=0`` refused: "unknown query parameter (this
route takes predicate, scope, subject)", facts.history's; test_listing_auth failed so in
the integration CI)."""

import gc

import httpx
from fastapi import Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute

from memlane import Memory
from memlane.serve.http import create_app
from memlane.serve.http.errors import known_query_only
from memlane.testing.http import serving


def test_apps_made_one_after_another_each_take_their_own_routes_parameters(tmp_path):
    mem = Memory(str(tmp_path / "m.db"))
    try:
        for _ in range(12):  # each app served, asked, then dropped: its routes' ids come free
            with serving(create_app(mem, worker=False)) as url:
                history = httpx.get(f"{url}/v1/facts/history", params={"subject": "x", "predicate": "likes"})
                assert history.status_code == 200, history.text
                facts = httpx.get(f"{url}/v1/facts", params={"offset": 0, "limit": 1})
                assert facts.status_code == 200, facts.text
                wrong = httpx.get(f"{url}/v1/facts/history", params={"subject": "x", "predicate": "likes", "offset": 0})
                assert wrong.status_code == 422 and wrong.json()["error"]["field"] == "offset"
            gc.collect()
    finally:
        mem.close()


def _one(alpha: str = Query("")) -> dict[str, str]:
    return {}


def _other(beta: str = Query(""), gamma: int = Query(0)) -> dict[str, str]:
    return {}


def _asks(route: APIRoute, query: str) -> list[str]:
    """The query parameters ``known_query_only`` refuses for ``route`` (none: accepted)."""
    request = Request({"type": "http", "method": "GET", "path": route.path, "route": route,
                       "query_string": query.encode(), "headers": []})
    try:
        known_query_only(request)
    except RequestValidationError as e:
        return [err["loc"][1] for err in e.errors()]
    return []


def test_a_route_made_where_a_collected_one_was_keeps_its_own_names():
    """The guard above passes on the old code when no route of a later app lands on a
    collected one's address (the allocator decides). Here the case is made: a route is
    asked (its names cached), dropped (freed at once: nothing refers to it), and a route
    of other parameters made; CPython's allocator gives it the freed address nearly every
    time (checked below, so the case is met). It takes its own parameters and refuses the
    first's: before session 31's fix every reused address took the old names (``beta``
    refused, ``alpha`` accepted)."""
    reused = 0
    for _ in range(20):
        first = APIRoute("/one", _one)
        assert _asks(first, "alpha=1") == [] and _asks(first, "beta=1") == ["beta"]
        address = id(first)
        del first  # the only reference: freed here, not at a collection
        second = APIRoute("/other", _other)
        reused += id(second) == address
        assert _asks(second, "beta=1&gamma=2") == [], id(second) == address
        assert _asks(second, "alpha=1") == ["alpha"], id(second) == address
    assert reused, "no route was made at a freed route's address: the case was not met"
