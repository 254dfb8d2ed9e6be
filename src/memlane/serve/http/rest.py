"""REST resources over the same handlers as ``/actions`` (``actions.run``).

Each route answers the action's result itself (not the ``/actions`` envelope); the
per-stage timings go in the standard ``Server-Timing`` header.

    POST   /v1/messages              memory.add       (one message or {"messages": [...]})
    POST   /v1/search                memory.search
    POST   /v1/pack                  memory.pack
    POST   /v1/items                 memory.upsert
    POST   /v1/index                 index
    GET    /v1/sessions              sessions.list    (?scope=&status=&limit=&offset=|cursor=|before=)
    GET    /v1/sessions/{id}         sessions.show    (?from_turn=&limit=: next_turn reads on)
    POST   /v1/sessions/close        sessions.close
    DELETE /v1/sessions/{id}         sessions.forget  (erasure, docs/erasure.md)
    DELETE /v1/scopes/{scope}        scopes.forget    (erasure, docs/erasure.md)
    GET    /v1/facts                 facts.list       (?scope=&subject=&include_superseded=&limit=&offset=|cursor=|before=)
    GET    /v1/facts/history         facts.history    (?subject=&predicate=&scope=)
    DELETE /v1/facts/{id}            facts.forget
    GET    /v1/graph/{entity}        graph.show       (?scope=)
    GET    /v1/packs/{id}            packs.show
    GET    /v1/stats                 stats
"""

from __future__ import annotations

import re

from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel
from pydantic import ValidationError as InputError

from memlane.ingest.validate import Whole
from memlane.serve.http import models as m
from memlane.serve.http.actions import answer_in_thread, server_timing
from memlane.serve.http.errors import KnownQuery
from memlane.serve.http.responses import JSONResponse

__all__ = ["ROUTES", "mount"]

Id = Annotated[Annotated[int, Whole(1)], Path()]  # an id SQLite can hold, else 422

TEXT_ROUTES: list[tuple[str, re.Pattern[str]]] = []
"""``(method, regex)`` of the routes with a ``{name:path}`` parameter, the parameter
matching any text, line breaks included (``app.LineBreakInPath``)."""

ROUTES: list[tuple[str, str, str]] = []
"""``(method, path, action kind)`` of every resource route (the tests walk this table)."""


def _input(model: type[BaseModel], **values: Any) -> BaseModel:
    """The input a route builds from its path and query parameters, refused as a request
    that does not fit its schema is (the key first, then 422 naming the parameter):
    ``DELETE /v1/scopes/`` (an empty ``{scope:path}``) and ``GET /v1/graph/`` were 500s,
    pydantic's error raised in the handler (session 27)."""
    try:
        return model.model_validate(values)
    except InputError as e:
        raise RequestValidationError(e.errors()) from None


async def _answer(request: Request, kind: str, inp: BaseModel) -> JSONResponse:
    result, timings = await answer_in_thread(request, kind, inp)
    return JSONResponse(result, headers={"Server-Timing": server_timing(timings)})


def mount(app: FastAPI) -> None:
    r = APIRouter(prefix="/v1", tags=["resources"], dependencies=[KnownQuery])
    ROUTES.clear()
    TEXT_ROUTES.clear()

    def route(method: str, path: str, kind: str) -> Any:
        if ":path}" in path:
            TEXT_ROUTES.append((method, re.compile("^/v1" + re.sub(
                r"\{(\w+)(:\w+)?\}", lambda g: f"(?P<{g[1]}>[\\s\\S]*)" if g[2] == ":path"
                else f"(?P<{g[1]}>[^/]*)", path) + "$")))
        ROUTES.append((method, "/v1" + path.replace(":path}", "}"), kind))  # as OpenAPI names it
        return r.api_route(path, methods=[method], summary=f"{kind} (same handler as /actions)")

    @route("POST", "/messages", "memory.add")
    async def messages(body: m.AddInput, request: Request) -> JSONResponse:
        return await _answer(request, "memory.add", body)

    @route("POST", "/search", "memory.search")
    async def search(body: m.SearchInput, request: Request) -> JSONResponse:
        return await _answer(request, "memory.search", body)

    @route("POST", "/pack", "memory.pack")
    async def pack(body: m.PackInput, request: Request) -> JSONResponse:
        return await _answer(request, "memory.pack", body)

    @route("POST", "/items", "memory.upsert")
    async def items(body: m.UpsertInput, request: Request) -> JSONResponse:
        return await _answer(request, "memory.upsert", body)

    @route("POST", "/index", "index")
    async def index(request: Request, body: m.IndexInput | None = None) -> JSONResponse:
        # every option has a default: a bare POST (curl -X POST .../v1/index) indexes
        return await _answer(request, "index", body or m.IndexInput())

    @route("GET", "/sessions", "sessions.list")
    async def sessions(q: Annotated[m.SessionsInput, Query()], request: Request) -> JSONResponse:
        return await _answer(request, "sessions.list", q)

    @route("POST", "/sessions/close", "sessions.close")
    async def sessions_close(body: m.CloseInput, request: Request) -> JSONResponse:
        return await _answer(request, "sessions.close", body)

    @route("GET", "/sessions/{id}", "sessions.show")
    async def session(id: Id, request: Request,
                      from_turn: Annotated[Annotated[int, Whole(1)], Query()] = 1,
                      limit: Annotated[Annotated[int, Whole(1, 100_000)] | None, Query()] = None
                      ) -> JSONResponse:
        return await _answer(request, "sessions.show",
                             _input(m.SessionShowInput, id=id, from_turn=from_turn, limit=limit))

    @route("DELETE", "/sessions/{id}", "sessions.forget")
    async def session_forget(id: Id, request: Request) -> JSONResponse:
        return await _answer(request, "sessions.forget", _input(m.IdInput, id=id))

    @route("DELETE", "/scopes/{scope:path}", "scopes.forget")
    async def scope_forget(scope: str, request: Request) -> JSONResponse:
        return await _answer(request, "scopes.forget", _input(m.ScopeInput, scope=scope))

    @route("GET", "/facts", "facts.list")
    async def facts(q: Annotated[m.FactsInput, Query()], request: Request) -> JSONResponse:
        return await _answer(request, "facts.list", q)

    @route("GET", "/facts/history", "facts.history")
    async def facts_history(q: Annotated[m.FactHistoryInput, Query()], request: Request) -> JSONResponse:
        return await _answer(request, "facts.history", q)

    @route("DELETE", "/facts/{id}", "facts.forget")
    async def facts_forget(id: Id, request: Request) -> JSONResponse:
        return await _answer(request, "facts.forget", _input(m.IdInput, id=id))

    @route("GET", "/graph/{entity:path}", "graph.show")  # CI/CD, TCP/IP: names with a slash
    async def graph(entity: str, request: Request,
              scope: Annotated[str | None, Query(min_length=1)] = None) -> JSONResponse:
        return await _answer(request, "graph.show", _input(m.GraphInput, entity=entity, scope=scope))

    @route("GET", "/packs/{id}", "packs.show")
    async def packs(id: Id, request: Request) -> JSONResponse:
        return await _answer(request, "packs.show", _input(m.IdInput, id=id))

    @route("GET", "/stats", "stats")
    async def stats(request: Request) -> JSONResponse:
        return await _answer(request, "stats", _input(m.EmptyInput))

    app.include_router(r)
