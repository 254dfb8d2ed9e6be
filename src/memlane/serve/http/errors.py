"""Every error the service answers is JSON: ``{"error": {"code", "message", "field"}}``.

``ApiError`` is raised by handlers; ``install(app)`` turns it, memlane's own errors,
request-validation errors and unknown routes into that shape with the right status. Input
never produces a 500 or a traceback: only a bug does, and then the body says "internal"
and the traceback goes to the log.

    status  code               raised for
    400     invalid            memlane ValidationError, ConfigError (a bad option value)
    401     unauthorized       no key, an unknown or revoked key
    403     forbidden          a scope the key does not hold, a write with a read-only key
                               or to a read-only database (StoreError.read_only)
    404     not_found          memlane NotFoundError, an unknown route
    405     method_not_allowed
    409     conflict           memlane ConflictError (e.g. a message id already stored)
    413     too_large          a body over ``serve.max_body_bytes``
    422     invalid_request    a request that does not match its schema (the field is named)
    429     rate_limited       over ``serve.rate_limit`` (with ``Retry-After``)
    501     not_supported      the live stream on a store without a change log
    502     backend_error      an embedder or LLM failed
    503     unavailable        the database failed
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from memlane.errors import (
    BackendError,
    ConfigError,
    ConflictError,
    NotFoundError,
    StoreError,
    ValidationError,
)
from memlane.serve.again import retry_note
from memlane.serve.http.responses import JSONResponse

__all__ = ["ApiError", "KnownQuery", "error_body", "field_of", "install", "known_query_only"]

log = logging.getLogger("memlane.serve")


class ApiError(Exception):
    """An error answered as ``{"error": {"code", "message", "field"}}`` with ``status``."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None, *,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers

    def response(self) -> JSONResponse:
        return JSONResponse(error_body(self.code, self.message, self.field),
                            status_code=self.status, headers=self.headers)


def error_body(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "field": field}}


_LOCATIONS = ("body", "query", "path", "header", "cookie")
TAGS: set[str] = set()
"""Discriminator values (action kinds) pydantic puts in error locations; not field names."""


def field_of(loc: Sequence[Any]) -> str | None:
    """A pydantic error location as a dotted field name (``input.filters.kinds.0``)."""
    parts = [str(p) for p in loc]
    if parts and parts[0] in _LOCATIONS:
        parts = parts[1:]
    parts = [p for p in parts if p not in TAGS and not _union_member(p)]
    return ".".join(parts) or None


_TYPE_NAMES = {"int", "str", "float", "bool", "none", "bytes", "list", "dict"}


def _union_member(part: str) -> bool:
    """Whether a location part names a member of a union (``constrained-int``, ``Budget``,
    ``list[str]``) rather than a field: our fields are snake_case names or indexes."""
    return (part in _TYPE_NAMES or part[:1].isupper() or "-" in part or "[" in part)


def _mismatch(error: Any) -> bool:
    """Whether pydantic's error says the value had the wrong type (not a wrong value)."""
    kind = str(error.get("type", ""))
    return kind.endswith(("_type", "_parsing")) or kind == "bool_for_number"


def _first(errors: Sequence[Any]) -> tuple[Any, int]:
    """The error to report and how many other fields have problems.

    A union field (``budget: int | {max_tokens}``, ``topics: [str | {name, weight}]``)
    fails once per member. The member the value's shape matched is the one to explain:
    ``{"max_tokens": 10}`` is too small, not 'a valid integer'. So among the first field's
    errors, one inside a member (a deeper field) or about the value (not its type) wins.
    """
    first = errors[0]
    key = field_of(first.get("loc", ())) or ""
    group = [e for e in errors
             if (f := field_of(e.get("loc", ())) or "") == key or f.startswith(key + ".")]
    told = [e for e in group if (field_of(e.get("loc", ())) or "") != key or not _mismatch(e)]
    others = {field_of(e.get("loc", ())) for e in errors if not any(e is g for g in group)}
    return (told[0] if told else first), len(others)


def from_pydantic(errors: Sequence[Any], prefix: str = "") -> ApiError:
    """The first of pydantic's errors as a 422 naming its field."""
    if not errors:
        return ApiError(422, "invalid_request", "request: invalid request", prefix or None)
    first, more_fields = _first(errors)
    if first.get("type") == "json_invalid":  # its location is a character offset, not a field
        where = first.get("loc", ())[-1]
        reason = (first.get("ctx") or {}).get("error") or "JSON decode error"
        return ApiError(422, "invalid_request", f"request: the body is not valid JSON: {reason} "
                        f"(at character {where})", prefix or None)
    field = field_of(first.get("loc", ()))
    loc = tuple(first.get("loc", ()))
    if first.get("type") == "extra_forbidden" and loc:
        # the last part is the name the client sent ("none", "Int", "x-y"), never a union
        # member for field_of to drop
        parent = field_of(loc[:-1])
        field = f"{parent}.{loc[-1]}" if parent else str(loc[-1])
    if first.get("type") in ("union_tag_invalid", "union_tag_not_found"):
        field = "kind"
    named = (first.get("ctx") or {}).get("field")  # a rule over several fields (models._rule)
    if first.get("type") == "field_rule" and isinstance(named, str):
        field = f"{field}.{named}" if field else named
    if prefix:
        field = f"{prefix}.{field}" if field else prefix
    msg = str(first.get("msg", "invalid"))
    if field is None and first.get("type") in ("model_attributes_type", "dict_type", "missing"):
        msg += " (send a JSON object with Content-Type: application/json)"
    more = f" (and {more_fields} more problem(s))" if more_fields else ""
    return ApiError(422, "invalid_request", f"{field or 'request'}: {msg}{more}", field)


RETRY_AFTER = 1
"""Seconds a 503 of the database asks a client to wait (``Retry-After``): an outage, a
restart, a server with every connection taken, a connection lost in the middle of a call."""


def _memlane(exc: Exception) -> ApiError:
    if isinstance(exc, ConflictError):
        return ApiError(409, "conflict", str(exc), exc.field)
    if isinstance(exc, ValidationError):
        return ApiError(400, "invalid", str(exc), exc.field)
    if isinstance(exc, NotFoundError):
        return ApiError(404, "not_found", str(exc), getattr(exc, "field", None))
    if isinstance(exc, ConfigError):
        field = str(exc).split(":", 1)[0] if ":" in str(exc) else None
        return ApiError(400, "invalid", str(exc), field)
    if isinstance(exc, StoreError) and exc.read_only:  # trying again changes nothing
        # logged as the 503 is (session 37, fix37b: an operator whose service refused every
        # write saw it only in the clients' answers)
        log.error("database error: %s", exc)
        return ApiError(403, "forbidden", f"this request changes memory, and {exc}")
    if isinstance(exc, StoreError):
        log.error("database error: %s", exc)
        hint = (" (the PostgreSQL server's max_connections is reached: a memlane serve process "
                "holds up to serve.db_connections of them (0: half of the server's, shared by its "
                "processes); retry, or lower "
                "serve.db_connections)") if exc.full else ""
        return ApiError(503, "unavailable",
                        f"the database failed: {exc}{hint}{retry_note(exc)}",
                        headers={"Retry-After": str(RETRY_AFTER)})
    if isinstance(exc, BackendError):
        return ApiError(502, "backend_error", str(exc))
    raise exc


def to_api_error(exc: Exception) -> ApiError:
    """``exc`` (an ApiError or one of memlane's errors) as an ApiError."""
    return exc if isinstance(exc, ApiError) else _memlane(exc)


_QUERY_NAMES = "_memlane_query_names"  # the attribute a route keeps its names in


def _query_names(route: Any) -> frozenset[str]:
    """The query parameters ``route`` declares, a model's fields among them (by name and
    alias). A route whose model declared them was left to the model, which refused an
    unknown one as "Extra inputs are not permitted" where every other route says which
    parameters it takes (session 27). Kept per route object while it lives: keyed by
    ``id(route)`` in a dict, a route of an app made after another was collected could take
    the old one's id, and its names (``GET /v1/facts`` refused ``offset`` as not among
    ``facts.history``'s parameters, session 31)."""
    known: frozenset[str] | None = getattr(route, _QUERY_NAMES, None)
    if known is None:
        params: list[Any] = []
        pending = [route.dependant]
        while pending:
            dependant = pending.pop()
            params += dependant.query_params
            pending += dependant.dependencies
        names: set[str] = set()
        for p in params:
            model = p.field_info.annotation
            if isinstance(model, type) and issubclass(model, BaseModel):
                names.update(n for name, f in model.model_fields.items()
                             for n in (name, f.alias) if n)
            else:
                names.add(p.alias)
        known = frozenset(names)
        setattr(route, _QUERY_NAMES, known)
    return known


def known_query_only(request: Request) -> None:
    """Dependency: a query parameter the route does not take, or one given more than once
    (every parameter of the service takes one value), is a 422 naming it.

    Otherwise a misspelt option is silently ignored: ``GET /v1/graph/Lisbon?scpoe=chat-42``
    answered from every scope, ``POST /v1/search?scope=chat-42`` searched every scope. It is
    raised as a request-validation error, whose handler authenticates first (401 before
    422)."""
    route = request.scope.get("route")
    if getattr(route, "dependant", None) is None:
        return
    given: set[str] = set()
    for name, _ in request.query_params.multi_items():
        if name in given:  # ?scope=a&scope=b answered scope b's data, not a word of a
            count = len(request.query_params.getlist(name))
            raise RequestValidationError([{
                "type": "value_error", "loc": ("query", name), "input": name,
                "msg": f"given {count} times; pass it once (it takes one value)"}])
        given.add(name)
    allowed = _query_names(route)
    for name in request.query_params:
        if name not in allowed:
            takes = ", ".join(sorted(allowed)) or "no query parameters"
            raise RequestValidationError([{
                "type": "extra_forbidden", "loc": ("query", name), "input": name,
                "msg": f"unknown query parameter (this route takes {takes})"}])


KnownQuery = Depends(known_query_only)


_UNPARSED = "There was an error parsing the body"


def _why_unparsed(body: bytes) -> str:
    """Why ``json.loads`` refused ``body`` when it raised no JSONDecodeError."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"not UTF-8 text (byte 0x{body[e.start]:02x} at byte {e.start})"
    return "nested too deeply (arrays or objects inside one another past the parser's limit)"


_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
_SHOWN = 200
"""Characters of a request's path an error message repeats (a path may be kilobytes)."""


def _shown_path(path: str) -> str:
    """``path`` as an error message quotes it: at most ``_SHOWN`` characters."""
    return path if len(path) <= _SHOWN else path[:_SHOWN] + f"… ({len(path)} characters)"


_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _allowed(request: Request) -> list[str]:
    """The methods a route of the request's path takes: each one asked of the router.

    Starlette's 405 names the methods of the first route whose path matches: ``POST
    /v1/sessions/1`` said ``Allow: GET``, though ``DELETE`` is a route of that path too. HEAD
    is answered wherever GET is (``app.HeadAsGet``), but on the live stream and ``/mcp``."""
    from starlette.routing import Match

    from memlane.serve.http.app import HeadAsGet

    path = request.scope.get("path", "")
    probe = {"type": "http", "path": path, "root_path": request.scope.get("root_path", ""),
             "headers": []}
    methods = [m for m in _ORDER if any(
        route.matches({**probe, "method": m})[0] == Match.FULL
        for route in request.app.router.routes)]
    if "GET" in methods and "HEAD" not in methods and not path.startswith(HeadAsGet.SKIP):
        methods.insert(1, "HEAD")
    return methods


def _refusal(request: Request, status: int, detail: Any,
             headers: dict[str, str] | None) -> tuple[str, str, str | None]:
    """``(code, message, field)`` of an HTTP error the router raised.

    An unknown route and a wrong method answered "Not Found" and "Method Not Allowed" with
    ``field`` null, where every other 4xx names what was wrong: they name the ``path`` (and
    where the routes are listed) and the ``method`` (and the ones the route takes, as
    ``Allow`` does)."""
    method, path = request.method, _shown_path(request.url.path)
    if status == 404:
        return ("not_found", f"path: no route {method} {path} (the routes are listed at "
                "/openapi.json)", "path")
    if status == 405:
        allowed = (headers or {}).get("Allow") or "none"
        return ("method_not_allowed", f"method: {method} is not allowed on {path} "
                f"(it takes {allowed})", "method")
    return _CODES.get(status, "http_error"), str(detail) if detail else "error", None


def install(app: FastAPI) -> None:
    """Register the handlers that give every error the JSON shape."""

    async def api_error(_: Request, exc: Exception) -> JSONResponse:
        return to_api_error(exc).response()

    async def request_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        # Authentication comes first. Routes authenticate inside their handler (one thread
        # hop a request), which an invalid input never reaches, so a caller without a valid
        # key gets its 401 here and learns nothing about its input.
        from memlane.serve.http.auth import principal

        try:
            await run_in_threadpool(principal, request)
        except ApiError as e:
            return e.response()
        return from_pydantic(exc.errors()).response()

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 400 and exc.detail == _UNPARSED:
            # FastAPI's answer to a body json.loads raised other than JSONDecodeError on
            # (bytes that are not UTF-8, arrays nested past the recursion limit): a bare
            # 400 "error parsing the body", before the key was even checked. Now as any
            # invalid body: the key first, then a 422 saying what is wrong with it.
            from memlane.serve.http.auth import principal

            try:
                await run_in_threadpool(principal, request)
            except ApiError as e:
                return e.response()
            # the body as FastAPI read it; never read again here: a body the size cap cut
            # short (BodyLimit, which answers 413 instead) would wait for bytes that never come
            body = getattr(request, "_body", None)
            why = (_why_unparsed(body) if isinstance(body, bytes)
                   else "it could not be read whole")
            return ApiError(422, "invalid_request",
                            "request: the body is not valid JSON: " + why).response()
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:
            headers = {**(headers or {}), "Allow": ", ".join(_allowed(request))}
        code, message, field = _refusal(request, exc.status_code, exc.detail, headers)
        return JSONResponse(error_body(code, message, field), status_code=exc.status_code,
                            headers=headers)

    async def internal(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", exc_info=exc)
        return JSONResponse(error_body("internal", "internal error; see the service log"),
                            status_code=500)

    app.add_exception_handler(ApiError, api_error)
    for cls in (ValidationError, NotFoundError, ConfigError, StoreError, BackendError):
        app.add_exception_handler(cls, api_error)
    app.add_exception_handler(RequestValidationError, request_validation)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, internal)
